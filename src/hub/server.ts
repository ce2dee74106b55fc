// `switchboard serve`: puts the hub together (assemble.ts), serves the one app (hub/http) on its TCP
// port (TLS beyond loopback) and on the home's Unix socket, and owns the store for its lifetime.
import { chmodSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createServer as createSecureServer } from 'node:https'
import type { Server as NetServer } from 'node:net'
import { type HubConfig, MAX_SOCKET_PATH, paths } from '../core/config.js'
import { pinText } from '../core/fingerprint.js'
import type { Logger } from '../core/log.js'
import { replacePrivateFile } from '../core/private-file.js'
import type { Settings } from '../core/settings/table.js'
import type { Store } from '../store/store.js'
import { assemble } from './assemble.js'
import type { Hub } from './core/hub.js'
import { createApp } from './http/app.js'
import { requestListener, upgradeListener } from './http/node.js'
import { frontDoor } from './net/front-door.js'
import { hubTls } from './net/tls.js'
import type { SessionManager } from './sessions/session-manager.js'

export interface RunningHub {
  hub: Hub
  sessions: SessionManager
  /** The TCP port's listener: the HTTP server, or the front door to HTTP and HTTPS (net/front-door.ts). */
  server: NetServer
  port: number
  /** SHA-256 of the certificate it speaks TLS with; null: plain HTTP. */
  fingerprint: string | null
  /** Where other machines reach it, its certificate pinned (as SWITCHBOARD_HUBS names it). */
  address: string
  close(): Promise<void>
}

/** What startHub throws when `unwanted` gives a reason once the port is held: nothing else started. */
export class HubUnwanted extends Error {}

export async function startHub(
  config: HubConfig,
  store: Store,
  log: Logger,
  /** Asked once the port is held, before anything runs: a reason not to serve after all, or null. */
  unwanted: () => string | null = () => null,
  /** The settings as they were resolved, before `serve` chose its own (a log file at a terminal). */
  resolved: Settings = config,
): Promise<RunningHub> {
  // Before anything starts: a certificate that cannot be read stops the hub here, in one line.
  const tls = hubTls(config)
  const parts = assemble(config, store, log, tls, resolved)
  const app = createApp(parts)

  const plain = createServer(requestListener(app, false, log))
  const secure = tls && createSecureServer({ cert: tls.cert, key: tls.key }, requestListener(app, false, log))
  const servers: Server[] = secure ? [plain, secure] : [plain]
  for (const s of servers) {
    s.keepAliveTimeout = 65_000
    s.on('upgrade', upgradeListener(app, false, log))
  }
  const door = secure && frontDoor(plain, secure)
  const server: NetServer = door ? door.server : plain
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const refusal = unwanted()
  if (refusal) {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    throw new HubUnwanted(refusal)
  }
  const bound = server.address()
  const port = typeof bound === 'object' && bound ? bound.port : config.port
  parts.listening(port)
  await parts.hub.leases.start()

  // The TCP port is the lock: only the hub that bound it gets to the socket, so a leftover file is stale.
  const socketPath = paths.hubSocket(config.home, port)
  const local = createServer(requestListener(app, true, log))
  local.on('upgrade', upgradeListener(app, true, log))
  if (socketPath.length <= MAX_SOCKET_PATH) {
    rmSync(socketPath, { force: true })
    await new Promise<void>((resolve) => local.listen(socketPath, resolve))
    chmodSync(socketPath, 0o600)
    parts.listeningOnSocket(socketPath)
  }

  const info = { pid: process.pid, port, host: config.host, fingerprint: tls?.fingerprint }
  // Whole or not at all: the CLI and the channels read it while a hub starts.
  replacePrivateFile(paths.hubInfo(config.home), JSON.stringify(info))
  log.info(
    { port, host: config.host, home: config.home, ...(tls ? { tls: pinText(tls.fingerprint) } : {}) },
    'hub listening',
  )
  if (parts.forwarding.inClear)
    log.warn(
      { host: config.host, port },
      'plain HTTP beyond loopback (--insecure): anyone on the network can read and change what passes',
    )
  const background = parts.startBackground()

  return {
    hub: parts.hub,
    sessions: parts.sessions,
    server,
    port,
    fingerprint: tls?.fingerprint ?? null,
    address: parts.advertised(),
    async close() {
      background.stop()
      parts.routines.halt()
      await parts.sessions.stopAll()
      await parts.hub.leases.stop()
      parts.streams.closeAll()
      for (const ws of parts.wss.clients) ws.terminate()
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
