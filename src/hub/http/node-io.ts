// Reading Node's own request, and answering on its response: a request's body, read once and no
// further than its route's limit (the contract's, core/api/routes.ts); and what a route that wrote on
// Node's response itself returns (the sender stream).
import type { IncomingMessage } from 'node:http'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context } from 'hono'
import { invalid, tooLarge } from '../../core/errors.js'
import type { HubEnv } from './env.js'

/** What a route returns once it has answered on Node's response itself: the adapter writes nothing more. */
export const ANSWERED_ON_NODE: Response = RESPONSE_ALREADY_SENT

const NO_BODY = Buffer.alloc(0)

/** A request has a body only when it says so: a length, or chunks (RFC 9112 §6.3). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
}

/**
 * The request's body, read once whoever asks first (who is asking, for a request another hub passed
 * on; the route), at most the route's limit (define.ts puts it in the bindings).
 */
export function requestBody(c: Context<HubEnv>): Promise<Buffer> {
  const env = c.env
  env.body ??= readBody(env.incoming, env.bodyLimit ?? 0)
  return env.body
}

/** A client that hangs up mid-body is its own problem, not the hub's: a 400, never logged as a fault. */
const hungUp = () => invalid('the connection closed before the body ended')

/**
 * At most `limit` bytes of a request's body: a request that says it has more is refused before any
 * of it is read, and one in chunks with no length as soon as the count passes the limit. What is
 * left unread is the adapter's to drain (a little, briefly) before it closes the connection.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (!hasBody(req)) return Promise.resolve(NO_BODY)
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit)
    return Promise.reject(tooLarge(`the body is ${declared} bytes; this route's limit is ${limit}`))
  if (req.destroyed) return Promise.reject(hungUp())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      // No more is taken: the 413 goes out now, and the adapter drains a little (64 MiB, half a
      // second at most) so the client can read it, then closes the connection.
      req.off('data', onData)
      req.pause()
      reject(tooLarge(`the body is over this route's limit of ${limit} bytes`))
    }
    let ended = false
    req.on('data', onData)
    req.on('end', () => {
      ended = true
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size))
    })
    // Gone before the end ('close' also comes after it: then it says nothing, and makes no error).
    const gone = () => {
      if (!ended) reject(hungUp())
    }
    req.on('error', gone)
    req.on('close', gone)
  })
}

/** How much of a body no route read is drained, and for how long, before its connection is closed. */
const DRAIN_BYTES = 64 * 1024 * 1024
const DRAIN_MS = 500

/**
 * What is left of a body once the answer went out, read and dropped (at most 64 MiB, for half a
 * second; then the connection is closed), so that a keep-alive connection's next request is read at
 * all. @hono/node-server does this for every method but GET and HEAD; a GET whose body passed its
 * route's limit was paused there, and the next request on its connection waited for good.
 */
export function discardUnread(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return
  let read = 0
  const done = () => {
    clearTimeout(timer)
    req.off('data', onData)
  }
  const close = () => {
    done()
    req.socket.destroySoon()
  }
  const onData = (chunk: Buffer) => {
    read += chunk.length
    if (read > DRAIN_BYTES) close()
  }
  const timer = setTimeout(close, DRAIN_MS)
  timer.unref()
  req.on('data', onData)
  req.once('end', done)
  req.once('error', done)
  req.resume()
}

export function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name]
  return (Array.isArray(v) ? v[0] : v) ?? null
}
