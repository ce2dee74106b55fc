// The Store's events area: giving events their ids and seqs, writing them, and delivering each to
// every subscriber that wants it until that subscriber acknowledges it.
import type { Interest, NewEvent, Scope, StoredEvent } from '../core/event.js'

export interface SubscriberInfo extends Interest {
  name: string
  topics: string[]
  keys: string[]
  /** Reachable by other sessions' peer messages. */
  peer: boolean
  pending: number
}

/** How a subscriber registers: peers may message it (default yes); what `*` means for it (core/event.ts wants). */
export interface SubscriberOptions {
  peer?: boolean
  /** Default `everything`: what every subscriber got before sessions were scoped to their project. */
  scope?: Scope
  /** Its project's keys (repoKey, folderKey). */
  keys?: string[]
}

export type PublishResult = { event: StoredEvent; duplicate: boolean; subscribers: string[] }

/** An event with its id and seq, not written yet; the columns a StoredEvent does not carry ride along. */
export interface StagedEvent extends PublishResult {
  target: string | null
  idempotencyKey: string | null
  about: string[]
}

/** The lease a reader delivers under (see EventStore.pendingDeliveries). */
export interface Fence {
  lease: string
  holder: string
  epoch: number
}

export interface EventStore {
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
   *
   * A store several hubs share (Postgres) decides more here, under the lock its commits take: it
   * gives the seqs (stage leaves them 0), so seq order is commit order on every hub, and it finds a
   * retry another hub stored (the staged event becomes `duplicate`, with the stored `event`).
   */
  write(staged: StagedEvent[]): Promise<void>
  /**
   * Registers or updates a subscriber. It is given every retained parked event (one no subscriber
   * wanted when it arrived) that it wants (core/event.ts `wants`) and that no earlier registration of
   * the same name was offered: a parked event goes to every subscriber that comes to want it, once
   * each. `peer`: other sessions may message it (channels are peers; driven sessions only when
   * created as one).
   */
  registerSubscriber(name: string, topics: string[], options?: SubscriberOptions): Promise<void>
  /** What a parked event is about, for saying what it waits for; null when the event is not parked. */
  parkedAbout(eventId: string): Promise<string[] | null>
  /**
   * Pending deliveries in order, after `afterSeq`. With a `fence`, none unless that lease (see
   * leases.ts) is still held by that holder at that epoch: a hub that lost a subscriber to another
   * hub reads nothing more for it.
   */
  pendingDeliveries(
    subscriber: string,
    afterSeq: number,
    limit: number,
    fence?: Fence,
  ): Promise<StoredEvent[]>
  /**
   * Marks these deliveries to the subscriber as handled; exactly these, never the ones between. With
   * `writtenAt`, the same transaction records each as written for the subscriber (its receipt; a
   * later stage it reported stays): one commit per batch of acks on the delivery path.
   */
  ack(subscriber: string, seqs: number[], writtenAt?: number): Promise<void>
  /**
   * Stored events, newest first: those whose content holds `text` (any case), from `source`, before
   * `beforeSeq` (for the next page), at most `limit`. For people reading the log, not for delivery.
   */
  searchEvents(filter: {
    text?: string
    source?: string
    beforeSeq?: number
    limit: number
  }): Promise<StoredEvent[]>
  listSubscribers(): Promise<SubscriberInfo[]>
  getSubscriber(name: string): Promise<SubscriberInfo | null>
  hasSubscriber(name: string): Promise<boolean>
  /** Forgets a subscriber and what waits for it (a removed outbound webhook, a pruned session). */
  removeSubscriber(name: string): Promise<boolean>
}
