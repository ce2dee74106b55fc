// The events area on Postgres, shared by several hubs: seqs handed out by the committing statement
// (so seq order is commit order everywhere), a group commit as one statement, one delivery row per
// (subscriber, event) until acknowledged, and a NOTIFY per commit that wakes the other hubs.

import { type Interest, type StoredEvent, wants } from '../../core/event.js'
import { keyedEventId, newId } from '../../core/ids.js'
import type { EventStore, StagedEvent } from '../events.js'
import { toEvent, toSubscriber, toSubscriberInfo } from '../rows.js'
import { writtenOnAck } from '../shared/receipts.js'
import { notice } from './changes.js'
import type { PostgresDb, Queryable } from './db.js'

const PARKED = ''

/**
 * A whole write in one statement, its own transaction: it takes the seq row's lock and numbers the
 * events from there (the lock is held to the commit, so seq order is commit order), writes those
 * whose keyed id is not stored already, their deliveries, and the wake-up for the other hubs, sent
 * on commit. The subscribers were matched by the hub from its copy of them: `version` says which, and
 * when a subscriber changed since (checked on the locked row, so never stale) nothing is written and
 * no row comes back. Otherwise one row per event written, with the first seq given.
 */
const WRITE = `WITH u AS (
    UPDATE event_seq SET last = last + $14 WHERE version = $15 RETURNING last - $14 AS first
  ), e AS (
    INSERT INTO events (seq, id, topic, source, sender, chat_id, target, content, meta, idem_key, created_at, about)
    SELECT u.first + x.ord, x.id, x.topic, x.source, x.sender, x.chat_id, x.target, x.content, x.meta,
      x.idem_key, x.created_at, x.about
    FROM u, unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::text[], $9::text[], $10::bigint[], $17::text[]) WITH ORDINALITY
      AS x(id, topic, source, sender, chat_id, target, content, meta, idem_key, created_at, about, ord)
    ON CONFLICT (id) WHERE idem_key IS NOT NULL DO NOTHING
    RETURNING seq
  ), d AS (
    INSERT INTO deliveries (subscriber, seq)
    SELECT x.subscriber, u.first + x.ord FROM u, unnest($11::text[], $12::bigint[]) AS x(subscriber, ord)
    WHERE u.first + x.ord IN (SELECT seq FROM e)
    ON CONFLICT DO NOTHING
  ), n AS (
    SELECT pg_notify($16, $13)
  )
  SELECT u.first, e.seq FROM u CROSS JOIN n LEFT JOIN e ON true`

/** The subscribers as of a version of them (see WRITE). */
const SUBSCRIBERS = `SELECT v.version, s.name, s.topics, s.scope, s.keys
  FROM event_seq v LEFT JOIN subscribers s ON true`

const SUBSCRIBER_INFO = `SELECT s.name, s.topics, s.scope, s.keys, s.peer,
  (SELECT count(*) FROM deliveries d WHERE d.subscriber = s.name) AS pending FROM subscribers s`

/** Takes the lock every event write holds until it commits, and tells the last seq handed out. */
async function lockSeqs(tx: Queryable): Promise<number> {
  const { rows } = await tx.query('SELECT last FROM event_seq FOR UPDATE')
  return rows[0]?.last as number
}

export function postgresEventStore(db: PostgresDb, instance: string): EventStore {
  /** Keyed events staged on this hub and not written yet, by id: a retry in the same instant. */
  const unwrittenKeyed = new Map<string, StoredEvent>()

  /** The hub's copy of the subscribers, and the version it is of; read again when it changed. */
  let known: { version: number; subscribers: (Interest & { name: string })[] } | null = null

  async function loadSubscribers(): Promise<NonNullable<typeof known>> {
    const rows = await db.rows(SUBSCRIBERS)
    return {
      version: rows[0]?.version as number,
      subscribers: rows.filter((r) => r.name !== null).map(toSubscriber),
    }
  }

  /** One statement, one round trip; again with the subscribers read anew if they changed. */
  async function writeFresh(fresh: StagedEvent[]): Promise<void> {
    for (;;) {
      known ??= await loadSubscribers()
      const { rows } = await db.query(WRITE, writeParams(fresh, known))
      if (rows.length === 0) {
        known = null // a subscriber registered or left meanwhile: matched again
        continue
      }
      const first = rows[0]?.first as number
      const written = new Set(rows.map((r) => r.seq as number | null))
      for (const [i, s] of fresh.entries()) s.event.seq = first + i + 1
      // A keyed event not written was a retry another hub stored first: it is that event.
      const retries = fresh.filter((s) => !written.has(s.event.seq))
      if (retries.length) await markStored(retries)
      return
    }
  }

  /** The WRITE statement's parameters; gives each event its subscribers (its seq comes back). */
  function writeParams(fresh: StagedEvent[], { version, subscribers }: NonNullable<typeof known>) {
    const cols: unknown[][] = Array.from({ length: 10 }, () => [])
    const about: string[] = []
    const deliveries: { subscriber: string[]; ord: number[] } = { subscriber: [], ord: [] }
    for (const [i, s] of fresh.entries()) {
      const e = s.event
      s.subscribers = s.target
        ? [s.target]
        : subscribers.filter((sub) => wants(sub, { topic: e.topic, about: s.about })).map((sub) => sub.name)
      about.push(JSON.stringify(s.about))
      const row = [
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
        deliveries.ord.push(i + 1)
      }
    }
    const [channel, payload] = notice(instance, {
      area: 'events',
      subscribers: [...new Set(fresh.flatMap((s) => s.subscribers))],
    })
    return [...cols, deliveries.subscriber, deliveries.ord, payload, fresh.length, version, channel, about]
  }

  async function markStored(retries: StagedEvent[]): Promise<void> {
    const stored = await db.rows('SELECT * FROM events WHERE idem_key IS NOT NULL AND id = ANY($1)', [
      retries.map((s) => s.event.id),
    ])
    const byId = new Map(stored.map((r) => [r.id as string, toEvent(r)]))
    for (const s of retries) {
      const earlier = byId.get(s.event.id)
      if (!earlier) throw new Error(`event ${s.event.id} was neither written nor found`)
      s.duplicate = true
      s.event = earlier
      s.subscribers = []
    }
  }

  return {
    async stage(events) {
      // Nothing is read here: seqs are given, and subscribers matched, by the write (see WRITE).
      return events.map((e) => {
        const keyedId = e.idempotencyKey === null ? null : keyedEventId(e.source, e.sender, e.idempotencyKey)
        const earlier = keyedId === null ? undefined : unwrittenKeyed.get(keyedId)
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
          about: e.about ?? [],
        }
      })
    },

    async write(staged) {
      const fresh = staged.filter((s) => !s.duplicate)
      try {
        if (fresh.length) await writeFresh(fresh)
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
        await tx.query('UPDATE event_seq SET version = version + 1')
        const { rows } = await tx.query('SELECT parked_seq FROM subscribers WHERE name = $1', [name])
        const offered = (rows[0]?.parked_seq as number | undefined) ?? 0
        const interest: Interest = { topics, scope: options.scope ?? 'everything', keys: options.keys ?? [] }
        await tx.query(
          `INSERT INTO subscribers (name, topics, scope, keys, peer, created_at, seen_at, parked_seq)
           VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
           ON CONFLICT (name) DO UPDATE SET topics = excluded.topics, scope = excluded.scope,
             keys = excluded.keys, peer = excluded.peer, seen_at = excluded.seen_at,
             parked_seq = excluded.parked_seq`,
          [
            name,
            JSON.stringify(topics),
            interest.scope,
            JSON.stringify(interest.keys),
            options.peer !== false,
            now,
            last,
          ],
        )
        const parked = await tx.query(
          `SELECT d.seq, e.topic, e.about FROM deliveries d JOIN events e ON e.seq = d.seq
           WHERE d.subscriber = $1 AND d.seq > $2 ORDER BY d.seq`,
          [PARKED, offered],
        )
        const wanted = parked.rows
          .filter((p) => wants(interest, { topic: p.topic as string, about: JSON.parse(p.about as string) }))
          .map((p) => p.seq)
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

    async ack(subscriber, seqs, writtenAt) {
      if (writtenAt === undefined) {
        await db.query('DELETE FROM deliveries WHERE subscriber = $1 AND seq = ANY($2::bigint[])', [
          subscriber,
          seqs,
        ])
        return
      }
      // One statement, so one commit: the deliveries go and their receipts say written together.
      await db.query(
        `WITH handled AS (DELETE FROM deliveries WHERE subscriber = $1 AND seq = ANY($3::bigint[]))
         ${writtenOnAck('seq = ANY($3::bigint[])')}`,
        [subscriber, writtenAt, seqs],
      )
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
      return (await db.rows(`${SUBSCRIBER_INFO} ORDER BY s.name COLLATE "C"`)).map(toSubscriberInfo)
    },

    async getSubscriber(name) {
      const r = await db.row(`${SUBSCRIBER_INFO} WHERE s.name = $1`, [name])
      return r ? toSubscriberInfo(r) : null
    },

    async parkedAbout(eventId) {
      const r = await db.row(
        `SELECT e.about FROM events e JOIN deliveries d ON d.seq = e.seq AND d.subscriber = ''
         WHERE e.id = $1`,
        [eventId],
      )
      return r ? (JSON.parse(r.about as string) as string[]) : null
    },

    async hasSubscriber(name) {
      return (await db.row('SELECT 1 FROM subscribers WHERE name = $1', [name])) !== null
    },

    async removeSubscriber(name) {
      return db.tx(async (tx) => {
        await lockSeqs(tx)
        await tx.query('UPDATE event_seq SET version = version + 1')
        await tx.query('DELETE FROM deliveries WHERE subscriber = $1', [name])
        const { rowCount } = await tx.query('DELETE FROM subscribers WHERE name = $1', [name])
        return (rowCount ?? 0) > 0
      })
    },
  }
}
