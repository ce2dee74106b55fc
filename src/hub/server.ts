// `switchboard serve`: binds the HTTP API and the hub socket, and owns the store for its lifetime.

import { chmodSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createSecureServer } from 'node:https'
import type { Server as NetServer } from 'node:net'
import type { Duplex } from 'node:stream'
import { getRequestListener } from '@hono/node-server'
import { WebSocketServer } from 'ws'
import { claudeEnv } from '../claude/env.js'
import { readAdminToken } from '../core/admin-token.js'
import { dialHost, type HubConfig, MAX_SOCKET_PATH, paths } from '../core/config.js'
import { HttpError } from '../core/errors.js'
import { pinText } from '../core/fingerprint.js'
import { isLoopback } from '../core/hub-dial.js'
import { HUB_PATH, type HubStatus } from '../core/hub-protocol.js'
import { safeEqual } from '../core/ids.js'
import type { Logger } from '../core/log.js'
import { reachableAt } from '../core/network.js'
import { VERSION } from '../core/version.js'
import type { Store } from '../store/store.js'
import { BridgeManager } from './bridges/manager.js'
import { Hub } from './core/hub.js'
import { readHubId } from './core/hub-id.js'
import { clusterHubs, LeaseKeeper } from './core/lease-keeper.js'
import { followOtherHubs } from './core/other-hubs.js'
import { OutboundWebhooks } from './core/outbound.js'
import { startRetention } from './core/retention.js'
import { SessionManager } from './sessions/session-manager.js'
import { createAdminRoutes } from './transport/admin-routes.js'
import { FORWARDED, type Forwarding, sessionOfPath } from './transport/forward.js'
import { frontDoor } from './transport/front-door.js'
import { bearerToken, sendError } from './transport/http-util.js'
import { handleHubSocket } from './transport/hub-socket.js'
import { passingOn } from './transport/pass-on.js'
import { checkHostAndOrigin, type HostRules, pathSegment, requestUrl } from './transport/request-guard.js'
import { createRoutes, type Route } from './transport/routes.js'
import { SenderStreams } from './transport/sender-streams.js'
import { createSessionRoutes } from './transport/session-routes.js'
import { hubTls } from './transport/tls.js'
import { createDashboard } from './web/app.js'

const SWEEP_MS = 60_000
const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden' }

/** Where this process's logs go: the logFile setting, or the file stderr was opened on (autostart). */
function logDestination(config: HubConfig): string {
  if (config.logFile) return config.logFile
  try {
    const target = readlinkSync('/proc/self/fd/2')
    return target.startsWith('/') && !target.startsWith('/dev/') ? target : 'stderr'
  } catch {
    return 'stderr'
  }
}

/** Paths the dashboard answers: the page and its files, the sign-in link, its API. */
function isDashboard(path: string): boolean {
  return ['/', '/signin', '/favicon.ico', '/openapi.json'].includes(path) || /^\/(api|assets)\//.test(path)
}

/** Ends an upgrade the hub will not take, with a status and nothing more. */
function refuse(socket: Duplex, status: number): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  )
}

export interface RunningHub {
  hub: Hub
  sessions: SessionManager
  /** The TCP port's listener: the HTTP server, or the front door to HTTP and HTTPS (transport/front-door.ts). */
  server: NetServer
  port: number
  /** SHA-256 of the certificate it speaks TLS with; null: plain HTTP. */
  fingerprint: string | null
  /** Where other machines reach it, its certificate pinned (as SWITCHBOARD_HUBS names it). */
  address: string
  close(): Promise<void>
}

export async function startHub(config: HubConfig, store: Store, log: Logger): Promise<RunningHub> {
  // Before anything starts: a certificate that cannot be read stops the hub here, in one line.
  const tls = hubTls(config)
  const hub = new Hub(store, log)
  const adminToken = readAdminToken(config)
  const streams = new SenderStreams(store)
  hub.outbox.listen(async (item) => {
    await streams.show(item)
    return undefined
  })
  hub.outbox.onCatchUp(() => streams.catchUp())
  const routes = createRoutes(hub, streams, config.maxBodyBytes, adminToken)
  const sessions = new SessionManager(
    store,
    hub,
    log,
    adminToken,
    { env: claudeEnv(process.env, config) },
    config.sessionIdleMinutes,
  )
  const bridges = new BridgeManager(hub, sessions, config.home, log)
  const sessionRoutes = createSessionRoutes(sessions)
  const inClear = !tls && !isLoopback(config.host)
  const forwarding: Forwarding = {
    key: adminToken,
    get hubId() {
      return hub.leases?.hubId ?? ''
    },
    inClear,
    maxBodyBytes: 16 * 1024 * 1024,
  }
  const passOn = passingOn(store, forwarding, {
    // The dashboard's own check, on its own credential, whatever that is.
    browser: async (req) => {
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !['host', 'content-length', 'transfer-encoding'].includes(name))
          headers.set(name, value)
      const me = await dashboard.app.fetch(new Request('http://hub/api/me', { headers }))
      const name = me.ok ? ((await me.json()) as { name?: unknown }).name : undefined
      return typeof name === 'string' ? name : null
    },
    standIn: (browser) => {
      const standIn = dashboard.signin.standIn(browser)
      return { headers: [['authorization', `Bearer ${standIn.credential}`]], release: standIn.release }
    },
  })
  /** Driving sessions runs commands on this machine: only local processes holding the admin token may. */
  const adminOnly =
    (route: Route): Route =>
    async (req, res, url) => {
      passOn.requireAdmin(req)
      return route(req, res, url)
    }
  const sessionApi = adminOnly(sessionRoutes)
  const outbound = new OutboundWebhooks(hub, log)
  const startedAt = Date.now()
  const logFile = logDestination(config)
  /** The Unix socket this hub listens on, once it does. */
  let listeningSocket: string | null = null
  const status = async (): Promise<HubStatus> => {
    const subscribers = new Map((await store.listSubscribers()).map((s) => [s.name, s.pending]))
    return {
      version: VERSION,
      pid: process.pid,
      home: config.home,
      host: config.host,
      port,
      socket: listeningSocket,
      logFile,
      startedAt,
      connected: [...hub.connections.keys()]
        .sort()
        .map((name) => ({ name, pending: subscribers.get(name) ?? 0 })),
      bridges: bridges.status(),
      operators: await store.countOperators(),
      // A sign-in link not yet used waits for no one.
      openDecisions: (await store.listDecisions({ status: 'open' })).filter((d) => d.kind !== 'signin')
        .length,
      liveSessions: sessions.liveCount(),
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      hubs: await clusterHubs(store, hub.leases?.hubId ?? ''),
      fingerprint: tls?.fingerprint ?? null,
      inClear,
    }
  }
  const dashboard = createDashboard(hub, sessions, log, () => status())
  const dashboardListener = getRequestListener(dashboard.app.fetch)
  const adminApi = adminOnly(
    createAdminRoutes(hub, outbound, status, async () => {
      const { token, expiresAt } = await dashboard.signin.createLink()
      return { url: `http://${dialHost(config.host)}:${port}/signin?token=${token}`, expiresAt }
    }),
  )

  const table: Record<string, Partial<Record<string, Route>>> = {
    '/health': { GET: routes.health },
    '/messages': { POST: routes.message },
    '/events': { GET: routes.events },
    '/pair': { POST: routes.pair },
  }
  let port = config.port
  const hostRules = (): HostRules => ({ bound: config.host, port, allowedHosts: config.allowedHosts })
  const sharedStore = store.onOtherChanges !== undefined

  /** What a request that failed is answered; an error no one expected is logged. */
  const failing = (req: IncomingMessage, res: ServerResponse, path: string) => (err: unknown) => {
    if (!(err instanceof HttpError)) log.error({ err, path }, 'request failed')
    req.resume()
    sendError(res, err)
  }
  /** Every request, over TCP or the Unix socket; nothing it holds can throw past here. */
  const serve = (req: IncomingMessage, res: ServerResponse, overTcp: boolean) => {
    let fail = failing(req, res, '(unparsed)')
    try {
      const url = requestUrl(req)
      fail = failing(req, res, url.pathname)
      // The Unix socket is reachable only through the home folder's permissions: no browser gets there.
      if (overTcp) checkHostAndOrigin(req, hostRules())
      const here = (r: IncomingMessage, s: ServerResponse) => dispatch(r, s, url, overTcp)
      if (req.headers[FORWARDED] !== undefined) {
        passOn.passedOn(req, res, here).catch(fail)
        return
      }
      const sessionId = sharedStore ? sessionOfPath(url.pathname) : null
      if (sessionId && hub.leases && (overTcp || !url.pathname.startsWith('/api/'))) {
        // Another hub on the database may run this session: then that hub answers.
        passOn.elsewhereOrHere(req, res, url.pathname, sessionId, here).catch(fail)
        return
      }
      dispatch(req, res, url, overTcp)
    } catch (err) {
      fail(err)
    }
  }
  /** Hands a request to the dashboard or to the route its path names. */
  const dispatch = (req: IncomingMessage, res: ServerResponse, url: URL, overTcp: boolean) => {
    const fail = failing(req, res, url.pathname)
    try {
      const methods = url.pathname.startsWith('/hooks/') ? { POST: routes.webhook } : table[url.pathname]
      const isSessions = url.pathname === '/sessions' || url.pathname.startsWith('/sessions/')
      const isAdmin = /^\/(peers|dead-letters|subscriptions|hook|status|web-links|decisions)(\/|$)/.test(
        url.pathname,
      )
      // The dashboard (page, sign-in, its API) is Hono's; the hot paths above stay on this table.
      if (overTcp && isDashboard(url.pathname)) {
        dashboardListener(req, res).catch(fail)
        return
      }
      const route = isSessions ? sessionApi : isAdmin ? adminApi : methods?.[req.method ?? 'GET']
      if (!route)
        throw methods
          ? new HttpError(405, `${req.method} is not allowed on ${url.pathname}`)
          : new HttpError(404, `no such path: ${url.pathname}`)
      route(req, res, url).catch(fail)
    } catch (err) {
      fail(err)
    }
  }
  const plain = createServer((req, res) => serve(req, res, true))
  const secure =
    tls && createSecureServer({ cert: tls.cert, key: tls.key }, (req, res) => serve(req, res, true))
  const servers: Server[] = secure ? [plain, secure] : [plain]
  for (const s of servers) s.keepAliveTimeout = 65_000
  const door = secure && frontDoor(plain, secure)
  const server: NetServer = door ? door.server : plain

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 })
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, overTcp: boolean) => {
    socket.on('error', (err) => log.debug({ err: err.message }, 'upgrade socket error'))
    try {
      const url = requestUrl(req)
      if (overTcp) checkHostAndOrigin(req, hostRules())
      const token = bearerToken(req)
      // A CLI on the --sdk-url transport, with the token of the one session it was started for.
      if (url.pathname.startsWith('/sdk/')) {
        const connect = sessions.sdkConnection(pathSegment(url.pathname.slice(5)), token)
        if (!connect) refuse(socket, 401)
        else wss.handleUpgrade(req, socket, head, connect)
        return
      }
      if (url.pathname !== HUB_PATH || !token || !safeEqual(token, adminToken)) return refuse(socket, 401)
      wss.handleUpgrade(req, socket, head, (ws) => handleHubSocket(hub, ws, req))
    } catch (err) {
      if (!(err instanceof HttpError)) log.error({ err }, 'upgrade failed')
      refuse(socket, err instanceof HttpError ? err.status : 500)
    }
  }
  for (const s of servers) s.on('upgrade', (req, socket, head) => onUpgrade(req, socket, head, true))

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  if (typeof address === 'object' && address) port = address.port
  sessions.listeningOn(config.host, port)
  // What one hub at a time does, on whichever of the hubs on this database holds its lease.
  // The other hubs pin the certificate named with the address, once this hub has proved itself on it.
  const advertised = () =>
    `${config.advertise ?? reachableAt(config.host, port)}${tls ? `#${pinText(tls.fingerprint)}` : ''}`
  const leases = new LeaseKeeper(store, readHubId(config.home), log, advertised, config.leaseMs)
  hub.leases = leases
  leases.source(outbound.work())
  leases.source(sessions.work())
  leases.exclusive('bridges', { start: () => bridges.start(), stop: () => bridges.stop() })
  let retention: { stop(): void } | null = null
  leases.exclusive('retention', {
    start: async () => {
      retention = startRetention(store, config.retentionDays, log)
    },
    stop: async () => retention?.stop(),
  })
  await leases.start()
  // The TCP port is the lock: only the hub that bound it gets to the socket, so a leftover file is stale.
  const socketPath = paths.hubSocket(config.home, port)
  const local = createServer((req, res) => serve(req, res, false))
  local.on('upgrade', (req, socket, head) => onUpgrade(req, socket, head, false))
  if (socketPath.length <= MAX_SOCKET_PATH) {
    rmSync(socketPath, { force: true })
    await new Promise<void>((resolve) => local.listen(socketPath, resolve))
    chmodSync(socketPath, 0o600)
    listeningSocket = socketPath
  }

  const info = { pid: process.pid, port, host: config.host, fingerprint: tls?.fingerprint }
  writeFileSync(paths.hubInfo(config.home), JSON.stringify(info), { mode: 0o600 })
  chmodSync(paths.hubInfo(config.home), 0o600)
  log.info(
    { port, host: config.host, home: config.home, ...(tls ? { tls: pinText(tls.fingerprint) } : {}) },
    'hub listening',
  )
  if (inClear)
    log.warn(
      { host: config.host, port },
      'plain HTTP beyond loopback (--insecure): anyone on the network can read and change what passes',
    )

  const sweep = setInterval(() => {
    hub.access.dropExpiredPairings().catch((err) => log.error({ err }, 'sweep failed'))
    store.dropExpiredSenders(Date.now()).catch((err) => log.error({ err }, 'sweep failed'))
  }, SWEEP_MS)
  sweep.unref()
  const otherHubs = followOtherHubs(hub, log)

  return {
    hub,
    server,
    port,
    fingerprint: tls?.fingerprint ?? null,
    address: advertised(),
    sessions,
    async close() {
      clearInterval(sweep)
      otherHubs.stop()
      await sessions.stopAll()
      await leases.stop()
      streams.closeAll()
      for (const ws of wss.clients) ws.terminate()
      local.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const s of servers) s.closeAllConnections()
      if (door) door.closeAll()
      await closed
      rmSync(paths.hubInfo(config.home), { force: true })
      await store.close()
    },
  }
}
