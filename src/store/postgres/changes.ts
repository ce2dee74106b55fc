// How hubs on one database hear of each other's writes: a NOTIFY on one channel, sent by the writing
// transaction (so only once it commits), heard on a connection of its own. Rows stay the truth; a
// notice only says where to look. Any role that may connect may NOTIFY on the channel, whatever its
// rights on the tables: a notice is a wake-up and never more, and one no hub would send is dropped.
import pg from 'pg'
import * as z from 'zod'
import type { OtherChange } from '../store.js'
import type { Queryable } from './db.js'

const CHANNEL = 'switchboard_changes'
/** NOTIFY payloads stop at 8000 bytes: a longer list of subscribers becomes "any of them". */
const MAX_PAYLOAD = 7000
const RECONNECT_MS = 500

const name = z.string().min(1).max(500)
/** What a hub sends (see notice()); anything else on the channel is no hub's. */
const noticeSchema = z.intersection(
  z.discriminatedUnion('area', [
    z.object({ area: z.literal('events'), subscribers: z.array(name).max(10_000).nullable() }),
    z.object({ area: z.literal('outbox'), senderId: name, itemId: z.number().int().positive() }),
    z.object({ area: z.literal('decisions'), id: name }),
    z.object({ area: z.literal('lease'), name, holder: name }),
    z.object({ area: z.literal('sources'), name }),
  ]),
  z.object({ from: name }),
)

/** The arguments of `pg_notify` that tell the other hubs of `change`. */
export function notice(instance: string, change: OtherChange): [channel: string, payload: string] {
  const payload = JSON.stringify({ ...change, from: instance })
  if (payload.length <= MAX_PAYLOAD || change.area !== 'events') return [CHANNEL, payload]
  return [CHANNEL, JSON.stringify({ area: 'events', subscribers: null, from: instance })]
}

/** Tells the other hubs of `change` when the transaction `q` runs in commits (at once outside one). */
export async function announce(q: Queryable, instance: string, change: OtherChange): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', notice(instance, change))
}

/**
 * Listens on a connection of its own (a pooled one would be handed back) and connects again when it
 * drops; `listener` hears every notice but this process's own, and `unknown` after every (re)connect,
 * since what was committed meanwhile went unheard. Returns a function that stops listening.
 */
export function listenForChanges(
  url: string,
  instance: string,
  listener: (change: OtherChange) => void,
): () => Promise<void> {
  let client: pg.Client | null = null
  let stopped = false
  let retry: NodeJS.Timeout | null = null
  const connect = async () => {
    const c = new pg.Client({ connectionString: url })
    client = c
    const again = () => {
      if (stopped || client !== c) return
      client = null
      void c.end().catch(() => {})
      retry = setTimeout(() => void connect(), RECONNECT_MS)
      retry.unref()
    }
    c.on('error', again)
    c.on('end', again)
    c.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return
      let parsed: z.infer<typeof noticeSchema>
      try {
        parsed = noticeSchema.parse(JSON.parse(n.payload))
      } catch {
        return // the 5 s backstop reads what a real notice would have pointed at
      }
      if (parsed.from === instance) return
      const { from: _, ...change } = parsed
      listener(change as OtherChange)
    })
    try {
      await c.connect()
      await c.query(`LISTEN ${CHANNEL}`)
      listener({ area: 'unknown' })
    } catch {
      again()
    }
  }
  void connect()
  return async () => {
    stopped = true
    if (retry) clearTimeout(retry)
    await client?.end().catch(() => {})
  }
}
