// Hubs on one database each run some of the driven sessions (the CLI is a child of one hub). A
// request about a session another live hub runs is passed to that hub, so any hub answers for every
// session and no session is ever started twice. Where that hub is, the database says, and anyone
// who can write to it could name any address: so the client is authenticated here first, the hub
// there must prove on the connection that it holds the admin token before it is sent anything, and
// what it is sent is signed for it (forward-signature.ts), without the client's credentials.
import { type IncomingMessage, request } from 'node:http'
import { Readable } from 'node:stream'
import type { Context } from 'hono'
import { advertisedHub } from '../../core/config.js'
import { upstream } from '../../core/errors.js'
import { connector, describeTarget, hubTarget, reach, type TcpHub } from '../../core/hub-dial.js'
import { hostPort, isLoopback } from '../../core/network.js'
import type { Store } from '../../store/store.js'
import { hubLease, subscriberLease } from '../core/lease-keeper.js'
import type { Before } from './define.js'
import type { HubEnv } from './env.js'
import { bodyDigest, FORWARDED, signForward } from './forward-signature.js'
import { requestBody } from './node-io.js'
import { passOnName } from './principal.js'

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
}

/** Where `other` is dialled; an error (502) when it is no address this hub passes requests to. */
function dialOf(other: OtherHub, forwarding: Forwarding): TcpHub {
  const address = advertisedHub(other.advertised)
  if (!address)
    throw upstream(
      `the hub running this session gave no usable address ("${other.advertised.slice(0, 100)}")`,
    )
  if (!address.fingerprint && !isLoopback(address.host) && !forwarding.inClear)
    throw upstream(
      `the hub running this session (${other.advertised}) speaks plain HTTP beyond loopback; this hub passes requests on over TLS only`,
    )
  return hubTarget(address)
}

/**
 * What a route about one session does first (define.ts `before`): when another live hub runs that
 * session, the request goes there, for whom this hub authenticated, and its answer comes back.
 */
export function passOnToItsHub(store: Store, forwarding: Forwarding): Before {
  // One hub on its own database runs every session there is.
  if (store.onOtherChanges === undefined) return async () => null
  return async (c, _name, who) => {
    // A request passed on once is never passed on again (no loop while a lease moves).
    if (c.req.header(FORWARDED) !== undefined) return null
    const id = c.req.param('id')
    const as = passOnName(who)
    if (!id || !as) return null
    const other = await sessionHubElsewhere(store, forwarding.hubId, id)
    return other ? forward(c, other, as, forwarding) : null
  }
}

/**
 * Passes the request on to `other` for `principal` (whom this hub authenticated) and its answer back,
 * streams included. Nothing is sent to an address whose hub does not prove itself on the connection.
 */
async function forward(
  c: Context<HubEnv>,
  other: OtherHub,
  principal: string,
  forwarding: Forwarding,
): Promise<Response> {
  const req = c.env.incoming
  // Read whole, to sign its digest: no further than the route's limit, as the hub there reads it.
  const read = await requestBody(c)
  const body = read.length ? read : null
  const dial = dialOf(other, forwarding)
  const proof = await reach(dial, forwarding.key)
  if (!proof.answered || !proof.proven)
    throw upstream(
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
  if (body) headers['content-length'] = body.length.toString()
  headers[FORWARDED] = signForward(forwarding.key, method, path, {
    to: other.id,
    from: forwarding.hubId,
    as: principal,
    body: body ? bodyDigest(body) : null,
  })
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    const passed = request(
      { host: target.host, port: target.port, method, path, headers, createConnection: connector(target) },
      resolve,
    )
    passed.on('error', (err) =>
      reject(
        upstream(`the hub running this session (${describeTarget(target)}) did not answer: ${err.message}`),
      ),
    )
    // The client left: so does the request on its behalf, a stream included.
    c.env.outgoing?.on('close', () => passed.destroy())
    passed.end(body ?? undefined)
  })
  const passed = new Headers()
  for (const [name, value] of Object.entries(answer.headers))
    if (typeof value === 'string' && !HOP.has(name)) passed.set(name, value)
  const status = answer.statusCode ?? 502
  const stream = status === 204 || status === 304 ? null : (Readable.toWeb(answer) as ReadableStream)
  return new Response(stream, { status, headers: passed })
}

/** Headers that describe one hop of an answer, not the answer. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding'])
