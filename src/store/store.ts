// The Store: everything Switchboard must not lose. The hub and the CLI talk to this interface;
// sqlite/ is the embedded default. Methods are async so a networked store can stand behind it.
import type { Meta, NewEvent, StoredEvent } from '../core/event.js'

export interface Source {
  name: string
  topic: string
  secret: string
  /** A header whose value de-duplicates retries, e.g. `X-GitHub-Delivery`. */
  deliveryHeader: string | null
  createdAt: number
}

export type SenderStatus = 'allowed' | 'pending' | 'blocked'

export interface Sender {
  id: string
  name: string
  status: SenderStatus
  operator: boolean
  createdAt: number
}

export type DecisionKind = 'permission' | 'pairing' | 'question' | 'plan'
export type DecisionStatus = 'open' | 'answered' | 'expired' | 'cancelled'

export interface Decision {
  id: string
  kind: DecisionKind
  /** What a person types to answer: a permission request id, a pairing code. */
  code: string
  /** The subscriber that asked (permission) or the pending sender (pairing). */
  owner: string
  status: DecisionStatus
  request: Record<string, unknown>
  answer: Record<string, unknown> | null
  answeredBy: string | null
  createdAt: number
  answeredAt: number | null
  expiresAt: number | null
}

export interface OutboxItem {
  id: number
  senderId: string
  kind: string
  body: Record<string, unknown>
  createdAt: number
}

export interface Chat {
  id: string
  source: string
  senderId: string | null
}

export type SessionStatus = 'running' | 'waiting_for_input' | 'idle' | 'completed' | 'error' | 'interrupted'

export interface SessionRecord {
  id: string
  /** Claude Code's own id, known from the first `system/init`; what `--resume` takes. */
  claudeSessionId: string | null
  cwd: string
  config: Record<string, unknown>
  status: SessionStatus
  costUsd: number
  turns: number
  lastResult: string | null
  createdAt: number
  updatedAt: number
}

export interface SessionLine {
  seq: number
  line: Record<string, unknown>
  at: number
}

export interface DeadLetter {
  id: number
  /** `peer` (a name nobody holds) or `webhook` (a receiver that kept failing). */
  kind: string
  target: string
  payload: Record<string, unknown>
  reason: string
  createdAt: number
}

export interface OutboundWebhook {
  name: string
  url: string
  secret: string
  maxAttempts: number
  backoffMs: number
  createdAt: number
}

export interface OutboundAttempt {
  webhook: string
  eventId: string
  attempt: number
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null
  error: string | null
  at: number
}

export interface SubscriberInfo {
  name: string
  topics: string[]
  /** Reachable by other sessions' peer messages. */
  peer: boolean
  pending: number
}

export type PublishResult = { event: StoredEvent; duplicate: boolean; subscribers: string[] }

/** An event with its id and seq, not written yet; the columns a StoredEvent does not carry ride along. */
export interface StagedEvent extends PublishResult {
  target: string | null
  idempotencyKey: string | null
}

export interface Store {
  close(): Promise<void>

  // sources
  addSource(source: Omit<Source, 'createdAt'>): Promise<Source>
  getSource(name: string): Promise<Source | null>
  listSources(): Promise<Source[]>
  removeSource(name: string): Promise<boolean>

  // events and durable delivery
  /**
   * Gives events their ids, seqs and subscribers and recognises retries of an idempotency key
   * (stored, or staged and not written yet), without writing: live subscribers can be shown the
   * events at once (see Hub.publish). A seq, once handed out, is never given to another event.
   */
  stage(events: NewEvent[]): Promise<StagedEvent[]>
  /**
   * Commits staged events and one delivery per matching subscriber (or parks each unwanted one), in
   * one transaction: whatever was staged in one turn of the event loop shares a commit. Subscribers
   * are matched again at this point, and each staged event's `subscribers` updated.
   */
  write(staged: StagedEvent[]): Promise<void>
  /**
   * Registers or updates a subscriber; a new one claims parked events that match its topics. `peer`:
   * other sessions may message it (channels are peers; driven sessions only when created as one).
   */
  registerSubscriber(name: string, topics: string[], options?: { peer?: boolean }): Promise<void>
  /** Pending deliveries in order, after `afterSeq`. */
  pendingDeliveries(subscriber: string, afterSeq: number, limit: number): Promise<StoredEvent[]>
  /** Marks these deliveries to the subscriber as handled; exactly these, never the ones between. */
  ack(subscriber: string, seqs: number[]): Promise<void>
  /**
   * Deletes up to `limit` rows per kind older than `before` (ms since epoch) that nothing needs any
   * more: events no subscriber still waits for (and that parked unclaimed that long), replies in
   * the outbox, decisions no longer open, session lines, outbound delivery logs, dead letters.
   * The newest event always stays, so seqs only grow. Returns how many rows went.
   */
  prune(before: number, limit: number): Promise<number>
  listSubscribers(): Promise<SubscriberInfo[]>
  getSubscriber(name: string): Promise<SubscriberInfo | null>
  hasSubscriber(name: string): Promise<boolean>

  // peers
  /** The alias now points at `name`: the last peer to claim it wins. */
  setAlias(alias: string, name: string): Promise<void>
  resolveAlias(alias: string): Promise<string | null>
  aliasesOf(name: string): Promise<string[]>
  joinRoom(room: string, member: string): Promise<void>
  leaveRoom(room: string, member: string): Promise<void>
  roomMembers(room: string): Promise<string[]>
  roomsOf(member: string): Promise<string[]>
  addOutboundWebhook(input: Omit<OutboundWebhook, 'createdAt'>): Promise<OutboundWebhook>
  listOutboundWebhooks(): Promise<OutboundWebhook[]>
  logOutbound(attempt: Omit<OutboundAttempt, 'at'>): Promise<void>
  outboundLog(webhook: string, limit: number): Promise<OutboundAttempt[]>
  addDeadLetter(input: Omit<DeadLetter, 'id' | 'createdAt'>): Promise<DeadLetter>
  listDeadLetters(kind?: string): Promise<DeadLetter[]>

  // senders, chats, outbox
  addSender(input: {
    name: string
    tokenHash: string
    status: SenderStatus
    operator: boolean
  }): Promise<Sender>
  senderByToken(tokenHash: string): Promise<Sender | null>
  senderByName(name: string): Promise<Sender | null>
  senderById(id: string): Promise<Sender | null>
  listSenders(): Promise<Sender[]>
  updateSender(
    id: string,
    change: { status?: SenderStatus; operator?: boolean; name?: string },
  ): Promise<void>
  removeSender(id: string): Promise<boolean>
  countOperators(): Promise<number>
  chatFor(source: string, senderId: string): Promise<Chat>
  getChat(id: string): Promise<Chat | null>
  addOutbox(senderId: string, kind: string, body: Record<string, unknown>): Promise<OutboxItem>
  /** Items after `afterId`, or when null, the ones never written to any stream. */
  outboxFor(senderId: string, afterId: number | null): Promise<OutboxItem[]>
  markStreamed(ids: number[]): Promise<void>

  // decisions
  openDecision(input: {
    kind: DecisionKind
    code: string
    owner: string
    request: Record<string, unknown>
    expiresAt: number | null
  }): Promise<Decision>
  openDecisionsByCode(kind: DecisionKind, code: string, now: number): Promise<Decision[]>
  /** First answer wins: returns null when the decision was no longer open. */
  answerDecision(id: string, answer: Record<string, unknown>, answeredBy: string): Promise<Decision | null>
  /** Answered decisions of an owner whose answer has not been handed on yet. */
  unrelayedAnswers(kind: DecisionKind, owner: string): Promise<Decision[]>
  markRelayed(id: string): Promise<void>
  cancelOpenDecisions(kind: DecisionKind, owner: string): Promise<number>
  cancelDecisions(ids: string[]): Promise<void>
  /** Marks every open decision whose time is up as expired and returns them. */
  expireDecisions(now: number): Promise<Decision[]>
  countOpen(kind: DecisionKind, now: number): Promise<number>
  listDecisions(filter: { kind?: DecisionKind; status?: DecisionStatus }): Promise<Decision[]>
  getDecision(id: string): Promise<Decision | null>

  // driven sessions
  createSession(input: {
    id: string
    cwd: string
    config: Record<string, unknown>
    status: SessionStatus
  }): Promise<SessionRecord>
  updateSession(
    id: string,
    change: Partial<
      Pick<SessionRecord, 'claudeSessionId' | 'status' | 'costUsd' | 'turns' | 'lastResult' | 'config'>
    >,
  ): Promise<void>
  getSession(id: string): Promise<SessionRecord | null>
  listSessions(): Promise<SessionRecord[]>
  appendSessionLine(id: string, line: Record<string, unknown>): Promise<number>
  sessionLines(id: string, afterSeq: number, limit: number): Promise<SessionLine[]>
}

export type { Meta }
