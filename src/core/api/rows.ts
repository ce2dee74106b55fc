// What the hub's routes answer, as types: the rows the dashboard shows and the CLI prints. No zod and
// no runtime code, so the page imports it freely. Types the hub protocol or the session API own
// (HubStatus, SessionView, …) are theirs, re-exported here for the clients.
export type { HubStatus, OutboundWebhookInfo, PeerInfo } from '../hub-protocol.js'
export type {
  LinesPage,
  ListedSession,
  PendingInput,
  RespondInput as Answer,
  SessionView,
} from '../session-api.js'

import type * as z from 'zod'
import type { TimeoutOutcome } from '../decision-timeout.js'
import type { ReceiptView } from '../receipts.js'
import type { RuleEffect, RuleMatch } from '../rule-match.js'
import type { RuleScope, rulePatternSchema } from '../rule-schema.js'
import type { createSessionSchema, newRuleSchema } from './schemas.js'

/** What starting a session takes (POST /api/sessions). */
export type NewSession = z.input<typeof createSessionSchema>
/** What making an "always allow" rule takes (POST /api/rules). */
export type NewRule = z.input<typeof newRuleSchema>
/** A rule by pattern (POST /api/rules/patterns), and what a preview takes (POST /api/rules/preview). */
export type NewPatternRule = z.input<typeof rulePatternSchema>

/**
 * The assistant text being written, before its line arrives: `text` goes at offset `at` of what is
 * shown; `at` 0 replaces it (and an empty text at 0 means nothing is being written).
 */
export interface PartialPiece {
  at: number
  text: string
}

/** A driven session finished a turn (its `result` line): what a notification says of it. */
export interface TurnRow {
  session: string
  /** The turn's final text, if any. */
  text: string | null
  costUsd: number | null
  /** Why the turn failed or stopped early; null when it succeeded. */
  error: string | null
}

/** A decision waiting for a person (or just answered, in the stream). */
export interface DecisionRow {
  id: string
  code: string
  kind: 'permission' | 'question' | 'plan' | 'denied' | 'pairing'
  /** The session (driven: `ses_…`; a channel: its subscriber name) or the pending sender. */
  owner: string
  status: 'open' | 'answered' | 'expired' | 'cancelled'
  request: Record<string, unknown>
  answer: Record<string, unknown> | null
  answeredBy: string | null
  createdAt: number
  /** When a prompt's timeout runs out (ms since the epoch); null: it waits on (a pairing's code: its end). */
  expiresAt: number | null
  /** What happens then (core/decision-timeout.ts); null: no timeout. */
  onTimeout: TimeoutOutcome | null
}

export interface SignedIn {
  key: string
  name: string
  expiresAt: number
}

/** Who the page is: an operator may answer and drive; a viewer was demoted and may only sign out. */
export interface Me {
  name: string
  operator: boolean
  expiresAt: number | null
}

export interface BrowserRow {
  name: string
  /** The browser's user agent when it signed in. */
  displayName: string | null
  status: 'allowed' | 'pending' | 'blocked'
  operator: boolean
  createdAt: number
  expiresAt: number | null
  /** The browser asking. */
  current: boolean
}

export interface RuleRow {
  id: string
  toolName: string
  /** By the exact input, a prefix of the shell command, or a glob of the command or path. */
  match: RuleMatch
  /** The exact input it answers; null for a pattern rule. */
  input: Record<string, unknown> | null
  /** The prefix or glob; null for an exact rule. */
  pattern: string | null
  effect: RuleEffect
  scope: RuleScope
  /** The session id, the folder or the operator; null for everywhere. */
  scopeValue: string | null
  expiresAt: number | null
  createdBy: string
  createdAt: number
  /** Prompts it answered. */
  uses: number
}

export interface ChannelRow {
  name: string
  connected: boolean
  /**
   * `channel` (notifications) or `message` (a hook feeds it); null while its session has not yet set
   * the channel up, or when it is not connected.
   */
  rung: string | null
  /** Events waiting for it. */
  pending: number
  topics: string[]
}

export interface SenderRow {
  name: string
  displayName: string | null
  status: 'allowed' | 'pending' | 'blocked'
  operator: boolean
  kind: 'token' | 'browser'
  createdAt: number
}

/** A sender as `switchboard sender list` shows it: any kind or status, with its id and expiry. */
export interface ListedSender extends SenderRow {
  id: string
  /** When its credential stops working (browsers); null: never. */
  expiresAt: number | null
}

/** A pairing request waiting for an operator: its code, when it expires, and who asked. */
export interface PairingRow {
  code: string
  createdAt: number
  expiresAt: number | null
  /** Who asked: an address and user agent over HTTP; a platform, user and chat on a chat platform. */
  request: Record<string, unknown>
}

export interface ChatReply {
  chat_id: string
  text: string
  /** The session that replied. */
  from: string
  at: number
}

/**
 * What flows through the hub:
 * GET /api/events?q=<text>&source=<name>&topic=<topic>&subscriber=<name>&state=<state>&before=<seq>&limit=<n>
 *   → { events: EventRow[] } (newest first, 50 unless limit says; state: a delivery's, or parked)
 * GET /api/sources → { sources: SourceRow[] } (never their secrets)
 * GET /api/outbound → { webhooks: OutboundRow[] }; GET /api/outbound/:name/log → { log: OutboundLogRow[] }
 * GET /api/peers → { peers: { name, aliases, live, rooms, pending }[] }
 */
export interface EventRow {
  seq: number
  id: string
  topic: string
  source: string
  sender: string | null
  content: string
  meta: Record<string, string>
  createdAt: number
  /** Per subscriber, how far its delivery got (core/receipts.ts). */
  deliveries?: ReceiptView[]
}

export interface SourceRow {
  name: string
  topic: string
  preset: string
  deliveryHeader: string | null
  /** The generic preset's map of content and attributes to JSON paths; null: none. */
  fieldMap: Record<string, string> | null
  /** The projects its events are about (`source bind`). */
  about: string[]
  createdAt: number
  /** When its last event came, if any is kept. */
  lastEventAt: number | null
}

/** One delivery attempt of an outbound webhook. */
export interface OutboundLogRow {
  webhook: string
  /** What was POSTed: an event, or a receipt of one. */
  kind: 'event' | 'receipt'
  eventId: string
  attempt: number
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null
  error: string | null
  at: number
}

/** Something that could not be delivered: a message to a name no peer holds, a webhook that kept failing. */
export interface DeadLetterRow {
  id: number
  kind: string
  target: string
  payload: Record<string, unknown>
  reason: string
  createdAt: number
}

/** A Claude Code session at a terminal, as its hooks told the hub (SessionStart, SessionEnd, any hook). */
export interface TerminalSessionRow {
  /** Claude Code's own session id. */
  sessionId: string
  folder: string
  /** The subscriber name a message to it goes to (its hooks take it with the next prompt or tool call). */
  name: string
  branch: string | null
  /** Its repository (`owner/name`, from the folder's `origin`); null when it is in none. */
  repository: string | null
  /** From its first prompt (core/session-name.ts promptTitle); null until it had one. */
  title: string | null
  model: string | null
  /** Its channel was connected to the hub too. */
  channel: boolean
  status: 'running' | 'ended'
  startedAt: number
  lastSeenAt: number
  endedAt: number | null
  endReason: string | null
}

/** A browser that gets Web Push (never its endpoint, which is a capability, nor its keys). */
export interface PushSubscriptionRow {
  id: string
  /** The signed-in browser (or sender) it belongs to. */
  sender: string
  /** The push service's host, e.g. which company's servers carry it. */
  service: string
  /** The browser's user agent when it subscribed. */
  displayName: string | null
  createdAt: number
  /** It belongs to the browser asking. */
  current: boolean
}

/**
 * What the hub pushes to a browser's service worker (web/public/sw.js shows it): a decision to take,
 * with Allow and Deny where the notification can have actions, or a finished turn.
 */
export type PushPayload =
  | {
      type: 'decision'
      /** The decision's id. */
      decision: string
      /** Where the service worker posts Allow or Deny (the `answer` route, with the browser's key). */
      answer: string
      kind: 'permission' | 'question' | 'plan' | 'denied'
      session: string
      title: string
      body: string
      /** The dashboard's page of it, e.g. `/#/sessions/ses_…`. */
      url: string
      /** Allow/Deny on the notification: permissions and plans; a question is answered on the page. */
      actions: boolean
    }
  | { type: 'turn'; session: string; title: string; body: string; url: string }
  | { type: 'test'; title: string; body: string; url: string }
