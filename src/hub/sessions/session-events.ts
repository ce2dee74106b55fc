// What the session controller tells whoever listens, one typed feed per kind of news: a session's
// lines as they are stored, the assistant text as it streams in, and its status as it changes. A
// listener hears every session's news, or one session's.
import type { CliLine } from '../../claude/messages.js'
import type { PartialPiece } from '../../core/api/rows.js'
import type { SessionStatus } from '../../store/store.js'

export class Feed<A extends unknown[]> {
  private readonly every = new Set<(id: string, ...news: A) => void>()
  private readonly bySession = new Map<string, Set<(...news: A) => void>>()

  /** `failed`: a listener threw; the others still hear the news, and whoever told it carries on. */
  constructor(private readonly failed: (err: unknown) => void) {}

  /** Every session's news; returns what ends the subscription. */
  all(listener: (id: string, ...news: A) => void): () => void {
    this.every.add(listener)
    return () => this.every.delete(listener)
  }

  /** One session's news; returns what ends the subscription. */
  of(id: string, listener: (...news: A) => void): () => void {
    const listeners = this.bySession.get(id) ?? new Set()
    this.bySession.set(id, listeners)
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      if (listeners.size === 0 && this.bySession.get(id) === listeners) this.bySession.delete(id)
    }
  }

  emit(id: string, ...news: A): void {
    for (const listener of [...(this.bySession.get(id) ?? [])]) this.tell(() => listener(...news))
    for (const listener of [...this.every]) this.tell(() => listener(id, ...news))
  }

  private tell(call: () => void): void {
    try {
      call()
    } catch (err) {
      this.failed(err)
    }
  }
}

export class SessionEvents {
  /** A line was stored, under `seq`: replays read it from the store from then on. */
  readonly lines: Feed<[seq: number, line: CliLine]>
  /** A piece of the assistant text being written (a piece at 0 starts over; an empty one, none is). */
  readonly partial: Feed<[piece: PartialPiece]>
  readonly status: Feed<[status: SessionStatus]>

  constructor(failed: (err: unknown) => void) {
    this.lines = new Feed(failed)
    this.partial = new Feed(failed)
    this.status = new Feed(failed)
  }
}
