// Hubs on one database each run some of the driven sessions (the CLI is a child of one hub). A
// request about a session another live hub runs is passed to that hub as it came, so any hub answers
// for every session and no session is ever started twice.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { request } from 'node:http'
import type { Store } from '../../store/store.js'
import { hubLease, subscriberLease } from '../core/lease-keeper.js'

/** The session a path is about: /sessions/<id>… (the HTTP API) or /api/sessions/<id>… (the dashboard). */
export function sessionOfPath(path: string): string | null {
  const m = /^\/(?:api\/)?sessions\/([^/]+)/.exec(path)
  if (!m) return null
  try {
    return decodeURIComponent(m[1] as string)
  } catch {
    return null // not a session id; the route answers it
  }
}

/** Set on a request one hub passed to another: it is never passed on again (no loop while a lease moves). */
export const FORWARDED = 'x-switchboard-forwarded'

/** Where the hub that runs `sessionId` answers, when it is another hub that is alive; else null. */
export async function sessionHubElsewhere(
  store: Store,
  hubId: string,
  sessionId: string,
): Promise<string | null> {
  const now = Date.now()
  const session = await store.getLease(subscriberLease(`session:${sessionId}`))
  if (!session || session.holder === hubId || session.expiresAt <= now) return null
  const hub = await store.getLease(hubLease(session.holder))
  return hub && hub.expiresAt > now && hub.note ? hub.note : null
}

/** Passes the request on to `address` (host:port) and its answer back, streams included. */
export function forward(req: IncomingMessage, res: ServerResponse, address: string): void {
  const colon = address.lastIndexOf(':')
  const host = address.slice(0, colon).replace(/^\[|\]$/g, '')
  const port = Number(address.slice(colon + 1))
  const upstream = request(
    {
      host,
      port,
      method: req.method,
      path: req.url,
      // This hub checked the Host and Origin it was sent; the next one checks them as its own.
      headers: {
        ...req.headers,
        host: address,
        ...(req.headers.origin ? { origin: `http://${address}` } : {}),
        [FORWARDED]: '1',
      },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  upstream.on('error', (err) => {
    if (res.headersSent) return void res.destroy()
    res.writeHead(502, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({ error: `the hub running this session (${address}) did not answer: ${err.message}` }),
    )
  })
  res.on('close', () => upstream.destroy())
  req.pipe(upstream)
}
