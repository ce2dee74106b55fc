// The bridges a hub runs: those in `<home>/bridges.json`, read again whenever the file changes, so
// `switchboard bridge add` and `remove` take effect within a lease tick (2.5 s) without a restart. Each
// platform's bridge runs under a lease of its own (`bridge:<platform>`), on one hub of a database at
// a time, so that a hub that cannot reach one platform hands that bridge alone to another hub.
import {
  BRIDGE_PLATFORMS,
  type BridgeConfig,
  type BridgePlatform,
  bridgesStamp,
  readBridges,
} from '../../core/bridges.js'
import type { BridgeStatus } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import type { PlatformAdapter } from '../../sources/chat/platform.js'
import type { OutboxItem } from '../../store/store.js'
import type { ChatSurface } from '../core/chat-surface.js'
import type { Hub } from '../core/hub.js'
import type { HubSecrets } from '../core/hub-secrets.js'
import type { ExclusiveWork, WorkSource } from '../core/lease-keeper.js'
import type { ShownOutcome } from '../people/sender-outbox.js'
import type { Bridge } from './bridge.js'
import { groupSenderNameOf, type RoutineControl, type SessionControl, THREAD_END } from './context.js'
import { BridgeMemory } from './memory.js'

const WATCH_MS = 1000
/**
 * How often items stored where no listener here heard them are looked for anyway. The CLI's (a
 * "Paired") are looked for as soon as the store says it wrote (hub.outbox.catchUp).
 */
const SWEEP_MS = 2000

/** The lease a platform's bridge runs under. */
export const bridgeLease = (platform: BridgePlatform) => `bridge:${platform}`

export interface BridgeHandover {
  /** How long a bridge's platform may go unanswered before its lease is handed over (platformLostMs). */
  platformLostMs: number
  /** Gives the lease up to another hub (LeaseKeeper.handOver); null with no other hub to take it. */
  handOver: ((lease: string) => Promise<unknown>) | null
}

/** The platform's adapter, loaded only when a bridge for it is configured: the libraries are big. */
async function createAdapter(
  platform: BridgePlatform,
  config: BridgeConfig,
  log: Logger,
  platformLostMs: number,
): Promise<PlatformAdapter> {
  const credentials = { token: config.token, appToken: config.appToken, apiUrl: config.apiUrl }
  switch (platform) {
    case 'telegram':
      return (await import('../../sources/telegram/adapter.js')).createTelegramAdapter(
        credentials,
        log,
        platformLostMs,
      )
    case 'discord':
      return (await import('../../sources/discord/adapter.js')).createDiscordAdapter(credentials, log)
    case 'slack':
      return (await import('../../sources/slack/adapter.js')).createSlackAdapter(credentials, log)
  }
}

export class BridgeManager {
  private readonly bridges = new Map<BridgePlatform, Bridge>()
  /** The platforms whose lease this hub holds: their bridges run here while configured. */
  private readonly held = new Set<BridgePlatform>()
  /** The bridges in the file, as last read. */
  private configured: Partial<Record<BridgePlatform, BridgeConfig>> = {}
  private stamp = ''
  private watch: NodeJS.Timeout | null = null
  private sweep: NodeJS.Timeout | null = null
  private checking = Promise.resolve()

  constructor(
    private readonly hub: Hub,
    private readonly sessions: SessionControl | null,
    private readonly routines: RoutineControl | null,
    private readonly home: string,
    private readonly log: Logger,
    /** What every bridge redacts from what it sends. */
    private readonly secrets: HubSecrets,
    private readonly handover: BridgeHandover = { platformLostMs: 60_000, handOver: null },
  ) {
    // On every hub, not only the bridges' own: a session runs on whichever hub holds its lease, and
    // its answer, stored for the chat, reaches the bridge wherever that runs.
    sessions?.onLine((id, _seq, line) => void this.sessionSaid(id, line))
    sessions?.onEnded((id, reason) => void this.sessionEnded(`session:${id}`, reason))
  }

  /** The chats the bridges own, as the hub asks of them (Hub.addChatSurface, in assemble.ts). */
  chatSurface(): ChatSurface {
    return {
      owns: (chat) => this.bridgeOf(chat.source) !== undefined,
      refuse: async (chat, extras) => (await this.bridgeOf(chat.source)?.refuse(chat, extras)) ?? null,
      act: async (chat, action, from) =>
        (await this.bridgeOf(chat.source)?.act(chat, action, from)) ?? {
          ok: false,
          message: 'no bridge runs for this chat now',
        },
    }
  }

  /**
   * An item stored for a sender (HubEvents.stored): shown by the bridge of that sender's platform.
   * One another hub stored is nothing to a hub that runs no bridge: what it would say is only heard
   * where the item was stored, and every hub hears of every item.
   */
  async stored(item: OutboxItem, here: boolean): Promise<ShownOutcome | undefined> {
    if (!here && this.bridges.size === 0) return undefined
    const sender = await this.hub.store.senderById(item.senderId)
    if (!sender) return undefined
    const bridge = [...this.bridges.values()].find((b) => b.owns(sender.name))
    if (bridge) return bridge.onOutbox(item)
    const platform = BRIDGE_PLATFORMS.find((p) => sender.name.startsWith(`${p}:`))
    // Kept for the bridge, which shows it once it runs again (a token being changed, a removed bridge).
    return platform && item.kind === 'reply'
      ? { queued: true, note: `queued: no ${platform} bridge runs now; it is delivered once one does` }
      : undefined
  }

  /** For the hub's leases: a lease for each bridge in the file, whose work is to run that bridge here. */
  work(): WorkSource {
    return {
      wanted: async () => {
        await this.reread()
        const wanted = new Map<string, ExclusiveWork>()
        for (const platform of BRIDGE_PLATFORMS)
          if (this.configured[platform])
            wanted.set(bridgeLease(platform), {
              start: () => this.run(platform),
              stop: () => this.halt(platform),
            })
        return wanted
      },
    }
  }

  /** This hub took the platform's lease: its bridge runs here (and the file is watched) until halt. */
  private async run(platform: BridgePlatform): Promise<void> {
    this.held.add(platform)
    if (!this.watch) {
      this.watch = setInterval(() => void this.reread(), WATCH_MS)
      this.watch.unref()
      this.sweep = setInterval(() => {
        void this.secrets.refresh()
        void this.sweepBridges()
      }, SWEEP_MS)
      this.sweep.unref()
    }
    this.stamp = '' // read anew: what runs follows the file as it is now
    await this.reread()
  }

  /** The platform's lease is gone from this hub (lost, handed over, or the hub stops): its bridge stops. */
  private async halt(platform: BridgePlatform): Promise<void> {
    this.held.delete(platform)
    await this.checking
    const bridge = this.bridges.get(platform)
    this.bridges.delete(platform)
    await bridge?.stop()
    if (this.held.size > 0) return
    if (this.watch) clearInterval(this.watch)
    if (this.sweep) clearInterval(this.sweep)
    this.watch = null
    this.sweep = null
  }

  /** Reads the file again if it changed, after any reading under way; a failure stops no later one. */
  private reread(): Promise<void> {
    this.checking = this.checking
      .then(() => this.check())
      .catch((err) => this.log.error({ err }, 'bridges not matched to bridges.json; trying again'))
    return this.checking
  }

  status(): BridgeStatus[] {
    return [...this.bridges.values()].map((b) => b.status())
  }

  /** Each running bridge shows what is stored for its people and not shown yet (HubEvents.missed too). */
  async sweepBridges(): Promise<void> {
    await Promise.all(
      [...this.bridges.values()].map((bridge) =>
        bridge.sweep().catch((err) => this.log.error({ err }, 'bridge sweep failed')),
      ),
    )
  }

  /** A session started from a chat (`/new`) answered: the answer goes to that chat. */
  private async sessionSaid(sessionId: string, line: { type: string; [key: string]: unknown }) {
    if (line.type !== 'result' || typeof line.result !== 'string' || !line.result) return
    try {
      for (const platform of BRIDGE_PLATFORMS) {
        const chatId = await new BridgeMemory(this.hub.store, platform).sessionChat(sessionId)
        if (chatId) await this.hub.reply(`session:${sessionId}`, chatId, line.result)
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message, session: sessionId }, 'session answer not sent')
    }
  }

  /**
   * A session that ended (driven, at a terminal, a channel): its threads get a last line and are
   * closed. Told through the group's outbox, like its answers, so the hub running the bridge does it
   * wherever the session ran. Told by HubEvents.sessionEnded, and the session manager's own.
   */
  async sessionEnded(session: string, reason: string | null): Promise<void> {
    try {
      for (const platform of BRIDGE_PLATFORMS) {
        const thread = await new BridgeMemory(this.hub.store, platform).thread(session)
        if (!thread || thread.closed) continue
        const group = await this.hub.store.senderByName(groupSenderNameOf(platform, thread.chat))
        if (!group) continue
        await this.hub.outbox.send(group.id, {
          kind: THREAD_END,
          body: {
            session,
            // Named as its thread is: a session that left may be known by nothing else now.
            text: `⏹ ${thread.title} ended${reason ? `: ${reason}` : ''}`,
          },
        })
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message, session }, 'session thread not closed')
    }
  }

  private bridgeOf(chatSource: string): Bridge | undefined {
    return [...this.bridges.values()].find((b) => chatSource.startsWith(`${b.platform}:`))
  }

  /**
   * Reads the file if it changed, and starts, restarts, reconfigures or stops bridges to match: a
   * bridge starts only where its lease is held (a bridge removed from the file frees its lease at the
   * next tick, as work no longer wanted).
   */
  private async check(): Promise<void> {
    const stamp = bridgesStamp(this.home)
    if (stamp === this.stamp) return
    this.stamp = stamp
    let wanted: Partial<Record<BridgePlatform, BridgeConfig>>
    try {
      wanted = readBridges(this.home)
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'bridges.json not read; the running bridges go on')
      return
    }
    this.configured = wanted
    for (const [platform, bridge] of this.bridges) {
      const config = this.held.has(platform) ? wanted[platform] : undefined
      if (config && !bridge.needsRestart(config)) {
        bridge.reconfigure(config)
        continue
      }
      this.bridges.delete(platform)
      await bridge.stop()
      this.log.info({ platform }, config ? 'bridge restarting with new credentials' : 'bridge removed')
    }
    const starting = (Object.entries(wanted) as [BridgePlatform, BridgeConfig][]).filter(
      ([platform, config]) => config && this.held.has(platform) && !this.bridges.has(platform),
    )
    if (!starting.length) return
    // A bridge's machinery (delivery, prompts, progress, threads …) is loaded by the first bridge
    // configured, not by every hub, as its platform's library is (createAdapter).
    const { Bridge } = await import('./bridge.js')
    for (const [platform, config] of starting) {
      const bridge = new Bridge(platform, config, {
        hub: this.hub,
        sessions: this.sessions,
        routines: this.routines,
        log: this.log,
        home: this.home,
        secrets: this.secrets,
        createAdapter: (p, c, l) => createAdapter(p, c, l, this.handover.platformLostMs),
        platformLostMs: this.handover.platformLostMs,
        // Its platform out of reach from here: the bridge goes to a hub that may reach it.
        unreachable: this.handover.handOver ? () => this.handover.handOver?.(bridgeLease(platform)) : null,
      })
      this.bridges.set(platform, bridge)
      bridge.start()
    }
  }
}
