// The dashboard's HTTP API (under /api, signed in with the session cookie): what the page sends,
// checked by the hub with these schemas, and what it gets back. The front end (web/) imports the
// same file, so both ends are typed from one definition.
import { z } from 'zod'

export const newSessionSchema = z
  .object({
    cwd: z.string().min(1, 'choose a folder').startsWith('/', 'the folder is an absolute path'),
    prompt: z.string().min(1, 'say what the session should do'),
    model: z.string().min(1).optional(),
    permissionMode: z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions']).optional(),
  })
  .strict()
export type NewSession = z.infer<typeof newSessionSchema>

export const messageSchema = z.object({ text: z.string().min(1, 'the message is empty') }).strict()

/** An answer to a decision: the session API's own (allow with edited input or a question's answers, or deny). */
export { type RespondInput as Answer, respondSchema as answerSchema } from './session-api.js'

/** A driven session as the list shows it. */
export interface SessionRow {
  id: string
  cwd: string | null
  status: string
  live: boolean
  reason: string | null
  createdAt: number
  updatedAt: number
  pendingInputs: number
}

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
  kind: 'permission' | 'question' | 'plan' | 'pairing'
  /** The session (driven: `ses_…`; a channel: its subscriber name) or the pending sender. */
  owner: string
  status: 'open' | 'answered' | 'expired' | 'cancelled'
  request: Record<string, unknown>
  answer: Record<string, unknown> | null
  answeredBy: string | null
  createdAt: number
}

/**
 * GET /api/me → { name }
 * GET /api/sessions → { sessions: SessionRow[] }
 * POST /api/sessions (NewSession) → 201 { id }
 * GET /api/sessions/:id → { session: SessionRow }
 * GET /api/sessions/:id/lines?after=<seq> → { lines: { seq, line, at }[] }
 * GET /api/sessions/:id/stream (SSE; Last-Event-ID or ?after=) → `event: line`, `id: <seq>`, data: the CLI line;
 *   and `event: partial` (no id), data: PartialPiece, the assistant text being written
 * POST /api/sessions/:id/messages ({ text }) → 202
 * POST /api/sessions/:id/interrupt → 200
 * GET /api/decisions → { decisions: DecisionRow[] } (open ones, oldest first)
 * POST /api/decisions/:id (Answer) → { decision: DecisionRow }; 409 when another surface answered first
 * GET /api/feed (SSE) → `event: changed`, data: DecisionRow (opened, answered or cancelled); and
 *   `event: turn`, data: TurnRow, whenever a driven session finishes a turn
 * Every state-changing request carries the header `X-Switchboard: 1` (cross-site requests cannot).
 */
export const API_HEADER = 'x-switchboard'

/**
 * Signing in: the page spends the link's one-time token for a key, which it keeps in its origin's
 * storage and sends as `Authorization: Bearer <key>` (never a cookie: see hub/core/web-signin.ts).
 * POST /api/signin ({ token }) → 201 SignedIn; 401 when the link was used or has expired
 * POST /api/signout → 200 { ok: true } (the key stops working)
 * GET /api/me → Me
 * GET /api/browsers → { browsers: BrowserRow[] }; DELETE /api/browsers/:name → 200 { ok: true }
 */
export const signinSchema = z.object({ token: z.string().min(1).max(200) }).strict()

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

/**
 * "Always allow": a rule made from a decision, for the same tool with the same input, in a session, a
 * folder or everywhere, until it expires or is revoked. The hub applies it before a prompt is shown
 * and records the answer as given by the rule.
 * GET /api/rules → { rules: RuleRow[] }
 * POST /api/rules (NewRule) → 201 { rule: RuleRow } (and the decision it was made from is approved)
 * DELETE /api/rules/:id → 200 { ok: true }
 */
export const newRuleSchema = z
  .object({
    decision: z.string().min(1, 'the decision to make the rule from'),
    scope: z.enum(['session', 'folder', 'everywhere']),
    /** null or absent: until revoked. */
    expiresInMinutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24 * 365)
      .nullable()
      .optional(),
  })
  .strict()
export type NewRule = z.infer<typeof newRuleSchema>

export interface RuleRow {
  id: string
  toolName: string
  /** The exact input it allows. */
  input: Record<string, unknown>
  scope: 'session' | 'folder' | 'everywhere'
  /** The session id or the folder; null for everywhere. */
  scopeValue: string | null
  expiresAt: number | null
  createdBy: string
  createdAt: number
  /** Prompts it answered. */
  uses: number
}

/**
 * Around the sessions:
 * GET /api/history → { sessions: HistoryRow[] } — Claude Code's own sessions on this machine and the
 *   hub's, newest first (GET /api/history?cwd=<folder> narrows it)
 * POST /api/history/:claudeSessionId/resume ({ cwd, prompt, fork? }) → 201 { id }: a driven session
 *   resuming (or forking) that Claude session
 * GET /api/channels → { channels: ChannelRow[] } — channel sessions (subscribers) and their backlog
 * POST /api/sessions/:id/model ({ model }) and /permission-mode ({ mode }) → 200
 * GET /api/access → { senders: SenderRow[], pairings: DecisionRow[] }
 * POST /api/access/:name ({ status?, operator? }) → 200 { sender: SenderRow }
 * GET /api/health → HubHealth
 */
export const resumeSchema = z
  .object({
    cwd: z.string().min(1).startsWith('/', 'the folder is an absolute path'),
    prompt: z.string().min(1, 'say what the session should do next'),
    fork: z.boolean().default(false),
  })
  .strict()

export const modelSchema = z.object({ model: z.string().min(1) }).strict()
export const permissionModeSchema = z
  .object({ mode: z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions']) })
  .strict()

export const senderChangeSchema = z
  .object({ status: z.enum(['allowed', 'blocked']).optional(), operator: z.boolean().optional() })
  .strict()

export interface HistoryRow {
  id: string
  claudeSessionId: string | null
  cwd: string | null
  status: string
  managed: boolean
  lastActivity: number
  summary: string | null
}

export interface ChannelRow {
  name: string
  connected: boolean
  /** `channel` (notifications) or `message` (a hook feeds it). */
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

export interface HubHealth {
  version: string
  startedAt: number
  connected: number
  liveSessions: number
  openDecisions: number
  bridges: { platform: string; state: string; lastError: string | null }[]
}

/**
 * The web chat (like the official fakechat): the signed-in browser writes to the sessions that take
 * chat, and reads Claude's replies.
 * POST /api/chat ({ text, to? }) → 202 { id, chat_id, sessions } (sessions: how many took it; 0 keeps it for the next)
 * GET /api/chat/stream (SSE; Last-Event-ID) → `event: reply`, `id: <n>`, data: ChatReply
 */
export const chatMessageSchema = z
  .object({
    text: z.string().min(1, 'the message is empty').max(60_000),
    /** One session by name; all that take chat when absent. */
    to: z.string().min(1).max(100).optional(),
  })
  .strict()

export interface ChatReply {
  chat_id: string
  text: string
  /** The session that replied. */
  from: string
  at: number
}

/**
 * What flows through the hub:
 * GET /api/events?q=<text>&source=<name>&before=<seq> → { events: EventRow[] } (50, newest first)
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
}

export interface SourceRow {
  name: string
  topic: string
  preset: string
  deliveryHeader: string | null
  createdAt: number
  /** When its last event came, if any is kept. */
  lastEventAt: number | null
}

export interface OutboundRow {
  name: string
  url: string
  topics: string[]
  pending: number
  createdAt: number
}

export interface OutboundLogRow {
  eventId: string
  attempt: number
  status: number | null
  error: string | null
  at: number
}
