// Hubs on one database each run some of the driven sessions (the CLI is a child of one hub). A
// request about a session another live hub runs is passed to that hub, so any hub answers for every
// session and no session is ever started twice. Where that hub is, the database says, and anyone
// who can write to it could name any address: so the client is authenticated here first, the hub
// there must prove on the connection that it holds the admin token before it is sent anything, and
// what it is sent is signed for it (forward-signature.ts), without the client's credentials.
import { IncomingMessage, request, type ServerResponse } from 'node:http'
import { advertisedHub } from '../../core/config.js'
import { HttpError } from '../../core/errors.js'
import { connector, describeTarget, hubTarget, isLoopback, reach, type TcpHub } from '../../core/hub-dial.js'
import { hostPort } from '../../core/network.js'
import type { Store } from '../../store/store.js'
import { hubLease, subscriberLease } from '../core/lease-keeper.js'
import { bodyDigest, FORWARDED, type ForwardVerifier, signForward } from './forward-signature.js'
import { readBody } from './http-util.js'

export { FORWARDED } from './forward-signature.js'

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

/** Another live hub, as its lease names it. */
export interface OtherHub {
  id: string
  /** host:port[#sha256:…] as it advertised itself. */
  advertised: string
}

/** The hub that runs `sessionId`, when it is another hub that is alive; else null. */
export async function sessionHubElsewhere(
  store: Store,
  hubId: string,
  sessionId: string,
): Promise<OtherHub | null> {
  const now = Date.now()
  const session = await store.getLease(subscriberLease(`session:${sessionId}`))
  if (!session || session.holder === hubId || session.expiresAt <= now) return null
  const hub = await store.getLease(hubLease(session.holder))
  return hub && hub.expiresAt > now && hub.note ? { id: session.holder, advertised: hub.note } : null
}

/** Request headers a hub never passes on: the client's credentials, and what describes this hop. */
const DROPPED = new Set([
  'authorization',
  'cookie',
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  FORWARDED,
])

export interface Forwarding {
  /** The admin token: what the hub there must prove it holds, and what signs the request. */
  key: string
  /** This hub's id, named as the sender. */
  hubId: string
  /** Whether this hub itself speaks plain HTTP beyond loopback (--insecure): then it may forward so too. */
  inClear: boolean
  /** The most a request's body may be; it is read whole, to sign its digest. */
  maxBodyBytes: number
}

/** Where `other` is dialled; an error (502) when it is no address this hub passes requests to. */
function dialOf(other: OtherHub, forwarding: Forwarding): TcpHub {
  const address = advertisedHub(other.advertised)
  if (!address)
    throw new HttpError(
      502,
      `the hub running this session gave no usable address ("${other.advertised.slice(0, 100)}")`,
    )
  if (!address.fingerprint && !isLoopback(address.host) && !forwarding.inClear)
    throw new HttpError(
      502,
      `the hub running this session (${other.advertised}) speaks plain HTTP beyond loopback; this hub passes requests on over TLS only`,
    )
  return hubTarget(address)
}

/** Whether a request carries a body (one to read and sign). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
}

/**
 * Passes the request on to `other` for `principal` (whom this hub authenticated) and its answer back,
 * streams included. Nothing is sent to an address whose hub does not prove itself on the connection.
 */
export async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  other: OtherHub,
  principal: string,
  forwarding: Forwarding,
): Promise<void> {
  const body = hasBody(req) ? await readBody(req, forwarding.maxBodyBytes) : null
  const dial = dialOf(other, forwarding)
  const proof = await reach(dial, forwarding.key)
  if (!proof.answered || !proof.proven)
    throw new HttpError(
      502,
      `the hub running this session (${describeTarget(dial)}) ${proof.answered ? 'did not prove it is a hub of this database' : 'did not answer'}; nothing was sent to it`,
    )
  const target = proof.target as TcpHub
  const method = req.method ?? 'GET'
  const path = req.url ?? '/'
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !DROPPED.has(name)) headers[name] = value
  const host = hostPort(target.host, target.port)
  // This hub checked the Host and Origin it was sent; the next one checks them as its own.
  headers.host = host
  if (req.headers.origin) headers.origin = `${target.tls ? 'https' : 'http'}://${host}`
  if (body) headers['content-length'] = String(body.length)
  headers[FORWARDED] = signForward(forwarding.key, method, path, {
    to: other.id,
    from: forwarding.hubId,
    as: principal,
    body: body ? bodyDigest(body) : null,
  })
  await new Promise<void>((resolve) => {
    const upstream = request(
      { host: target.host, port: target.port, method, path, headers, createConnection: connector(target) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('end', resolve)
      },
    )
    upstream.on('error', (err) => {
      resolve()
      if (res.headersSent) return void res.destroy()
      res.writeHead(502, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          error: `the hub running this session (${describeTarget(target)}) did not answer: ${err.message}`,
        }),
      )
    })
    res.on('close', () => {
      upstream.destroy()
      resolve()
    })
    upstream.end(body ?? undefined)
  })
}

/**
 * A request another hub passed on, checked (signature, freshness, meant for this hub, taken once,
 * its body the one signed) and given back as this hub serves it: its body read, no credentials,
 * and whom the sending hub authenticated. A 401 for anything else.
 */
export async function takeForwarded(
  req: IncomingMessage,
  verifier: ForwardVerifier,
  maxBodyBytes: number,
): Promise<{ req: IncomingMessage; principal: string }> {
  const header = req.headers[FORWARDED]
  const checked = verifier.verify(
    req.method ?? 'GET',
    req.url ?? '/',
    typeof header === 'string' ? header : '',
  )
  if ('refused' in checked) {
    req.resume()
    throw new HttpError(401, checked.refused)
  }
  const { signed } = checked
  const body = signed.body || hasBody(req) ? await readBody(req, maxBodyBytes) : Buffer.alloc(0)
  if ((signed.body ?? bodyDigest(Buffer.alloc(0))) !== bodyDigest(body))
    throw new HttpError(401, 'the body of this passed-on request is not the one its hub signed')
  const taken = new IncomingMessage(req.socket)
  taken.method = req.method
  taken.url = req.url
  taken.httpVersionMajor = req.httpVersionMajor
  taken.httpVersionMinor = req.httpVersionMinor
  taken.httpVersion = req.httpVersion
  const rawHeaders: string[] = []
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string
    if (!DROPPED.has(name.toLowerCase())) rawHeaders.push(name, req.rawHeaders[i + 1] as string)
  }
  rawHeaders.push('host', req.headers.host ?? '', 'content-length', String(body.length))
  setHeaders(taken, rawHeaders)
  // Whole already: a message that ends incomplete takes its socket down with it.
  taken.complete = true
  taken.push(body)
  taken.push(null)
  return { req: taken, principal: signed.as }
}

/** A request's headers, as node:http (rawHeaders) and the routes (headers) read them. */
export function setHeaders(req: IncomingMessage, rawHeaders: string[]): void {
  const headers: Record<string, string> = {}
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    headers[(rawHeaders[i] as string).toLowerCase()] = rawHeaders[i + 1] as string
  req.rawHeaders = rawHeaders
  req.headers = headers
}
