// What this session was sent. The channel notification has no acknowledgement, so Claude can look here.
import type { StoredEvent } from '../core/event.js'

const KEEP = 500

export class Inbox {
  private readonly recent: StoredEvent[] = []

  add(event: StoredEvent): void {
    this.recent.push(event)
    if (this.recent.length > KEEP) this.recent.shift()
  }

  latest(limit: number): StoredEvent[] {
    return this.recent.slice(-limit).reverse()
  }
}
