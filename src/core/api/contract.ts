// The hub's HTTP API as types, by route name: each route's path parameters (from its path), its body
// and query (from the schemas the hub checks them with) and what it answers. Clients are typed from
// this, so nothing they send or read is written twice. Types only.
import type * as z from 'zod'
import type { DrivenAgent } from '../agents.js'
import type { Budget } from '../budgets.js'
import type { StoredEvent } from '../event.js'
import type { NoticeKind } from '../notices.js'
import type { OutboxMessage } from '../outbox.js'
import type { ReceiptView } from '../receipts.js'
import type { AddedRoutine, DryRun, RoutineRun, RoutineView } from '../routines.js'
import type { UsageReport } from '../usage.js'
import type { ROUTES, RouteName } from './routes.js'
import type {
  BrowserRow,
  ChannelRow,
  ChatReply,
  DeadLetterRow,
  DecisionRow,
  EventRow,
  HubStatus,
  LinesPage,
  ListedSender,
  ListedSession,
  Me,
  OutboundLogRow,
  OutboundWebhookInfo,
  PairingRow,
  PeerInfo,
  PushSubscriptionRow,
  RuleRow,
  SenderRow,
  SessionView,
  SignedIn,
  SourceRow,
  TerminalSessionRow,
} from './rows.js'
import type { INPUTS } from './schemas.js'

type Ok = { ok: true }

/**
 * What each server-sent event stream sends, one event at a time: `event:` its kind, `data:` its body
 * (schemas.ts STREAM_EVENTS, in the OpenAPI document). Other streams' events are described where the
 * stream is read.
 */
export interface StreamEvents {
  /** A sender's outbox, each event's `id:` the item's id (what Last-Event-ID resumes after). */
  senderEvents: OutboxMessage
}

/** A project's daily budget, with what its project spent today (UTC). */
export interface BudgetView extends Budget {
  spentToday: number
}

/** What each route answers (a stream's events: StreamEvents). */
/**
 * An event and how far each delivery of it got. `parked`: no subscriber has wanted it yet, and what it
 * is about (the projects whose first session gets it; none: a session that names its topic).
 */
export interface EventDeliveries {
  event: EventRow
  deliveries: ReceiptView[]
  parked: { about: string[] } | null
}

export interface Responses {
  health: { ok: true; version: string; pid: number; proof?: string }
  openapi: Record<string, unknown>
  hubSocket: never
  sdkSocket: never
  webhook:
    | { id: string; duplicate: boolean }
    | { events: { id: string; duplicate: boolean }[] }
    | { events: []; ignored: string }
  message:
    | { id: string; chat_id: string; duplicate: boolean }
    | { decision: string; behavior: 'allow' | 'deny'; status: string }
  senderEvents: never
  pair: { code: string; token: string; expires_at: string; next: string }
  signin: SignedIn
  signout: Ok
  me: Me
  browsers: { browsers: BrowserRow[] }
  revokeBrowser: Ok
  signinLink: { url: string; expiresAt: number }
  status: HubStatus
  channels: { channels: ChannelRow[] }
  access: { senders: SenderRow[]; pairings: DecisionRow[] }
  changeSender: { sender: SenderRow }
  senders: { senders: ListedSender[] }
  addSender: { sender: SenderRow; token: string }
  setSenderAccess: { sender: SenderRow }
  removeSender: { removed: string }
  pairings: { pairings: PairingRow[] }
  approvePairing: { sender: SenderRow }
  notices: { sender: string; kinds: NoticeKind[] }
  chooseNotices: { sender: string; kinds: NoticeKind[] }
  events: { events: EventRow[] }
  event: EventDeliveries
  webhookEvent: EventDeliveries
  sources: { sources: SourceRow[] }
  /** `secret`: the one the hub made; null when the caller gave its own. */
  addSource: { source: SourceRow; secret: string | null }
  rotateSource: { name: string; secret: string | null }
  bindSource: { source: SourceRow }
  removeSource: { removed: string }
  peers: { peers: PeerInfo[] }
  sendToPeer: { id: string; message: string }
  deadLetters: { deadLetters: DeadLetterRow[] }
  subscriptions: { webhooks: OutboundWebhookInfo[] }
  subscribe: { name: string; url: string; secret: string; topics: string[]; receipts: boolean }
  unsubscribe: { removed: string }
  subscriptionLog: { log: OutboundLogRow[] }
  hookTake: { events: StoredEvent[] }
  /** The JSON output Claude Code expects for the event; `{}` leaves the dialog to the terminal. */
  claudeHook: Record<string, unknown>
  terminalSessions: { sessions: TerminalSessionRow[] }
  decisions: { decisions: DecisionRow[] }
  answer: { decision: DecisionRow }
  feed: never
  rules: { rules: RuleRow[] }
  makeRule: { rule: RuleRow }
  /** The answered prompts it would have matched (newest first), of the `read` latest. */
  previewRule: { matched: DecisionRow[]; read: number }
  makePatternRule: { rule: RuleRow }
  revokeRule: Ok
  sessions: { sessions: SessionView[] }
  /** The agents the hub drives, Claude Code first: what a new session's `agent` may be. */
  agents: { agents: DrivenAgent[] }
  history: { sessions: ListedSession[] }
  createSession: SessionView
  pruneSessions: { removed: string[] }
  session: SessionView
  removeSession: { removed: string[] }
  sendMessage: SessionView
  /** Where the file is now, and the session it was sent to. */
  uploadFile: { file: { path: string; type: string; size: number }; session: SessionView }
  /** The recording's words, for the person to read and edit before anything is sent. */
  transcribe: { text: string }
  respond: SessionView
  interrupt: SessionView
  stopSession: SessionView
  resumeSession: SessionView
  setModel: Ok
  setPermissionMode: Ok
  bindIde: SessionView
  unbindIde: SessionView
  sessionLines: LinesPage
  sessionStream: never
  chat: { id: string; chat_id: string; sessions: number }
  chatStream: never
  nameSession: SessionView
  pushKey: { publicKey: string }
  pushSubscriptions: { subscriptions: PushSubscriptionRow[] }
  pushSubscribe: { subscription: PushSubscriptionRow }
  revokePush: { removed: string }
  pushTest: { sent: number }
  usage: UsageReport
  budgets: { budgets: BudgetView[] }
  setBudget: { budget: Budget }
  removeBudget: { removed: string }
  routines: { routines: RoutineView[] }
  addRoutine: AddedRoutine
  routine: RoutineView
  removeRoutine: { removed: string }
  pauseRoutine: RoutineView
  resumeRoutine: RoutineView
  routineRuns: { runs: RoutineRun[] }
  fireRoutine: RoutineRun
  replayRun: RoutineRun
  testRoutine: DryRun
}

/** `/api/sessions/:id/lines` → `{ id: string }`. */
type ParamsOfPath<P extends string> = P extends `${string}:${infer Key}/${infer Rest}`
  ? { [K in Key]: string } & ParamsOfPath<`/${Rest}`>
  : P extends `${string}:${infer Key}`
    ? { [K in Key]: string }
    : Record<never, never>
export type ParamsOf<N extends RouteName> = ParamsOfPath<(typeof ROUTES)[N]['path']>

type Inputs = typeof INPUTS
/** The zod schema of a route's body or query, if it has one. */
type SchemaOf<N extends RouteName, Part extends 'body' | 'query'> = N extends keyof Inputs
  ? Inputs[N] extends { [P in Part]: infer S extends z.ZodType }
    ? S
    : undefined
  : undefined
type Sent<S> = S extends z.ZodType ? z.input<S> : undefined
type Checked<S> = S extends z.ZodType ? z.output<S> : undefined

export type BodyOf<N extends RouteName> = Sent<SchemaOf<N, 'body'>>
export type QueryOf<N extends RouteName> = Sent<SchemaOf<N, 'query'>>
/** The body and query as the hub has them once checked (defaults filled in). */
export type ParsedBodyOf<N extends RouteName> = Checked<SchemaOf<N, 'body'>>
export type ParsedQueryOf<N extends RouteName> = Checked<SchemaOf<N, 'query'>>

// Stream events, for their readers.
export type { ChatReply, DecisionRow }
