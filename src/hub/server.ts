// `switchboard serve`: binds the HTTP API and the hub socket, and owns the store for its lifetime.

import { chmodSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { SessionManager } from '../claude/session-manager.js'
import { type HubConfig, MAX_SOCKET_PATH, paths } from '../core/config.js'
import { HttpError } from '../core/errors.js'
import { HUB_PATH } from '../core/hub-protocol.js'
import { safeEqual } from '../core/ids.js'
import type { Logger } from '../core/log.js'
import type { Store } from '../store/store.js'
import { createAdminRoutes } from './admin-routes.js'
import { readAdminToken } from './admin-token.js'
import { bearerToken, sendError } from './http-util.js'
import { Hub } from './hub.js'
import { handleHubSocket } from './hub-socket.js'
import { OutboundWebhooks } from './outbound.js'
import { createRoutes, type Route } from './routes.js'
import { createSessionRoutes } from './session-routes.js'

const SWEEP_MS = 60_000

export interface RunningHub {
  hub: Hub
  sessions: SessionManager
  server: Server
  port: number
  close(): Promise<void>
}

export async function startHub(config: HubConfig, store: Store, log: Logger): Promise<RunningHub> {
  const hub = new Hub(store, log)
  const adminToken = readAdminToken(config.home)
  const routes = createRoutes(hub, config.maxBodyBytes)
  const sessions = new SessionManager(store, hub, log)
  const sessionRoutes = createSessionRoutes(sessions)
  /** Driving sessions runs commands on this machine: only local processes holding the admin token may. */
  const adminOnly =
    (route: Route): Route =>
    async (req, res, url) => {
      const token = bearerToken(req, url)
      if (!token || !safeEqual(token, adminToken)) {
        req.resume()
        throw new HttpError(401, 'this API needs the admin token (Authorization: Bearer <home>/admin-token)')
      }
      return route(req, res, url)
    }
  const sessionApi = adminOnly(sessionRoutes)
  const outbound = new OutboundWebhooks(hub, log)
  const adminApi = adminOnly(createAdminRoutes(hub, outbound))

  const table: Record<string, Partial<Record<string, Route>>> = {
    '/health': { GET: routes.health },
    '/messages': { POST: routes.message },
    '/events': { GET: routes.events },
    '/pair': { POST: routes.pair },
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub')
    const methods = url.pathname.startsWith('/hooks/') ? { POST: routes.webhook } : table[url.pathname]
    const isSessions = url.pathname === '/sessions' || url.pathname.startsWith('/sessions/')
    const isAdmin = /^\/(peers|dead-letters|subscriptions|hook)(\/|$)/.test(url.pathname)
    const route = isSessions ? sessionApi : isAdmin ? adminApi : methods?.[req.method ?? 'GET']
    const run: Route = route
      ? route
      : async () => {
          req.resume()
          throw methods
            ? new HttpError(405, `${req.method} is not allowed on ${url.pathname}`)
            : new HttpError(404, `no such path: ${url.pathname}`)
        }
    run(req, res, url).catch((err) => {
      if (!(err instanceof HttpError)) log.error({ err, path: url.pathname }, 'request failed')
      sendError(res, err)
    })
  })
  server.keepAliveTimeout = 65_000

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 })
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://hub')
    const token = bearerToken(req, url)
    // A CLI on the --sdk-url transport, with the token of the one session it was started for.
    if (url.pathname.startsWith('/sdk/')) {
      const connect = sessions.sdkConnection(decodeURIComponent(url.pathname.slice(5)), token)
      if (!connect) socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n')
      else wss.handleUpgrade(req, socket, head, connect)
      return
    }
    if (url.pathname !== HUB_PATH || !token || !safeEqual(token, adminToken)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => handleHubSocket(hub, ws, req))
  }
  server.on('upgrade', onUpgrade)

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  sessions.listeningOn(config.host, port)
  await outbound.start()
  await sessions.restore()
  // The TCP port is the lock: only the hub that bound it gets to the socket, so a leftover file is stale.
  const socketPath = paths.hubSocket(config.home, port)
  const local = createServer((_req, res) => res.writeHead(404).end())
  local.on('upgrade', onUpgrade)
  if (socketPath.length <= MAX_SOCKET_PATH) {
    rmSync(socketPath, { force: true })
    await new Promise<void>((resolve) => local.listen(socketPath, resolve))
    chmodSync(socketPath, 0o600)
  }

  writeFileSync(paths.hubInfo(config.home), JSON.stringify({ pid: process.pid, port, host: config.host }), {
    mode: 0o600,
  })
  log.info({ port, host: config.host, home: config.home }, 'hub listening')

  const sweep = setInterval(() => {
    hub.access.dropExpiredPairings().catch((err) => log.error({ err }, 'sweep failed'))
  }, SWEEP_MS)
  sweep.unref()

  return {
    hub,
    server,
    port,
    sessions,
    async close() {
      clearInterval(sweep)
      await sessions.stopAll()
      hub.streams.closeAll()
      for (const ws of wss.clients) ws.terminate()
      local.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      rmSync(paths.hubInfo(config.home), { force: true })
      await store.close()
    },
  }
}
