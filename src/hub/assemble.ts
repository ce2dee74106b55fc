// The hub put together, once: the core (events, access, decisions, leases), driven sessions, chat
// bridges, outbound webhooks, the dashboard's sign-in and feeds, and what the one app needs of them
// (hub/http/parts.ts). server.ts serves it; what runs on one hub at a time is given to the leases.
import { readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { WebSocketServer } from 'ws'
import { agentEnv, claudeEnv } from '../claude/env.js'
import { readAdminToken } from '../core/admin-token.js'
import { DRIVEN_AGENTS } from '../core/agents.js'
import { dialHost, type HubConfig } from '../core/config.js'
import { durationSeconds } from '../core/decision-timeout.js'
import { pinText } from '../core/fingerprint.js'
import type { HubStatus } from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import { isLoopback, reachableAt } from '../core/network.js'
import { hubSettingsShown } from '../core/settings/show.js'
import type { Settings } from '../core/settings/table.js'
import { VERSION } from '../core/version.js'
import type { Store } from '../store/store.js'
import { BridgeManager } from './bridges/manager.js'
import { Hub } from './core/hub.js'
import { readHubId } from './core/hub-id.js'
import { HubSecrets } from './core/hub-secrets.js'
import { clusterHubs, LeaseKeeper } from './core/lease-keeper.js'
import { followOtherHubs } from './core/other-hubs.js'
import { startRetention } from './core/retention.js'
import type { Forwarding } from './http/forward.js'
import { ForwardVerifier } from './http/forward-signature.js'
import type { HubParts } from './http/parts.js'
import { SenderStreams } from './http/sender-streams.js'
import { SourceCache } from './http/source-cache.js'
import type { HubTls } from './net/tls.js'
import { OutboundWebhooks } from './outbound/outbound.js'
import { ChatReplies } from './people/chat-replies.js'
import { Push } from './people/push.js'
import { DecisionFeed, turnRow } from './people/views.js'
import { WebSignin } from './people/web-signin.js'
import { GitHubComments } from './routines/github-comments.js'
import { Routines } from './routines/routines.js'
import { SessionManager } from './sessions/session-manager.js'
import { HookDeliveries } from './terminals/hook-deliveries.js'
import { TerminalHooks } from './terminals/terminal-hooks.js'

const SWEEP_MS = 60_000

export interface Assembled extends HubParts {
  /** The TCP port is bound (its number, when the config said 0). */
  listening(port: number): void
  listeningOnSocket(path: string): void
  /** Where other hubs reach this one, its certificate pinned. */
  advertised(): string
  /** What runs in the background for the hub's lifetime: sweeps, and hearing other hubs. */
  startBackground(): { stop(): void }
}

/** Where this process's logs go: the logFile setting, or the file stderr was opened on (autostart). */
function logDestination(config: HubConfig): string {
  if (config.logFile) return config.logFile
  try {
    const target = readlinkSync('/proc/self/fd/2')
    return target.startsWith('/') && !target.startsWith('/dev/') ? target : 'stderr'
  } catch {
    return 'stderr'
  }
}

export function assemble(
  config: HubConfig,
  store: Store,
  log: Logger,
  tls: HubTls | null,
  /** The settings as they were resolved (serve at a terminal sets its own logFile after). */
  resolved: Settings = config,
): Assembled {
  let port = config.port
  // One object per port, not one per request: the guard reads it on every request.
  let hostRules = { bound: config.host, port, allowedHosts: config.allowedHosts }
  let socket: string | null = null
  const startedAt = Date.now()
  const logFile = logDestination(config)
  // The other hubs pin the certificate named with the address, once this hub has proved itself on it.
  const advertised = () =>
    `${config.advertise ?? reachableAt(config.host, port)}${tls ? `#${pinText(tls.fingerprint)}` : ''}`
  const leases = new LeaseKeeper(
    store,
    readHubId(config.home),
    log,
    advertised,
    config.leaseMs,
    Boolean(config.databaseUrl),
  )
  // Read once: the hub's config does not change while it runs.
  const decisionTimes = {
    timeoutSeconds: durationSeconds(config.decisionTimeout) ?? null,
    outcome: config.decisionTimeoutOutcome,
    warningSeconds: durationSeconds(config.decisionWarning) ?? null,
  }
  const hub = new Hub(store, log, leases, {
    routing: () => config.routing,
    decisionTimes: () => decisionTimes,
  })
  const adminToken = readAdminToken(config)

  const streams = new SenderStreams(store, hub.outbox)
  // The webhook sources as the webhook route reads them: a change on another hub drops what it cached.
  const sources = new SourceCache(store)
  const sessions = new SessionManager(
    store,
    hub,
    log,
    adminToken,
    {
      env: claudeEnv(process.env, config),
      byAgent: Object.fromEntries(
        DRIVEN_AGENTS.map((agent) => [agent, agentEnv(agent, process.env, config)]),
      ),
    },
    config.sessionIdleMinutes,
  )
  const terminalHooks = new TerminalHooks(
    hub,
    log,
    () => ({
      hookWaitSeconds: config.hookWaitSeconds,
      presenceSeconds: config.presenceSeconds,
      escalateSeconds: config.escalateSeconds,
    }),
    // Receipts of the events the hooks hand over, within the channel's deadlines.
    new HookDeliveries(hub, log, () => ({ confirmMs: config.confirmMs, confirmTries: config.confirmTries })),
  )
  const routines = new Routines(hub, sessions, log, {
    worktrees: join(config.home, 'worktrees'),
    overallCap: () => config.routineRuns,
    hasGitHubToken: () => config.githubToken !== null,
  })
  // Secrets of the hub not kept in its home or store: an admin token or a GitHub token given by a setting.
  const secrets = new HubSecrets(config.home, store, [adminToken, config.githubToken ?? ''])
  const bridges = new BridgeManager(hub, sessions, routines, config.home, log, secrets, {
    platformLostMs: config.platformLostMs,
    // Alone on its store, a hub has no one to hand a bridge to: it keeps trying the platform itself.
    handOver: config.databaseUrl ? (lease) => leases.handOver(lease) : null,
  })
  const outbound = new OutboundWebhooks(hub, log)
  const signin = new WebSignin(store)
  // Prompts and turn ends are pushed by the hub where they happen: once, whichever hubs share the store.
  const push = new Push(store, log, { contact: () => config.pushContact })
  const feed = new DecisionFeed(hub)
  const replies = new ChatReplies(hub)
  // Who hears what the core tells (hub/core/hub-events.ts), in one place. An item stored for a
  // sender goes to every surface that shows senders' items; the one owning the sender answers.
  hub.events.stored.on(async (item) => {
    await streams.show(item)
    return undefined
  })
  hub.events.stored.on((item, here) => bridges.stored(item, here))
  hub.addChatSurface(bridges.chatSurface())
  hub.events.stored.on((item) => feed.stored(item))
  hub.events.stored.on((item) => replies.stored(item))
  hub.events.missed.on(() => streams.catchUp())
  hub.events.missed.on(() => bridges.sweepBridges())
  hub.events.sessionEnded.on((session, reason) => void bridges.sessionEnded(session, reason))
  hub.events.receipt.on((subscriber, receipt) => outbound.receipt(subscriber, receipt))
  hub.events.sourceChanged.on((name) => sources.forget(name))
  // A prompt is pushed to its operator's browsers by the hub that stored it: once, whichever hubs
  // share the store (they hear of it too). Not awaited: a slow push service holds up nobody.
  hub.events.stored.on((item, here) => {
    if (here) push.stored(item).catch((err) => log.warn({ err }, 'push of a prompt failed'))
    return undefined
  })
  sessions.onLine((id, _seq, line) => hub.activity.fromLine(`session:${id}`, line))
  sessions.onPartial((id, piece) => hub.activity.fromPartial(`session:${id}`, piece))
  sessions.onLine((id, _seq, line) => {
    const turn = turnRow(id, line)
    if (turn) push.turn(turn).catch((err) => log.warn({ err }, 'push of a turn end failed'))
  })
  const inClear = !tls && !isLoopback(config.host)
  const forwarding: Forwarding = {
    key: adminToken,
    hubId: leases.hubId,
    inClear,
  }

  leases.source(outbound.work())
  leases.source(sessions.work())
  leases.source(routines.work())
  leases.source(
    new GitHubComments(hub, log, secrets, () => ({
      token: config.githubToken,
      apiUrl: config.githubApiUrl,
    })).work(),
  )
  leases.source(bridges.work())
  let retention: { stop(): void } | null = null
  leases.exclusive('retention', {
    start: async () => {
      retention = startRetention(store, config.retentionDays, log)
    },
    stop: async () => retention?.stop(),
  })

  const settings = hubSettingsShown(resolved)
  const status = async (): Promise<HubStatus> => {
    const subscribers = new Map((await store.listSubscribers()).map((s) => [s.name, s.pending]))
    return {
      version: VERSION,
      pid: process.pid,
      home: config.home,
      host: config.host,
      port,
      socket,
      logFile,
      startedAt,
      connected: [...hub.connections.keys()]
        .sort()
        .map((name) => ({ name, pending: subscribers.get(name) ?? 0 })),
      bridges: bridges.status(),
      operators: await store.countOperators(),
      // A sign-in link not yet used waits for no one.
      openDecisions: (await store.listDecisions({ status: 'open' })).filter((d) => d.kind !== 'signin')
        .length,
      liveSessions: sessions.liveCount(),
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      hubs: await clusterHubs(store, leases.hubId),
      fingerprint: tls?.fingerprint ?? null,
      inClear,
      settings,
    }
  }

  return {
    hub,
    sessions,
    terminalHooks,
    signin,
    feed,
    replies,
    streams,
    sources,
    outbound,
    routines,
    push,
    creds: {
      adminToken,
      store,
      verifier: new ForwardVerifier(adminToken, () => leases.hubId),
    },
    forwarding,
    log,
    home: config.home,
    maxBodyBytes: config.maxBodyBytes,
    heartbeatMs: config.heartbeatMs,
    hostRules: () => hostRules,
    status,
    async signinLink() {
      const { token, expiresAt } = await signin.createLink()
      return { url: `http://${dialHost(config.host)}:${port}/signin?token=${token}`, expiresAt }
    },
    wss: new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 }),
    listening(bound) {
      port = bound
      hostRules = { bound: config.host, port, allowedHosts: config.allowedHosts }
      sessions.listeningOn(config.host, bound)
    },
    listeningOnSocket(path) {
      socket = path
    },
    advertised,
    startBackground() {
      const sweep = setInterval(() => {
        hub.access.dropExpiredPairings().catch((err) => log.error({ err }, 'sweep failed'))
        store.dropExpiredSenders(Date.now()).catch((err) => log.error({ err }, 'sweep failed'))
      }, SWEEP_MS)
      sweep.unref()
      const otherHubs = followOtherHubs(hub, log)
      return {
        stop() {
          clearInterval(sweep)
          otherHubs.stop()
          terminalHooks.close()
        },
      }
    },
  }
}
