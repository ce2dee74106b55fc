// Server-sent event streams of the one app: held open while the one reading may still see them (a
// browser blocked, demoted, signed out or expired from any surface ends its streams within a second),
// with a comment now and then so no proxy closes them.
import type { SSEStreamingApi } from 'hono/streaming'
import type { Store } from '../../store/store.js'
import { standing } from '../people/web-signin.js'
import type { Principal } from './principal.js'

const KEEPALIVE_MS = 15_000
/** How often an open stream asks whether its reader may still see it. */
const RECHECK_MS = 1_000

export async function holdOpen(stream: SSEStreamingApi, mayStillSee: () => Promise<boolean>): Promise<void> {
  let quiet = 0
  while (!stream.aborted && !stream.closed) {
    await stream.sleep(RECHECK_MS)
    if (stream.aborted || stream.closed) return
    if (!(await mayStillSee())) return void (await stream.close())
    quiet += RECHECK_MS
    if (quiet >= KEEPALIVE_MS) {
      quiet = 0
      await stream.write(': keepalive\n\n')
    }
  }
}

/**
 * Whether `who` may still see an operator's stream: the admin token always; a browser while it is an
 * operator. Never rejects: a store that cannot answer now (a busy Postgres pool gives up a statement
 * that waited 10 s) ends the stream, and the page opens it again, rather than leaving a rejection
 * that nothing handles to end the hub.
 */
export function stillOperator(store: Pick<Store, 'senderById'>, who: Principal): () => Promise<boolean> {
  if (who.kind !== 'browser') return async () => true
  return () =>
    store.senderById(who.sender.id).then(
      (sender) => standing(sender) === 'operator',
      () => false,
    )
}

/**
 * Writes what a stream is handed, in order, each piece only after a check begun after it came (a
 * prompt goes out only to one who may answer it now). What comes while a check runs waits for the
 * next one, and goes out with the others: one check per row queued each behind the hub's deliveries
 * on a busy store, and the rows behind those checks piled up in the hub (three hubs on Postgres:
 * megabytes a minute). `check` false, or a write that fails (a stream the page closed): `end`.
 */
export function checkedWrites<T>(
  check: () => Promise<boolean>,
  write: (piece: T) => Promise<void>,
  end: () => Promise<void>,
): (piece: T) => void {
  const waiting: T[] = []
  let sending = false
  const send = async () => {
    sending = true
    try {
      while (waiting.length) {
        const pieces = waiting.splice(0)
        if (!(await check())) return await end()
        for (const piece of pieces) await write(piece)
      }
    } catch {
      await end().catch(() => {})
    } finally {
      sending = false
    }
  }
  return (piece) => {
    waiting.push(piece)
    if (!sending) void send()
  }
}
