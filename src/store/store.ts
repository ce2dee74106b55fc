// The Store: everything Switchboard must not lose. The hub and the CLI talk to this interface;
// sqlite/ is the embedded default. Methods are async so a networked store can stand behind it.
// Each area has its own interface (events.ts, access.ts, …): a consumer can ask for just the one it uses.
import type { AccessStore } from './access.js'
import type { BridgeMemoryStore } from './bridge-memory.js'
import type { DecisionStore } from './decisions.js'
import type { EventStore } from './events.js'
import type { LeaseStore } from './leases.js'
import type { OutboundStore } from './outbound.js'
import type { PeerStore } from './peers.js'
import type { PushStore } from './push.js'
import type { ReceiptStore } from './receipts.js'
import type { RoutineStore } from './routines.js'
import type { RuleStore } from './rules.js'
import type { SessionStore } from './sessions.js'
import type { TerminalSessionStore } from './terminal-sessions.js'
import type { UsageStore } from './usage.js'

export interface Store
  extends EventStore,
    AccessStore,
    DecisionStore,
    SessionStore,
    PeerStore,
    OutboundStore,
    RuleStore,
    LeaseStore,
    BridgeMemoryStore,
    TerminalSessionStore,
    ReceiptStore,
    PushStore,
    RoutineStore,
    UsageStore {
  close(): Promise<void>
  /**
   * Deletes up to `limit` rows per kind older than `before` (ms since epoch) that nothing needs any
   * more: events no subscriber still waits for (a parked one once it has waited that long for subscribers), replies in
   * the outbox, decisions no longer open, session lines, outbound delivery logs, dead letters,
   * what a bridge remembers for a while only (attachments, reply counts).
   * The newest event always stays, so seqs only grow. Returns how many rows went.
   */
  prune(before: number, limit: number): Promise<number>
  /**
   * On a store several hubs share: calls `listener` with what another hub changed that this one may
   * have to show (see OtherChange). Absent on a store one hub owns.
   */
  onOtherChanges?(listener: (change: OtherChange) => void): void
}

/** What another hub on the same database did, as this hub hears it. */
export type OtherChange =
  /** Committed events with deliveries for these subscribers (null: any of them). */
  | { area: 'events'; subscribers: string[] | null }
  /** Stored an item in a sender's outbox. */
  | { area: 'outbox'; senderId: string; itemId: number }
  /** Answered a decision. */
  | { area: 'decisions'; id: string }
  /** Took a lease from whoever held it (a subscriber connected to that hub). */
  | { area: 'lease'; name: string; holder: string }
  /** Changed a webhook source's secret or projects, or removed it. */
  | { area: 'sources'; name: string }
  /** Nothing was heard for a while (a dropped connection): anything may have changed. */
  | { area: 'unknown' }

export type { Meta } from '../core/event.js'
export type {
  AccessStore,
  Chat,
  FieldMap,
  OutboxItem,
  Sender,
  SenderStatus,
  Source,
  StoredOutboxItem,
  WebhookPreset,
} from './access.js'
export type { BridgeMemoryKind, BridgeMemoryStore } from './bridge-memory.js'
export type { Decision, DecisionKind, DecisionStatus, DecisionStore } from './decisions.js'
export type {
  EventStore,
  Fence,
  PublishResult,
  StagedEvent,
  SubscriberInfo,
  SubscriberOptions,
} from './events.js'
export type { Lease, LeaseStore } from './leases.js'
export type {
  OutboundAttempt,
  OutboundStore,
  OutboundWebhook,
  QueuedReceipt,
  ReceiptNotice,
} from './outbound.js'
export type { DeadLetter, PeerStore } from './peers.js'
export type { PushKeys, PushStore, PushSubscriptionRecord } from './push.js'
export type {
  RoutineRecord,
  RoutineRun,
  RoutineStore,
  RunChange,
  RunEvent,
  RunState,
} from './routines.js'
export type { Rule, RuleScope, RuleStore } from './rules.js'
export type { SessionLine, SessionRecord, SessionStatus, SessionStore } from './sessions.js'
export type {
  TerminalSession,
  TerminalSessionSeen,
  TerminalSessionStore,
} from './terminal-sessions.js'
