// What the routes of the one app work with: the hub's parts, put together once (hub/assemble.ts).
import type { WebSocketServer } from 'ws'
import type { HubStatus } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import type { Hub } from '../core/hub.js'
import type { OutboundWebhooks } from '../outbound/outbound.js'
import type { ChatReplies } from '../people/chat-replies.js'
import type { Push } from '../people/push.js'
import type { DecisionFeed } from '../people/views.js'
import type { WebSignin } from '../people/web-signin.js'
import type { Routines } from '../routines/routines.js'
import type { SessionManager } from '../sessions/session-manager.js'
import type { TerminalHooks } from '../terminals/terminal-hooks.js'
import type { Forwarding } from './forward.js'
import type { Credentials } from './principal.js'
import type { HostRules } from './request-guard.js'
import type { SenderStreams } from './sender-streams.js'
import type { SourceCache } from './source-cache.js'

export interface HubParts {
  hub: Hub
  sessions: SessionManager
  /** Sessions at terminals, through Claude Code's hooks. */
  terminalHooks: TerminalHooks
  signin: WebSignin
  feed: DecisionFeed
  replies: ChatReplies
  streams: SenderStreams
  /** The webhook sources as read from the store, briefly cached; a change drops its entry. */
  sources: SourceCache
  outbound: OutboundWebhooks
  /** Routines: events and a person's fire that start and steer sessions (issue 25). */
  routines: Routines
  /** Web Push to operators' browsers (keys, subscriptions, sending). */
  push: Push
  creds: Credentials
  forwarding: Forwarding
  log: Logger
  /** The hub's home: where the inbox and config.json (read again for live settings) are. */
  home: string
  maxBodyBytes: number
  /** How often the hub pings each channel's socket; three silent ones end it (core/heartbeat.ts). */
  heartbeatMs: number
  /** What a TCP request's Host and Origin must name (the socket skips the check). */
  hostRules(): HostRules
  status(): Promise<HubStatus>
  /** A one-time sign-in link for the dashboard, on this hub's address. */
  signinLink(): Promise<{ url: string; expiresAt: number }>
  /** Takes the WebSocket upgrades (the hub socket, --sdk-url CLIs). */
  wss: WebSocketServer
}
