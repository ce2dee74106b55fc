// bench/delivery/router.ts (npm run bench:router): what moving the webhook route onto Hono would cost
// its hot path. One process holds one Hub on one SQLite store and serves the same webhook handler
// (createRoutes().webhook, src/hub/transport/routes.ts) three ways, each on a port of its own:
//   node:http — as the hub serves it: parse the target, check Host and Origin, call the route;
//   Hono      — the same check as middleware and the same route, in a Hono app through
//               @hono/node-server, handed Node's request and response (the cheapest Hono can be);
//   Hono, web — the route written the Hono way: the body read from the web Request, the answer a
//               web Response (what a port of the route to Hono would look like).
// A sender process (sender.ts) POSTs and times each answer (202 after the commit): one at a time, the
// three ways taking turns request by request, so a slow stretch of the machine falls on all of them
// alike; then 32 at a time for throughput, the ways taking turns in rounds.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { Hono } from 'hono'
import { pino } from 'pino'
import { HttpError } from '../../src/core/errors.js'
import { isReservedSource } from '../../src/core/sources.js'
import { Hub } from '../../src/hub/core/hub.js'
import { sendError } from '../../src/hub/transport/http-util.js'
import { checkHostAndOrigin, type HostRules, requestUrl } from '../../src/hub/transport/request-guard.js'
import { createRoutes } from '../../src/hub/transport/routes.js'
import { SenderStreams } from '../../src/hub/transport/sender-streams.js'
import { SourceCache } from '../../src/hub/transport/source-cache.js'
import { verifyWebhook, webhookEvents } from '../../src/sources/webhook/index.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { fmt, summarize } from '../stats.js'
import { type SenderKind, senderKinds } from './sender.js'
import { startSender } from './sender-process.js'

const N = Number(process.env.BENCH_ROUTER_N ?? 10000)
const ROUNDS = 10
const WARMUP = 500
const THROUGHPUT_N = Number(process.env.BENCH_ROUTER_THROUGHPUT_N ?? 20000)
const IN_FLIGHT = 32
const MAX_BODY = 64 * 1024
const SECRET = 'whsec_router_bench'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer(handler)
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

const dir = mkdtempSync(join(tmpdir(), 'switchboard-router-bench-'))
const store = openSqliteStore(join(dir, 'switchboard.db'), { checkpoints: 'worker' })
await store.addSource({ name: 'bench', topic: 'bench', secret: SECRET, deliveryHeader: null })
const hub = new Hub(store, pino({ level: 'warn' }))
const routes = createRoutes(hub, new SenderStreams(store), MAX_BODY, 'admin-token-unused')
const sources = new SourceCache(store)
const rules = (port: number): HostRules => ({ bound: '127.0.0.1', port, allowedHosts: [] })
const ports: Record<string, number> = {}

// node:http, as src/hub/server.ts serves a webhook.
const plain = await listen((req, res) => {
  const fail = (err: unknown) => {
    req.resume()
    sendError(res, err)
  }
  try {
    const url = requestUrl(req)
    checkHostAndOrigin(req, rules(ports['node:http'] as number))
    if (!url.pathname.startsWith('/hooks/') || req.method !== 'POST') throw new HttpError(404, 'no such path')
    routes.webhook(req, res, url).catch(fail)
  } catch (err) {
    fail(err)
  }
})
ports['node:http'] = plain.port

// Hono, with the same guard and the same route on Node's objects.
type NodeEnv = { Bindings: { incoming: IncomingMessage; outgoing: ServerResponse } }
const onNode = new Hono<NodeEnv>()
onNode.use('*', async (c, next) => {
  checkHostAndOrigin(c.env.incoming, rules(ports.Hono as number))
  await next()
})
onNode.post('/hooks/:name', async (c) => {
  await routes.webhook(c.env.incoming, c.env.outgoing, new URL(c.req.url))
  return RESPONSE_ALREADY_SENT
})
onNode.onError((err, c) => {
  c.env.incoming.resume()
  sendError(c.env.outgoing, err)
  return RESPONSE_ALREADY_SENT
})
const hono = await listen(getRequestListener(onNode.fetch))
ports.Hono = hono.port

// Hono, the route written against the web Request and Response.
const onWeb = new Hono<NodeEnv>()
onWeb.use('*', async (c, next) => {
  checkHostAndOrigin(c.env.incoming, rules(ports['Hono, web'] as number))
  await next()
})
onWeb.post('/hooks/:name', async (c) => {
  const name = c.req.param('name')
  const source = isReservedSource(name) ? null : (sources.cached(name) ?? (await sources.get(name)))
  if (!source) return c.json({ error: `unknown source "${name}"` }, 404)
  const body = Buffer.from(await c.req.arrayBuffer())
  if (body.length > MAX_BODY) return c.json({ error: 'body over the limit' }, 413)
  const url = new URL(c.req.url)
  const proof = verifyWebhook(source, c.env.incoming.headers, body)
  const outcome = webhookEvents(source, c.env.incoming.headers, body, url.searchParams, proof)
  if ('ignored' in outcome) return c.json({ events: [], ignored: outcome.ignored })
  const results = await Promise.all(outcome.events.map((event) => hub.publish(event)))
  const [only] = results
  if (results.length === 1 && only) return c.json({ id: only.event.id, duplicate: only.duplicate }, 202)
  return c.json({ events: results.map((r) => ({ id: r.event.id, duplicate: r.duplicate })) }, 202)
})
onWeb.onError((err, c) =>
  err instanceof HttpError
    ? c.json({ error: err.message }, err.status as 400)
    : c.json({ error: 'internal error' }, 500),
)
const web = await listen(getRequestListener(onWeb.fetch))
ports['Hono, web'] = web.port

const names = Object.keys(ports)
const sender = startSender()
const target = (name: string) => ({
  url: `http://127.0.0.1:${ports[name]}/hooks/bench`,
  headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'text/plain' },
})
/** `count` POSTs to each way, request by request in turn: each way's times to its answer. */
const time = async (kind: SenderKind, count: number, tag: string) =>
  (await sender.ask({ op: 'time', kind, targets: names.map(target), prefix: `${tag}-`, count })).samples ?? []

console.log(
  `bench/delivery/router — webhook POST → 202 (after the commit), one handler served three ways in one ` +
    `process (${N} sequential per way after ${WARMUP} warm-up, the ways in turn request by request; ` +
    `${THROUGHPUT_N} with ${IN_FLIGHT} in flight, in ${ROUNDS} alternating rounds)`,
)
try {
  for (const kind of senderKinds) {
    await time(kind, WARMUP, `${kind}-warm`)
    const samples = await time(kind, N, `${kind}-latency`)
    const seconds = new Map<string, number>(names.map((n) => [n, 0]))
    for (let round = 0; round < ROUNDS; round++)
      for (const name of names) {
        const started = process.hrtime.bigint()
        await sender.ask({
          op: 'flood',
          kind,
          target: target(name),
          prefix: `${kind}-tp-${round}-${name}-`,
          count: THROUGHPUT_N / ROUNDS,
          inFlight: IN_FLIGHT,
        })
        seconds.set(name, (seconds.get(name) ?? 0) + Number(process.hrtime.bigint() - started) / 1e9)
      }
    const rows = names.map((name, i) => ({
      name,
      ...summarize(samples[i] ?? []),
      perSecond: THROUGHPUT_N / (seconds.get(name) ?? Number.NaN),
    }))
    const [base, ...others] = rows
    if (!base) throw new Error('no node:http row')
    console.log(`\nsender: ${kind === 'http' ? 'node:http keep-alive agent' : 'fetch'}`)
    for (const r of rows)
      console.log(
        `  ${r.name.padEnd(10)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  ${fmt(r.perSecond, 0).padStart(6)} requests/s`,
      )
    for (const r of others)
      console.log(
        `  ${`${r.name} / node:http`.padEnd(22)} p50 ${fmt(r.p50 / base.p50, 3)}x (${fmt((r.p50 - base.p50) * 1000, 1)} µs)  ` +
          `p99 ${fmt(r.p99 / base.p99, 3)}x  throughput ${fmt(r.perSecond / base.perSecond, 3)}x`,
      )
  }
} finally {
  sender.stop()
  for (const s of [plain, hono, web]) s.server.closeAllConnections()
  await Promise.all([plain, hono, web].map((s) => new Promise((r) => s.server.close(r))))
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
