// The hub itself: /health (with its proof that it holds the admin token), the OpenAPI document, and
// the two WebSocket upgrades: the hub socket of channels, and a driven CLI on --sdk-url.
import { Hono } from 'hono'
import { invalid, unauthorized } from '../../core/errors.js'
import { connectionBinding, hubProof } from '../../core/hub-proof.js'
import { VERSION } from '../../core/version.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import { handleHubSocket } from './hub-socket.js'
import { upgraded } from './node.js'
import { openApiDocument } from './openapi.js'
import type { HubParts } from './parts.js'
import { bearer } from './principal.js'

export function systemRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { creds } = parts

  /** With `?challenge=`, the hub proves it holds the admin token before a client sends it (hub-address.ts). */
  defineRoute(app, creds, 'health', (c, { query }) => {
    const challenge = query.challenge
    // Bound to this connection as the hub sees it: a relay's client sees another one (core/hub-proof.ts).
    const proof =
      challenge && challenge.length <= 128
        ? { proof: hubProof(creds.adminToken, challenge, connectionBinding(c.env.incoming.socket, 'hub')) }
        : {}
    return { ok: true as const, version: VERSION, pid: process.pid, ...proof }
  })

  defineRoute(app, creds, 'openapi', () => openApiDocument())

  defineRoute(app, creds, 'hubSocket', (c) => {
    const upgrade = c.env.upgrade
    if (!upgrade) throw invalid('the hub socket is a WebSocket: ask for an upgrade')
    parts.wss.handleUpgrade(c.env.incoming, upgrade.socket, upgrade.head, (ws) =>
      handleHubSocket(parts.hub, ws, parts.heartbeatMs),
    )
    return upgraded()
  })

  // A CLI on the --sdk-url transport, with the token of the one session it was started for.
  defineRoute(app, creds, 'sdkSocket', (c, { params }) => {
    const upgrade = c.env.upgrade
    if (!upgrade) throw invalid('this path is a WebSocket: ask for an upgrade')
    const connect = parts.sessions.sdkConnection(params.id, bearer(c))
    if (!connect) throw unauthorized('not the token of this session')
    parts.wss.handleUpgrade(c.env.incoming, upgrade.socket, upgrade.head, connect)
    return upgraded()
  })
  return app
}
