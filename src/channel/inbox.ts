// What this session was sent. The channel notification has no acknowledgement, so Claude can look here;
// a session that cannot be shown events reads them only here, so an event it has not read yet is never
// dropped (the hub sends at most its window of them unacknowledged), and comes before any it has.
import type { StoredEvent } from '../core/event.js'

/** Events already read that are kept for another look. */
const KEEP = 500

interface Entry {
  event: StoredEvent
  read: boolean
}

export class Inbox {
  /** By id, in the order they came (a Map keeps insertion order): every delivery looks here. */
  private readonly entries = new Map<string, Entry>()
  private readCount = 0

  /** Whether it holds this event, and whether it was read. */
  state(id: string): 'absent' | 'unread' | 'read' {
    const entry = this.entries.get(id)
    return entry ? (entry.read ? 'read' : 'unread') : 'absent'
  }

  add(event: StoredEvent, read: boolean): void {
    if (this.entries.has(event.id)) return
    this.entries.set(event.id, { event, read })
    if (read) this.countRead(1)
  }

  /**
   * An event Claude was not shown after all (its channel notification never reached the context):
   * unread, so the inbox tool gives it before the events Claude saw, whatever came since.
   */
  unread(event: StoredEvent): void {
    const entry = this.entries.get(event.id)
    if (!entry) this.add(event, false)
    else if (entry.read) {
      entry.read = false
      this.readCount--
    }
  }

  /**
   * Up to `limit` events, newest first: the unread ones (the oldest of them, when there are more)
   * before any read one. Returns them, and those of them read only now.
   */
  take(limit: number): { events: StoredEvent[]; newlyRead: StoredEvent[] } {
    const all = [...this.entries.values()]
    const unread = all.filter((e) => !e.read).slice(0, limit)
    const room = limit - unread.length
    const read = room > 0 ? all.filter((e) => e.read).slice(-room) : []
    const chosen = new Set([...unread, ...read])
    for (const e of unread) e.read = true
    this.countRead(unread.length)
    return {
      events: all
        .filter((e) => chosen.has(e))
        .reverse()
        .map((e) => e.event),
      newlyRead: unread.map((e) => e.event),
    }
  }

  /** Forgets the oldest read events beyond KEEP (unread ones stay whatever their age). */
  private countRead(more: number): void {
    this.readCount += more
    if (this.readCount <= KEEP) return
    for (const [id, entry] of this.entries) {
      if (this.readCount <= KEEP) return
      if (!entry.read) continue
      this.entries.delete(id)
      this.readCount--
    }
  }
}
