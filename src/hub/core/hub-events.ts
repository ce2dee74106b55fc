// What the hub's core tells the parts that show it, one typed signal per kind of news, in the style of
// the sessions' Feed (hub/sessions/session-events.ts): a listener subscribes with `on` and is handed
// what ends its subscription. The core emits; who listens is wired in one place, hub/assemble.ts, so
// no part reaches into another's registry.
import type { ClientMessage } from '../../core/hub-protocol.js'
import type { OutboxItem } from '../../store/store.js'

/** A subscriber's receipt as the hub recorded it: its time given. */
export type RecordedReceipt = Extract<ClientMessage, { type: 'receipt' }> & { at: number }

/**
 * What a surface that owns the sender said about an item it was handed (HubEvents.stored): `queued`
 * when it cannot show it now and will later (a chat platform that is down), `refused` when it never
 * can, and a note for the one who sent it (`sent (message 17)`).
 */
export interface ShownOutcome {
  queued: boolean
  note: string
  refused?: boolean
}

export class Signal<A extends unknown[], R = void> {
  private readonly listeners = new Set<(...news: A) => R | Promise<R>>()

  /** `failed`: a listener threw; the others still hear the news, and whoever told it carries on. */
  constructor(private readonly failed: (err: unknown) => void) {}

  /** Returns what ends the subscription. */
  on(listener: (...news: A) => R | Promise<R>): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Tells every listener in turn, each awaited; what each answered, a failed one's left out. */
  async emit(...news: A): Promise<R[]> {
    const answers: R[] = []
    for (const listener of [...this.listeners]) {
      try {
        answers.push(await listener(...news))
      } catch (err) {
        this.failed(err)
      }
    }
    return answers
  }
}

export class HubEvents {
  /**
   * An item stored for a sender, by this hub (`here`) or another: each surface shows it if the sender
   * is theirs. The one owning the sender says how it went (a chat platform that is down: `queued`).
   */
  readonly stored: Signal<[item: OutboxItem, here: boolean], ShownOutcome | undefined>
  /** Items may have been stored where no notice reached this hub: each surface looks in the store. */
  readonly missed: Signal<[]>
  /** A subscriber's receipt was recorded. */
  readonly receipt: Signal<[subscriber: string, receipt: RecordedReceipt]>
  /**
   * A session at a terminal (its SessionEnd hook, by session id), a channel (its `bye`, by subscriber
   * name) or a routine's run ended; a driven session's end is the session manager's to tell.
   */
  readonly sessionEnded: Signal<[session: string, reason: string | null]>
  /** Another hub changed or removed a webhook source (null: any may have changed, unheard). */
  readonly sourceChanged: Signal<[name: string | null]>

  constructor(failed: (what: string, err: unknown) => void) {
    this.stored = new Signal((err) => failed('an outbox listener', err))
    this.missed = new Signal((err) => failed('a catch-up', err))
    this.receipt = new Signal((err) => failed('a receipt listener', err))
    this.sessionEnded = new Signal((err) => failed('a session-end listener', err))
    this.sourceChanged = new Signal((err) => failed('a source listener', err))
  }
}
