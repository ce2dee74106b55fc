// The one app on Node's servers: every request (over TCP or the home's socket) and every WebSocket
// upgrade goes through app.fetch. An upgrade route takes the socket itself (wss.handleUpgrade) and
// answers upgraded(); any other answer to an upgrade is written back as a bare status line.

import { once } from 'node:events'
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from '../../core/log.js'
import type { HubApp } from './env.js'
import { ANSWERED_ON_NODE } from './node-io.js'
import { requestFrom } from './node-request.js'
import { checkTarget } from './request-guard.js'

const UPGRADED_HEADER = 'x-switchboard-upgraded'

/** What an upgrade route answers once the socket is the WebSocket server's (a Response cannot be a 101). */
export function upgraded(): Response {
  return new Response(null, { status: 200, headers: { [UPGRADED_HEADER]: '1' } })
}

export function requestListener(
  app: HubApp,
  local: boolean,
  log: Logger,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    const fail = (err: unknown) => {
      // The app's onError answers everything a route throws; this is a fault in writing the answer.
      log.error({ err }, 'answer failed')
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' })
      outgoing.end()
    }
    try {
      const answer = app.fetch(requestFrom(incoming, outgoing), { incoming, outgoing, local })
      if (answer instanceof Promise) answer.then((a) => answered(a, outgoing, fail), fail)
      else answered(answer, outgoing, fail)
    } catch (err) {
      fail(err)
    }
  }
}

/** What a route answered, written onto Node's response unless the route wrote there itself. */
function answered(answer: Response, outgoing: ServerResponse, fail: (err: unknown) => void): void {
  if (answer !== ANSWERED_ON_NODE) write(answer, outgoing).catch(fail)
}

/** A web Response onto Node's: headers and a whole body at once, an event stream as it comes. */
async function write(answer: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  answer.headers.forEach((value, name) => {
    headers[name] = value
  })
  const cookies = answer.headers.getSetCookie()
  if (cookies.length) headers['set-cookie'] = cookies
  const body = answer.body
  if (!body) {
    outgoing.writeHead(answer.status, headers).end()
    return
  }
  if (!headers['content-type']?.includes('text/event-stream')) {
    const bytes = Buffer.from(await answer.arrayBuffer())
    headers['content-length'] = String(bytes.length)
    outgoing.writeHead(answer.status, headers).end(bytes)
    return
  }
  // An event stream: its headers now, each event as it is written, and the writer told when the
  // client goes away (the stream's abort handlers unsubscribe it).
  outgoing.writeHead(answer.status, headers)
  outgoing.flushHeaders()
  const reader = body.getReader()
  outgoing.once('close', () => void reader.cancel().catch(() => {}))
  for (;;) {
    const { done, value } = await reader.read()
    if (done || outgoing.destroyed) break
    if (!outgoing.write(value)) await once(outgoing, 'drain').catch(() => {})
  }
  outgoing.end()
}

export function upgradeListener(app: HubApp, local: boolean, log: Logger) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', (err) => log.debug({ err: err.message }, 'upgrade socket error'))
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value)
    let request: Request
    try {
      // The target is checked before anything is built from it: an absolute URL (with credentials,
      // say) cannot make a Request, and that must be a 400, never an exception in the hub.
      checkTarget(req.url)
      request = new Request(new URL(req.url ?? '/', 'http://hub'), { headers })
    } catch {
      refuse(socket, 400)
      return
    }
    const env = {
      incoming: req,
      outgoing: undefined as unknown as ServerResponse,
      local,
      upgrade: { socket, head },
    }
    Promise.resolve(app.fetch(request, env))
      .then((answer) => {
        if (!answer.headers.has(UPGRADED_HEADER)) refuse(socket, answer.status)
      })
      .catch((err) => {
        log.error({ err }, 'upgrade failed')
        refuse(socket, 500)
      })
  }
}

/** Ends an upgrade the hub will not take, with a status and nothing more. */
function refuse(socket: Duplex, status: number): void {
  if (socket.destroyed) return
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  )
}
