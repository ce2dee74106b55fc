// What this session was sent. The channel notification has no acknowledgement, so Claude can look here.
import type { StoredEvent } from '../core/event.js'

const KEEP = 500

export class Inbox {
  private readonly seen = new Set<string>()
  private readonly recent: StoredEvent[] = []

  /** False when this session got the event already (the hub re-sends what it did not see acknowledged). */
  add(event: StoredEvent): boolean {
    if (this.seen.has(event.id)) return false
    this.seen.add(event.id)
    this.recent.push(event)
    if (this.recent.length > KEEP) this.recent.shift()
    return true
  }

  latest(limit: number): StoredEvent[] {
    return this.recent.slice(-limit).reverse()
  }
}
