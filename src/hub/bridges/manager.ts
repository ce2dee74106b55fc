// The bridges a hub runs: those in `<home>/bridges.json`, read again whenever the file changes, so
// `switchboard bridge add` and `remove` take effect within a second or two without a restart.
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

/** The platform's adapter, loaded only when a bridge for it is configured: the libraries are big. */
async function createAdapter(
  platform: BridgePlatform,
  config: BridgeConfig,
  log: Logger,
): Promise<PlatformAdapter> {
  const credentials = { token: config.token, appToken: config.appToken, apiUrl: config.apiUrl }
  switch (platform) {
    case 'telegram':
      return (await import('../../sources/telegram/adapter.js')).createTelegramAdapter(credentials, log)
    case 'discord':
      return (await import('../../sources/discord/adapter.js')).createDiscordAdapter(credentials, log)
    case 'slack':
      return (await import('../../sources/slack/adapter.js')).createSlackAdapter(credentials, log)
  }
}

export class BridgeManager {
  private readonly bridges = new Map<BridgePlatform, Bridge>()
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

  /** An item stored for a sender (HubEvents.stored): shown by the bridge of that sender's platform. */
  async stored(item: OutboxItem): Promise<ShownOutcome | undefined> {
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

  async start(): Promise<void> {
    await this.check()
    this.watch = setInterval(() => {
      this.checking = this.checking.then(() => this.check())
    }, WATCH_MS)
    this.watch.unref()
    this.sweep = setInterval(() => {
      void this.secrets.refresh()
      void this.sweepBridges()
    }, SWEEP_MS)
    this.sweep.unref()
  }

  status(): BridgeStatus[] {
    return [...this.bridges.values()].map((b) => b.status())
  }

  async stop(): Promise<void> {
    if (this.watch) clearInterval(this.watch)
    if (this.sweep) clearInterval(this.sweep)
    await this.checking
    await Promise.all([...this.bridges.values()].map((b) => b.stop()))
    this.bridges.clear()
    this.stamp = '' // started again (this hub took the bridges' lease back): the file is read anew
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

  /** Reads the file if it changed, and starts, restarts, reconfigures or stops bridges to match. */
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
    for (const [platform, bridge] of this.bridges) {
      const config = wanted[platform]
      if (config && !bridge.needsRestart(config)) {
        bridge.reconfigure(config)
        continue
      }
      this.bridges.delete(platform)
      await bridge.stop()
      this.log.info({ platform }, config ? 'bridge restarting with new credentials' : 'bridge removed')
    }
    const starting = (Object.entries(wanted) as [BridgePlatform, BridgeConfig][]).filter(
      ([platform, config]) => config && !this.bridges.has(platform),
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
        createAdapter,
      })
      this.bridges.set(platform, bridge)
      bridge.start()
    }
  }
}
