// The events area in SQLite: ids and seqs handed out in memory, group commits, and one delivery row
// per (subscriber, event) until acknowledged.
import type Database from 'better-sqlite3'
import { type Interest, type StoredEvent, wants } from '../../core/event.js'
import { keyedEventId, newId } from '../../core/ids.js'
import type { EventStore, StagedEvent } from '../events.js'
import { type Row, toEvent, toSubscriber, toSubscriberInfo } from '../rows.js'
import { writtenOnAck } from '../shared/receipts.js'

/**
 * Holds an event nobody wanted when it arrived, for every subscriber that registers wanting it while
 * it is retained (retention deletes the parked row, then the event).
 */
const PARKED = ''

const SUBSCRIBER_INFO = `SELECT s.name, s.topics, s.scope, s.keys, s.peer,
  (SELECT COUNT(*) FROM deliveries d WHERE d.subscriber = s.name) AS pending FROM subscribers s`

type Subscriber = Interest & { name: string }

export function sqliteEventStore(db: Database.Database): EventStore {
  /** Every subscriber's interest, read again only after one registers. */
  let subscribers: Subscriber[] | null = null
  const q = {
    keyedEvent: db.prepare('SELECT * FROM events WHERE id = ? AND idem_key IS NOT NULL'),
    insertEvent: db.prepare(
      `INSERT INTO events (seq, id, topic, source, sender, chat_id, target, content, meta, idem_key, created_at, about)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    maxSeq: db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM events'),
    insertDelivery: db.prepare('INSERT OR IGNORE INTO deliveries (subscriber, seq) VALUES (?, ?)'),
    pending: db.prepare(
      `SELECT e.* FROM deliveries d JOIN events e ON e.seq = d.seq
       WHERE d.subscriber = ? AND d.seq > ? ORDER BY d.seq LIMIT ?`,
    ),
    pendingFenced: db.prepare(
      `SELECT e.* FROM deliveries d JOIN events e ON e.seq = d.seq
       WHERE d.subscriber = @subscriber AND d.seq > @after
         AND EXISTS (SELECT 1 FROM leases WHERE name = @lease AND holder = @holder AND epoch = @epoch)
       ORDER BY d.seq LIMIT @limit`,
    ),
    ack: db.prepare('DELETE FROM deliveries WHERE subscriber = ? AND seq = ?'),
    written: db.prepare(writtenOnAck('seq = $3')),
    allSubscribers: db.prepare('SELECT name, topics, scope, keys FROM subscribers'),
    parkedOffered: db.prepare('SELECT parked_seq FROM subscribers WHERE name = ?'),
    upsertSubscriber: db.prepare(
      `INSERT INTO subscribers (name, topics, scope, keys, peer, created_at, seen_at, parked_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET topics = excluded.topics, scope = excluded.scope,
         keys = excluded.keys, peer = excluded.peer, seen_at = excluded.seen_at, parked_seq = excluded.parked_seq`,
    ),
    parkedAfter: db.prepare(
      `SELECT d.seq, e.topic, e.about FROM deliveries d JOIN events e ON e.seq = d.seq
       WHERE d.subscriber = ? AND d.seq > ? ORDER BY d.seq`,
    ),
    parkedAbout: db.prepare(
      `SELECT e.about FROM events e JOIN deliveries d ON d.seq = e.seq AND d.subscriber = ''
       WHERE e.id = ?`,
    ),
  }
  const maxSeq = (): number => (q.maxSeq.get() as { seq: number }).seq
  /**
   * The next event's seq, kept here rather than taken from SQLite's rowid: subscribers see an event
   * before it is written (see stage), so a seq is never handed out twice, not even after a failed
   * transaction left it unused.
   */
  let nextSeq = maxSeq() + 1
  /** Keyed events staged and not written yet, by id, so a retry in the same instant is a duplicate too. */
  const unwrittenKeyed = new Map<string, StoredEvent>()

  function loadSubscribers(): Subscriber[] {
    subscribers ??= (q.allSubscribers.all() as Row[]).map(toSubscriber)
    return subscribers
  }

  function subscribersOf(event: { topic: string; about: string[] }, target: string | null): string[] {
    if (target) return [target]
    return loadSubscribers()
      .filter((s) => wants(s, event))
      .map((s) => s.name)
  }

  /** The keyed event with this id: staged a moment ago, or stored. */
  function earlierTry(id: string): StoredEvent | null {
    const staged = unwrittenKeyed.get(id)
    if (staged) return staged
    const row = q.keyedEvent.get(id) as Row | undefined
    return row ? toEvent(row) : null
  }

  const ackTx = db.transaction((subscriber: string, seqs: number[], writtenAt?: number) => {
    for (const seq of seqs) {
      q.ack.run(subscriber, seq)
      if (writtenAt !== undefined) q.written.run({ 1: subscriber, 2: writtenAt, 3: seq })
    }
  })
  const writeTx = db.transaction((staged: StagedEvent[]) => {
    for (const s of staged) {
      if (s.duplicate) continue
      const { event: e, target, idempotencyKey } = s
      // Decided again now: a subscriber that registered since the event was staged gets it too.
      s.subscribers = subscribersOf({ topic: e.topic, about: s.about }, target)
      q.insertEvent.run(
        e.seq,
        e.id,
        e.topic,
        e.source,
        e.sender,
        e.chat_id,
        target,
        e.content,
        JSON.stringify(e.meta),
        idempotencyKey,
        e.created_at,
        JSON.stringify(s.about),
      )
      for (const name of s.subscribers) q.insertDelivery.run(name, e.seq)
      if (s.subscribers.length === 0) q.insertDelivery.run(PARKED, e.seq)
    }
  })

  return {
    async stage(events) {
      return events.map((e) => {
        const keyedId = e.idempotencyKey === null ? null : keyedEventId(e.source, e.sender, e.idempotencyKey)
        const earlier = keyedId === null ? null : earlierTry(keyedId)
        if (earlier)
          return {
            event: earlier,
            duplicate: true,
            subscribers: [],
            target: null,
            idempotencyKey: null,
            about: [],
          }
        const event: StoredEvent = {
          id: keyedId ?? newId('ev'),
          seq: nextSeq++,
          topic: e.topic,
          source: e.source,
          sender: e.sender,
          chat_id: e.chat_id,
          content: e.content,
          meta: e.meta,
          created_at: Date.now(),
        }
        if (keyedId !== null) unwrittenKeyed.set(keyedId, event)
        const about = e.about ?? []
        const subscribers = subscribersOf({ topic: e.topic, about }, e.target)
        return {
          event,
          duplicate: false,
          subscribers,
          target: e.target,
          idempotencyKey: e.idempotencyKey,
          about,
        }
      })
    },

    async write(staged) {
      try {
        writeTx.immediate(staged)
      } catch (err) {
        nextSeq = Math.max(nextSeq, maxSeq() + 1) // in case another writer took seqs
        throw err
      } finally {
        for (const s of staged) if (s.idempotencyKey !== null) unwrittenKeyed.delete(s.event.id)
      }
    },

    async registerSubscriber(name, topics, options = {}) {
      const now = Date.now()
      db.transaction(() => {
        // Parked events are offered once per subscriber: those parked after the seq it was last
        // offered up to (all of them, the first time). A reconnecting channel is not given again
        // what it already had; one that widened its topics gets what was parked meanwhile.
        const offered = (q.parkedOffered.get(name) as { parked_seq: number } | undefined)?.parked_seq ?? 0
        const interest: Interest = { topics, scope: options.scope ?? 'everything', keys: options.keys ?? [] }
        q.upsertSubscriber.run(
          name,
          JSON.stringify(topics),
          interest.scope,
          JSON.stringify(interest.keys),
          options.peer === false ? 0 : 1,
          now,
          now,
          maxSeq(),
        )
        for (const p of q.parkedAfter.all(PARKED, offered) as { seq: number; topic: string; about: string }[])
          if (wants(interest, { topic: p.topic, about: JSON.parse(p.about) }))
            q.insertDelivery.run(name, p.seq)
      }).immediate()
      subscribers = null
    },

    async pendingDeliveries(subscriber, afterSeq, limit, fence) {
      const rows = fence
        ? q.pendingFenced.all({ subscriber, after: afterSeq, limit, ...fence })
        : q.pending.all(subscriber, afterSeq, limit)
      return (rows as Row[]).map(toEvent)
    },

    async ack(subscriber, seqs, writtenAt) {
      ackTx(subscriber, seqs, writtenAt)
    },

    async searchEvents(filter) {
      const where: string[] = []
      const args: (string | number)[] = []
      if (filter.text) {
        // LIKE with the text's own % and _ taken literally.
        where.push("content LIKE ? ESCAPE '\\'")
        args.push(`%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      }
      if (filter.source) {
        where.push('source = ?')
        args.push(filter.source)
      }
      if (filter.beforeSeq !== undefined) {
        where.push('seq < ?')
        args.push(filter.beforeSeq)
      }
      const sql = `SELECT * FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`
      return (db.prepare(sql).all(...args, filter.limit) as Row[]).map(toEvent)
    },

    async listSubscribers() {
      return (db.prepare(`${SUBSCRIBER_INFO} ORDER BY s.name`).all() as Row[]).map(toSubscriberInfo)
    },

    async getSubscriber(name) {
      const r = db.prepare(`${SUBSCRIBER_INFO} WHERE s.name = ?`).get(name) as Row | undefined
      return r ? toSubscriberInfo(r) : null
    },

    async parkedAbout(eventId) {
      const r = q.parkedAbout.get(eventId) as { about: string } | undefined
      return r ? (JSON.parse(r.about) as string[]) : null
    },

    async hasSubscriber(name) {
      return db.prepare('SELECT 1 FROM subscribers WHERE name = ?').get(name) !== undefined
    },

    async removeSubscriber(name) {
      const removed = db.transaction(() => {
        db.prepare('DELETE FROM deliveries WHERE subscriber = ?').run(name)
        return db.prepare('DELETE FROM subscribers WHERE name = ?').run(name).changes > 0
      })()
      subscribers = null
      return removed
    },
  }
}
