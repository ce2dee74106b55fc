// The events area on Postgres, shared by several hubs: seqs handed out by the committing transaction
// (so seq order is commit order everywhere), group commits as multi-row inserts, one delivery row per
// (subscriber, event) until acknowledged, and a NOTIFY per commit that wakes the other hubs.
import { type StoredEvent, topicMatches } from '../../core/event.js'
import { keyedEventId, newId } from '../../core/ids.js'
import type { EventStore, StagedEvent } from '../events.js'
import { toEvent, toSubscriberInfo } from '../rows.js'
import { announce } from './changes.js'
import type { PostgresDb, Queryable } from './db.js'

const PARKED = ''

/** Retention (see Store.prune): $1 before, $2 limit; parked deliveries go before the events they hold. */
export const PRUNE_EVENTS = [
  `DELETE FROM deliveries WHERE subscriber = '' AND seq IN
     (SELECT seq FROM events WHERE created_at < $1 ORDER BY seq LIMIT $2)`,
  `DELETE FROM events WHERE seq IN
     (SELECT e.seq FROM events e WHERE e.created_at < $1
        AND e.seq < (SELECT max(seq) FROM events)
        AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.seq = e.seq)
      ORDER BY e.seq LIMIT $2)`,
]

const SUBSCRIBER_INFO = `SELECT s.name, s.topics, s.peer,
  (SELECT count(*) FROM deliveries d WHERE d.subscriber = s.name) AS pending FROM subscribers s`

/** Takes the lock every event write holds until it commits, and tells the last seq handed out. */
async function lockSeqs(tx: Queryable): Promise<number> {
  const { rows } = await tx.query('SELECT last FROM event_seq FOR UPDATE')
  return rows[0]?.last as number
}

export function postgresEventStore(db: PostgresDb, instance: string): EventStore {
  /** Keyed events staged on this hub and not written yet, by id: a retry in the same instant. */
  const unwrittenKeyed = new Map<string, StoredEvent>()

  async function subscribersNow(tx: Queryable): Promise<{ name: string; topics: string[] }[]> {
    const { rows } = await tx.query('SELECT name, topics FROM subscribers')
    return rows.map((r) => ({ name: r.name as string, topics: JSON.parse(r.topics as string) as string[] }))
  }

  /** Marks as duplicates the staged events whose keyed id is stored already (under the seq lock). */
  async function findStored(tx: Queryable, fresh: StagedEvent[]): Promise<StagedEvent[]> {
    const keyed = fresh.filter((s) => s.idempotencyKey !== null).map((s) => s.event.id)
    if (keyed.length === 0) return fresh
    const { rows } = await tx.query('SELECT * FROM events WHERE idem_key IS NOT NULL AND id = ANY($1)', [
      keyed,
    ])
    const stored = new Map(rows.map((r) => [r.id as string, toEvent(r)]))
    return fresh.filter((s) => {
      const earlier = stored.get(s.event.id)
      if (!earlier) return true
      s.duplicate = true
      s.event = earlier
      s.subscribers = []
      return false
    })
  }

  async function insert(tx: Queryable, fresh: StagedEvent[], firstSeq: number): Promise<void> {
    const subscribers = await subscribersNow(tx)
    const deliveries: { subscriber: string[]; seq: number[] } = { subscriber: [], seq: [] }
    const cols: unknown[][] = Array.from({ length: 11 }, () => [])
    fresh.forEach((s, i) => {
      const e = s.event
      e.seq = firstSeq + i
      s.subscribers = s.target
        ? [s.target]
        : subscribers.filter((sub) => topicMatches(sub.topics, e.topic)).map((sub) => sub.name)
      const row = [
        e.seq,
        e.id,
        e.topic,
        e.source,
        e.sender,
        e.chat_id,
        s.target,
        e.content,
        JSON.stringify(e.meta),
        s.idempotencyKey,
        e.created_at,
      ]
      for (const [c, v] of row.entries()) cols[c]?.push(v)
      for (const name of s.subscribers.length ? s.subscribers : [PARKED]) {
        deliveries.subscriber.push(name)
        deliveries.seq.push(e.seq)
      }
    })
    await tx.query(
      `INSERT INTO events (seq, id, topic, source, sender, chat_id, target, content, meta, idem_key, created_at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
         $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[])`,
      cols,
    )
    await tx.query(
      `INSERT INTO deliveries (subscriber, seq) SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT DO NOTHING`,
      [deliveries.subscriber, deliveries.seq],
    )
  }

  return {
    async stage(events) {
      // Nothing is read here: seqs and subscribers are decided by the write, under its lock.
      return events.map((e) => {
        const keyedId = e.idempotencyKey === null ? null : keyedEventId(e.source, e.sender, e.idempotencyKey)
        const earlier = keyedId === null ? undefined : unwrittenKeyed.get(keyedId)
        if (earlier)
          return { event: earlier, duplicate: true, subscribers: [], target: null, idempotencyKey: null }
        const event: StoredEvent = {
          id: keyedId ?? newId('ev'),
          seq: 0,
          topic: e.topic,
          source: e.source,
          sender: e.sender,
          chat_id: e.chat_id,
          content: e.content,
          meta: e.meta,
          created_at: Date.now(),
        }
        if (keyedId !== null) unwrittenKeyed.set(keyedId, event)
        return {
          event,
          duplicate: false,
          subscribers: [],
          target: e.target,
          idempotencyKey: e.idempotencyKey,
        }
      })
    },

    async write(staged) {
      const fresh = staged.filter((s) => !s.duplicate)
      try {
        if (fresh.length === 0) return
        await db.tx(async (tx) => {
          const last = await lockSeqs(tx)
          const toWrite = await findStored(tx, fresh)
          if (toWrite.length === 0) return
          await insert(tx, toWrite, last + 1)
          await tx.query('UPDATE event_seq SET last = $1', [last + toWrite.length])
          await announce(tx, instance, {
            area: 'events',
            subscribers: [...new Set(toWrite.flatMap((s) => s.subscribers))],
          })
        })
      } catch (err) {
        for (const s of fresh) if (!s.duplicate) s.event.seq = 0
        throw err
      } finally {
        for (const s of staged) if (s.idempotencyKey !== null) unwrittenKeyed.delete(s.event.id)
      }
    },

    async registerSubscriber(name, topics, options = {}) {
      const now = Date.now()
      await db.tx(async (tx) => {
        // Under the write lock: no event is parked between reading the parked ones and recording
        // how far this subscriber was offered them.
        const last = await lockSeqs(tx)
        const { rows } = await tx.query('SELECT parked_seq FROM subscribers WHERE name = $1', [name])
        const offered = (rows[0]?.parked_seq as number | undefined) ?? 0
        await tx.query(
          `INSERT INTO subscribers (name, topics, peer, created_at, seen_at, parked_seq)
           VALUES ($1, $2, $3, $4, $4, $5)
           ON CONFLICT (name) DO UPDATE SET topics = excluded.topics, peer = excluded.peer,
             seen_at = excluded.seen_at, parked_seq = excluded.parked_seq`,
          [name, JSON.stringify(topics), options.peer !== false, now, last],
        )
        const parked = await tx.query(
          `SELECT d.seq, e.topic FROM deliveries d JOIN events e ON e.seq = d.seq
           WHERE d.subscriber = $1 AND d.seq > $2 ORDER BY d.seq`,
          [PARKED, offered],
        )
        const wanted = parked.rows.filter((p) => topicMatches(topics, p.topic as string)).map((p) => p.seq)
        if (wanted.length)
          await tx.query(
            `INSERT INTO deliveries (subscriber, seq) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
            [name, wanted],
          )
      })
    },

    async pendingDeliveries(subscriber, afterSeq, limit, fence) {
      const fenced = fence
        ? 'AND EXISTS (SELECT 1 FROM leases WHERE name = $4 AND holder = $5 AND epoch = $6)'
        : ''
      const rows = await db.rows(
        `SELECT e.* FROM deliveries d JOIN events e ON e.seq = d.seq
         WHERE d.subscriber = $1 AND d.seq > $2 ${fenced} ORDER BY d.seq LIMIT $3`,
        fence
          ? [subscriber, afterSeq, limit, fence.lease, fence.holder, fence.epoch]
          : [subscriber, afterSeq, limit],
      )
      return rows.map(toEvent)
    },

    async ack(subscriber, seqs) {
      await db.query('DELETE FROM deliveries WHERE subscriber = $1 AND seq = ANY($2::bigint[])', [
        subscriber,
        seqs,
      ])
    },

    async searchEvents(filter) {
      const where: string[] = []
      const args: unknown[] = []
      if (filter.text) {
        args.push(filter.text.toLowerCase())
        where.push(`strpos(lower(content), $${args.length}) > 0`)
      }
      if (filter.source) {
        args.push(filter.source)
        where.push(`source = $${args.length}`)
      }
      if (filter.beforeSeq !== undefined) {
        args.push(filter.beforeSeq)
        where.push(`seq < $${args.length}`)
      }
      args.push(filter.limit)
      const sql = `SELECT * FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY seq DESC LIMIT $${args.length}`
      return (await db.rows(sql, args)).map(toEvent)
    },

    async listSubscribers() {
      return (await db.rows(`${SUBSCRIBER_INFO} ORDER BY s.name`)).map(toSubscriberInfo)
    },

    async getSubscriber(name) {
      const r = await db.row(`${SUBSCRIBER_INFO} WHERE s.name = $1`, [name])
      return r ? toSubscriberInfo(r) : null
    },

    async hasSubscriber(name) {
      return (await db.row('SELECT 1 FROM subscribers WHERE name = $1', [name])) !== null
    },

    async removeSubscriber(name) {
      return db.tx(async (tx) => {
        await tx.query('DELETE FROM deliveries WHERE subscriber = $1', [name])
        const { rowCount } = await tx.query('DELETE FROM subscribers WHERE name = $1', [name])
        return (rowCount ?? 0) > 0
      })
    },
  }
}
