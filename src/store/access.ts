// The Store's access area: who may send events in (webhook sources, chat senders), their chats, and
// the replies waiting in each sender's outbox.
import type { OutboxKind, OutboxMessage } from '../core/outbox.js'
import type { WebhookPreset } from '../core/source-spec.js'

export { WEBHOOK_PRESETS, type WebhookPreset } from '../core/source-spec.js'

/** The generic preset's map: `content`, or an attribute's name → a JSON path in the body (`$.alert.text`). */
export type FieldMap = Record<string, string>

export interface Source {
  name: string
  topic: string
  secret: string
  /** A header whose value de-duplicates retries, e.g. `X-GitHub-Delivery`. */
  deliveryHeader: string | null
  /** A stored source always has one; absent (a source built by hand) reads as `generic`. */
  preset?: WebhookPreset
  /** For the generic preset only; null or absent: none. */
  fieldMap?: FieldMap | null
  /**
   * The projects its events are about (core/event.ts projectKeys), as it was bound to them
   * (`source bind`): what every event of it is about, besides what the event names itself.
   */
  about?: string[]
  createdAt: number
}

export type SenderStatus = 'allowed' | 'pending' | 'blocked'
/**
 * `token`: a person or program holding a sender token (or a chat platform's user, gated by their id);
 * `browser`: a browser signed in to the dashboard. Powers never come from a sender's name.
 */
export type SenderKind = 'token' | 'browser'

export interface Sender {
  id: string
  name: string
  status: SenderStatus
  operator: boolean
  /** How a chat platform shows this person (a bridge's senders are named `<platform>:<user id>`). */
  displayName: string | null
  kind: SenderKind
  /** When its credential stops working (browsers); null: never. */
  expiresAt: number | null
  createdAt: number
}

export interface Chat {
  id: string
  source: string
  senderId: string | null
}

/**
 * An outbox item as the database holds it: its kind and body are read as a message (core/outbox.ts)
 * by hub/people/sender-outbox.ts, which every reader goes through, so one unreadable item is skipped.
 */
export interface StoredOutboxItem {
  id: number
  senderId: string
  kind: string
  body: unknown
  /** What the surface that showed the item noted about it (a bridge: the platform's message ids). */
  receipt: Record<string, unknown> | null
  createdAt: number
}

/** An item read as its message: a kind and the body of that kind. */
export type OutboxItem = OutboxMessage & Omit<StoredOutboxItem, 'kind' | 'body'>

export interface AccessStore {
  // sources
  addSource(source: Omit<Source, 'createdAt'>): Promise<Source>
  getSource(name: string): Promise<Source | null>
  listSources(): Promise<Source[]>
  removeSource(name: string): Promise<boolean>
  /** A new secret for the source; false when there is no such source. */
  setSourceSecret(name: string, secret: string): Promise<boolean>
  /** The projects the source's events are about; false when there is no such source. */
  setSourceAbout(name: string, about: string[]): Promise<boolean>

  // senders
  addSender(input: {
    name: string
    tokenHash: string
    status: SenderStatus
    operator: boolean
    displayName?: string | null
    kind?: SenderKind
    expiresAt?: number | null
  }): Promise<Sender>
  senderByToken(tokenHash: string): Promise<Sender | null>
  senderByName(name: string): Promise<Sender | null>
  senderById(id: string): Promise<Sender | null>
  listSenders(): Promise<Sender[]>
  updateSender(
    id: string,
    change: { status?: SenderStatus; operator?: boolean; name?: string; displayName?: string | null },
  ): Promise<void>
  removeSender(id: string): Promise<boolean>
  /** Removes the senders whose credential expired before `now`; returns them. */
  dropExpiredSenders(now: number): Promise<Sender[]>
  countOperators(): Promise<number>

  // chats and outbox
  chatFor(source: string, senderId: string): Promise<Chat>
  getChat(id: string): Promise<Chat | null>
  addOutbox(senderId: string, message: OutboxMessage): Promise<OutboxItem>
  /** Items after `afterId`, or when null, the ones never written to any stream; of one kind if given. */
  outboxFor(senderId: string, afterId: number | null, kind?: OutboxKind): Promise<StoredOutboxItem[]>
  /** One item of a sender's, by its id; null when the sender has no such item. */
  outboxItem(senderId: string, id: number): Promise<StoredOutboxItem | null>
  /** The id of the sender's latest item; 0 when it has none. */
  lastOutboxId(senderId: string): Promise<number>
  markStreamed(ids: number[]): Promise<void>
  /** Marks one item shown, with what the surface needs to find it again (edit it, say). */
  markShown(id: number, receipt: Record<string, unknown>): Promise<void>
  /** A sender's items whose body's `id` is `ref` (a decision's code), oldest first. */
  outboxAbout(senderId: string, ref: string): Promise<StoredOutboxItem[]>
}
