// The one app on Node's servers: every request (over TCP or the home's socket) goes through app.fetch
// by @hono/node-server's listener, and so does every WebSocket upgrade, by the listener below. An
// upgrade route takes the socket itself (wss.handleUpgrade) and answers upgraded(); any other answer
// to an upgrade is written back as a bare status line.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { getRequestListener, RequestError } from '@hono/node-server'
import { invalid } from '../../core/errors.js'
import type { Logger } from '../../core/log.js'
import type { HubApp, HubBindings } from './env.js'
import { refusal } from './errors.js'
import { discardUnread } from './node-io.js'
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
): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void> {
  const listener = getRequestListener(
    (request, env) => {
      // The adapter's own env object, one per request: marked rather than copied.
      const bindings = env as HubBindings
      bindings.local = local
      return app.fetch(request, bindings)
    },
    {
      // A request with no Host (HTTP/1.0) is still one: routes read its path, never its host.
      hostname: 'hub',
      errorHandler: (err) => failed(err, log),
    },
  ) as (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>
  return (incoming, outgoing) => {
    // The adapter leaves the unread body of a GET or a HEAD where it is (node-io.ts discardUnread);
    // Node drops one nobody began to read (flowing is null then), but not one paused at its limit.
    if (incoming.method === 'GET' || incoming.method === 'HEAD')
      outgoing.once('finish', () => {
        if (incoming.readableFlowing === false) discardUnread(incoming)
      })
    return listener(incoming, outgoing)
  }
}

/** What the adapter could not hand the app, or what the app threw past its own onError. */
function failed(err: unknown, log: Logger): Response {
  // No URL can be made of the request (a Host that names no host, say): the client's mistake.
  if (err instanceof RequestError) return refusal(invalid(err.message))
  log.error({ err }, 'request failed')
  return Response.json({ error: 'internal error; see the hub log', kind: null }, { status: 500 })
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
