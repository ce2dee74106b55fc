// bench/delivery/router.ts (npm run bench:router): what serving every route from one Hono app (issue
// 21) costs the hub's hot path, a webhook POST, against the build before it and against nothing. One
// process serves `POST /hooks/bench` (bearer secret, answered 202 after the commit) three ways, each
// on a port and a SQLite store of its own:
//   app    — the one app as `switchboard serve` builds it (this build's dist/, as the hub runs it): assemble() on a config from loadConfig(),
//            createApp(), through requestListener() (src/hub/server.ts, without the leases, bridges
//            and sweeps a webhook does not touch);
//   before — another build (its dist in BENCH_BEFORE_DIST): one of the one app (issue 21 on) served
//            as `app` is, from its own dist; or the build before issue 21 (e.g. a checkout of 429b697
//            built): its hand-made node:http dispatch, as its server.ts served a webhook over TCP,
//            calling its createRoutes().webhook;
//   bare   — the floor: a node:http handler doing only the webhook's own work with this build's core
//            (the source, verifyWebhook, webhookEvents, hub.publish), no guard, no routing.
// A sender process (sender.ts) POSTs and times each answer: one at a time, the ways taking turns
// request by request, so a slow stretch of the machine falls on all of them alike; then 32 at a time
// for throughput, the ways taking turns in rounds, with this process's CPU time per request (what a
// busy machine's noise distorts least). BENCH_ROUTER_N and BENCH_ROUTER_THROUGHPUT_N shorten a run; BENCH_ROUTER_ROUNDS (10) cuts the flood into more turns, which a machine busy with other work needs;
// BENCH_ROUTER_WAYS picks some of the ways.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { pino } from 'pino'
import type { HubConfig } from '../../src/core/config.js'
import type { Logger } from '../../src/core/log.js'
import type { Store } from '../../src/store/store.js'
import { freePort } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'
import { type SenderKind, senderKinds } from './sender.js'
import { startSender } from './sender-process.js'

/**
 * This build as `switchboard serve` runs it: compiled by tsc into dist/ (npm run build), as the
 * build before is. Through tsx, every closure a request makes would also pay its __name helper.
 */
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))
const fromDist = <T>(path: string) => import(pathToFileURL(join(DIST, path)).href) as Promise<T>
const [
  { dialHost, loadConfig },
  { isDomainError, notFound },
  { isReservedSource },
  { assemble },
  { Hub },
  { LeaseKeeper },
  { createApp },
  { STATUS_OF_KIND },
  { requestListener },
  { readBody },
  { SourceCache },
  { verifyWebhook, webhookEvents },
  { openStore },
  { openSqliteStore },
] = await Promise.all([
  fromDist<typeof import('../../src/core/config.js')>('core/config.js'),
  fromDist<typeof import('../../src/core/errors.js')>('core/errors.js'),
  fromDist<typeof import('../../src/core/sources.js')>('core/sources.js'),
  fromDist<typeof import('../../src/hub/assemble.js')>('hub/assemble.js'),
  fromDist<typeof import('../../src/hub/core/hub.js')>('hub/core/hub.js'),
  fromDist<typeof import('../../src/hub/core/lease-keeper.js')>('hub/core/lease-keeper.js'),
  fromDist<typeof import('../../src/hub/http/app.js')>('hub/http/app.js'),
  fromDist<typeof import('../../src/hub/http/errors.js')>('hub/http/errors.js'),
  fromDist<typeof import('../../src/hub/http/node.js')>('hub/http/node.js'),
  fromDist<typeof import('../../src/hub/http/node-io.js')>('hub/http/node-io.js'),
  fromDist<typeof import('../../src/hub/http/source-cache.js')>('hub/http/source-cache.js'),
  fromDist<typeof import('../../src/sources/webhook/index.js')>('sources/webhook/index.js'),
  fromDist<typeof import('../../src/store/open.js')>('store/open.js'),
  fromDist<typeof import('../../src/store/sqlite/index.js')>('store/sqlite/index.js'),
])

const N = Number(process.env.BENCH_ROUTER_N ?? 10000)
const ROUNDS = Number(process.env.BENCH_ROUTER_ROUNDS ?? 10)
const WARMUP = 500
const THROUGHPUT_N = Number(process.env.BENCH_ROUTER_THROUGHPUT_N ?? 20000)
const IN_FLIGHT = 32
const SECRET = 'whsec_router_bench'
const BEFORE_DIST = process.env.BENCH_BEFORE_DIST || null
/** BENCH_ROUTER_WAYS=app (say) serves only those ways: a CPU profile (node --cpu-prof) of one alone. */
const WAYS = process.env.BENCH_ROUTER_WAYS?.split(',') ?? null
const wanted = (way: string) => WAYS === null || WAYS.includes(way)

type Handler = (req: IncomingMessage, res: ServerResponse) => void
interface Way {
  name: string
  url: string
  close(): Promise<void>
}

const dir = mkdtempSync(join(tmpdir(), 'switchboard-router-bench-'))
const log: Logger = pino({ level: 'warn' })
const source = { name: 'bench', topic: 'bench', secret: SECRET, deliveryHeader: null }

async function listen(server: Server, port: number, host: string): Promise<number> {
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return (server.address() as AddressInfo).port
}

async function shut(server: Server): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve))
  server.closeAllConnections()
  await closed
}

/** What a build of the one app exports and this bench uses of it: this one, or another (`before`). */
interface AppBuild {
  openStore: typeof openStore
  assemble: typeof assemble
  createApp: typeof createApp
  requestListener: typeof requestListener
}

/** The one app of a build, put together as startHub does it (src/hub/server.ts). */
async function serveApp(build: AppBuild, config: HubConfig, name = 'app'): Promise<Way> {
  if (config.databaseUrl)
    throw new Error('bench:router compares SQLite stores: unset SWITCHBOARD_DATABASE_URL')
  const store = await build.openStore(config, { checkpoints: 'worker' })
  await store.addSource(source)
  const parts = build.assemble(config, store, log, null)
  const server = createServer(build.requestListener(build.createApp(parts), false, log))
  parts.listening(await listen(server, config.port, config.host))
  return {
    name,
    url: `http://${dialHost(config.host)}:${config.port}/hooks/bench`,
    async close() {
      await shut(server)
      parts.streams.closeAll()
      await store.close()
    },
  }
}

/** What the build before issue 21 exports and this bench uses of it. */
type BeforeRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>
interface BeforeStore {
  addSource(s: typeof source): Promise<unknown>
  close(): Promise<void>
}
interface BeforeBuild {
  createRoutes(
    hub: unknown,
    streams: unknown,
    maxBodyBytes: number,
    adminToken: string,
  ): { webhook: BeforeRoute }
  requestUrl(req: IncomingMessage): URL
  checkHostAndOrigin(
    req: IncomingMessage,
    rules: { bound: string; port: number; allowedHosts: string[] },
  ): void
  sendError(res: ServerResponse, err: unknown): void
  SenderStreams: new (
    store: BeforeStore,
  ) => { show(item: unknown): Promise<void>; catchUp(): void; closeAll(): void }
  /** Two arguments in that build: the leases were set on it later, by startHub. */
  Hub: new (
    store: BeforeStore,
    log: Logger,
  ) => { outbox: { listen(f: (item: unknown) => Promise<undefined>): void; onCatchUp(f: () => void): void } }
  openSqliteStore(file: string, options: { checkpoints: 'worker' }): BeforeStore
  HttpError: abstract new (...args: never[]) => Error
  FORWARDED: string
}

async function loadBefore(dist: string): Promise<BeforeBuild> {
  const from = (path: string) => import(pathToFileURL(join(dist, path)).href) as Promise<object>
  const modules = await Promise.all(
    [
      'hub/transport/routes.js',
      'hub/transport/request-guard.js',
      'hub/transport/http-util.js',
      'hub/transport/sender-streams.js',
      'hub/transport/forward.js',
      'hub/core/hub.js',
      'store/sqlite/index.js',
      'core/errors.js',
    ].map(from),
  )
  return Object.assign({}, ...modules) as BeforeBuild
}

/** The build before issue 21: what its server.ts did with a webhook over TCP (serve, then dispatch). */
async function serveBefore(dist: string, config: HubConfig): Promise<Way> {
  const b = await loadBefore(dist)
  const store = b.openSqliteStore(join(dir, 'before.db'), { checkpoints: 'worker' })
  await store.addSource(source)
  const hub = new b.Hub(store, log)
  const streams = new b.SenderStreams(store)
  hub.outbox.listen(async (item) => {
    await streams.show(item)
    return undefined
  })
  hub.outbox.onCatchUp(() => streams.catchUp())
  const routes = b.createRoutes(hub, streams, config.maxBodyBytes, 'admin-token-unused')
  const port = await freePort()
  const rules = { bound: config.host, port, allowedHosts: config.allowedHosts }
  const isDashboard = (path: string) =>
    ['/', '/signin', '/favicon.ico', '/openapi.json'].includes(path) || /^\/(api|assets)\//.test(path)
  const failing = (req: IncomingMessage, res: ServerResponse, path: string) => (err: unknown) => {
    if (!(err instanceof b.HttpError)) log.error({ err, path }, 'request failed')
    req.resume()
    b.sendError(res, err)
  }
  const serve: Handler = (req, res) => {
    let fail = failing(req, res, '(unparsed)')
    try {
      const url = b.requestUrl(req)
      fail = failing(req, res, url.pathname)
      b.checkHostAndOrigin(req, rules)
      // Passed on by another hub, or a session another hub runs: neither here (one hub, on SQLite).
      if (req.headers[b.FORWARDED] !== undefined) throw new Error('no request is passed on in this bench')
      const methods = url.pathname.startsWith('/hooks/') ? { POST: routes.webhook } : undefined
      const isSessions = url.pathname === '/sessions' || url.pathname.startsWith('/sessions/')
      const isAdmin = /^\/(peers|dead-letters|subscriptions|hook|status|web-links|decisions)(\/|$)/.test(
        url.pathname,
      )
      const route = isDashboard(url.pathname) || isSessions || isAdmin ? undefined : methods?.POST
      if (!route || req.method !== 'POST') throw new Error(`not in this bench: ${req.method} ${url.pathname}`)
      route(req, res, url).catch(fail)
    } catch (err) {
      fail(err)
    }
  }
  const server = createServer(serve)
  await listen(server, port, config.host)
  return {
    name: 'before',
    url: `http://${dialHost(config.host)}:${port}/hooks/bench`,
    async close() {
      await shut(server)
      streams.closeAll()
      await store.close()
    },
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** The floor: the webhook's own work on this build's core, reached without a guard or a router. */
async function serveBare(config: HubConfig): Promise<Way> {
  const store: Store = openSqliteStore(join(dir, 'bare.db'), { checkpoints: 'worker' })
  await store.addSource(source)
  const hub = new Hub(store, log, new LeaseKeeper(store, 'bench-bare', log, () => null, config.leaseMs))
  const sources = new SourceCache(store)
  const fail = (req: IncomingMessage, res: ServerResponse) => (err: unknown) => {
    req.resume()
    if (isDomainError(err)) sendJson(res, STATUS_OF_KIND[err.kind], { error: err.message, kind: err.kind })
    else sendJson(res, 500, { error: String(err) })
  }
  const webhook = async (req: IncomingMessage, res: ServerResponse) => {
    const reading = readBody(req, config.maxBodyBytes)
    const target = req.url ?? '/'
    const name = target.slice('/hooks/'.length).split('?', 1)[0] ?? ''
    const found = isReservedSource(name) ? null : (sources.cached(name) ?? (await sources.get(name)))
    if (!found) throw notFound(`unknown source "${name}"`)
    const body = await reading
    const query = new URL(target, 'http://hub').searchParams
    const outcome = webhookEvents(found, req.headers, body, query, verifyWebhook(found, req.headers, body))
    if ('ignored' in outcome) return sendJson(res, 200, { events: [], ignored: outcome.ignored })
    const results = await Promise.all(outcome.events.map((event) => hub.publish(event)))
    const [only] = results
    if (results.length === 1 && only)
      return sendJson(res, only.duplicate ? 200 : 202, { id: only.event.id, duplicate: only.duplicate })
    sendJson(res, 202, { events: results.map((r) => ({ id: r.event.id, duplicate: r.duplicate })) })
  }
  const server = createServer((req, res) => void webhook(req, res).catch(fail(req, res)))
  const port = await listen(server, 0, config.host)
  return {
    name: 'bare',
    url: `http://${dialHost(config.host)}:${port}/hooks/bench`,
    async close() {
      await shut(server)
      await store.close()
    },
  }
}

/** Another build of the one app, from its dist, with a home and a port of its own. */
async function serveAppBefore(dist: string): Promise<Way> {
  const from = <T>(path: string) => import(pathToFileURL(join(dist, path)).href) as Promise<T>
  const [config, store, assembly, app, node] = await Promise.all([
    from<typeof import('../../src/core/config.js')>('core/config.js'),
    from<typeof import('../../src/store/open.js')>('store/open.js'),
    from<typeof import('../../src/hub/assemble.js')>('hub/assemble.js'),
    from<typeof import('../../src/hub/http/app.js')>('hub/http/app.js'),
    from<typeof import('../../src/hub/http/node.js')>('hub/http/node.js'),
  ])
  const build = { ...store, ...assembly, ...app, ...node }
  const home = join(dir, 'home-before')
  return serveApp(build, config.loadConfig({ home, port: String(await freePort()) }), 'before')
}

const config = loadConfig({ home: join(dir, 'home'), port: String(await freePort()) })
const ways: Way[] = []
if (wanted('app')) ways.push(await serveApp({ openStore, assemble, createApp, requestListener }, config))
if (BEFORE_DIST && wanted('before'))
  ways.push(
    await (existsSync(join(BEFORE_DIST, 'hub/http/app.js'))
      ? serveAppBefore(BEFORE_DIST)
      : serveBefore(BEFORE_DIST, config)),
  )
if (wanted('bare')) ways.push(await serveBare(config))
const names = ways.map((w) => w.name)

const sender = startSender()
const target = (way: Way) => ({
  url: way.url,
  headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'text/plain' },
})
/** `count` POSTs to each way, request by request in turn: each way's times to its answer. */
const time = async (kind: SenderKind, count: number, tag: string) =>
  (await sender.ask({ op: 'time', kind, targets: ways.map(target), prefix: `${tag}-`, count })).samples ?? []

console.log(
  `bench/delivery/router — webhook POST → 202 (after the commit), served ${ways.length} ways in one process, ` +
    `a SQLite store each (${N} sequential per way after ${WARMUP} warm-up, the ways in turn request by ` +
    `request; ${THROUGHPUT_N} with ${IN_FLIGHT} in flight, in ${ROUNDS} alternating rounds)`,
)
if (!BEFORE_DIST)
  console.log(
    '  (no `before`: set BENCH_BEFORE_DIST to the dist of another build, e.g. a checkout of main, or of ' +
      '429b697 (before issue 21), after npm run build: BENCH_BEFORE_DIST=/path/to/it/dist npm run bench:router)',
  )
try {
  for (const kind of senderKinds) {
    await time(kind, WARMUP, `${kind}-warm`)
    const samples = await time(kind, N, `${kind}-latency`)
    const seconds = new Map<string, number>(names.map((n) => [n, 0]))
    /** This process's CPU time (µs) while each way was flooded: its cost per request, whatever the load. */
    const cpu = new Map<string, number>(names.map((n) => [n, 0]))
    for (let round = 0; round < ROUNDS; round++)
      for (const way of ways) {
        const started = process.hrtime.bigint()
        const used = process.cpuUsage()
        await sender.ask({
          op: 'flood',
          kind,
          target: target(way),
          prefix: `${kind}-tp-${round}-${way.name}-`,
          count: THROUGHPUT_N / ROUNDS,
          inFlight: IN_FLIGHT,
        })
        seconds.set(way.name, (seconds.get(way.name) ?? 0) + Number(process.hrtime.bigint() - started) / 1e9)
        const { user, system } = process.cpuUsage(used)
        cpu.set(way.name, (cpu.get(way.name) ?? 0) + user + system)
      }
    const rows = new Map(
      names.map((name, i) => [
        name,
        {
          name,
          ...summarize(samples[i] ?? []),
          perSecond: THROUGHPUT_N / (seconds.get(name) ?? Number.NaN),
          cpuPerRequest: (cpu.get(name) ?? Number.NaN) / THROUGHPUT_N,
        },
      ]),
    )
    console.log(`\nsender: ${kind === 'http' ? 'node:http keep-alive agent' : 'fetch'}`)
    for (const r of rows.values())
      console.log(
        `  ${r.name.padEnd(8)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  ${fmt(r.perSecond, 0).padStart(6)} requests/s  ` +
          `${fmt(r.cpuPerRequest, 1).padStart(6)} µs CPU/request`,
      )
    const app = rows.get('app')
    for (const base of [rows.get('before'), rows.get('bare')]) {
      if (!app || !base) continue
      console.log(
        `  ${`app / ${base.name}`.padEnd(14)} p50 ${fmt(app.p50 / base.p50, 3)}x (${fmt((app.p50 - base.p50) * 1000, 1)} µs)  ` +
          `p99 ${fmt(app.p99 / base.p99, 3)}x  throughput ${fmt(app.perSecond / base.perSecond, 3)}x  ` +
          `CPU/request ${fmt(app.cpuPerRequest / base.cpuPerRequest, 3)}x (${fmt(app.cpuPerRequest - base.cpuPerRequest, 1)} µs)`,
      )
    }
  }
} finally {
  sender.stop()
  await Promise.all(ways.map((w) => w.close()))
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
