// Senders as the admin manages them (`switchboard sender`, `pair`, `access`): made, paired, allowed,
// blocked and removed by the hub's own Access, so what a change tells a person (a "Paired", the
// prompts a new operator is sent) goes out from here at once. Whatever makes or changes a sender, or
// hands out a token, is the admin token's only; the lists are an operator's, as GET /api/access is.
import { Hono } from 'hono'
import { notFound } from '../../core/errors.js'
import { senderRow } from '../people/views.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import { nameOf } from './principal.js'

export function senderAdminRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub, creds, log } = parts
  const { access } = hub

  defineRoute(app, creds, 'senders', async () => ({
    senders: (await access.list()).map((s) => ({ ...senderRow(s), id: s.id, expiresAt: s.expiresAt })),
  }))

  defineRoute(app, creds, 'addSender', async (_c, { body, who }) => {
    const { sender, token } = await access.addSender(body.name, body.operator)
    log.info({ sender: sender.name, operator: sender.operator, by: nameOf(who) }, 'sender added')
    return { sender: senderRow(sender), token }
  })

  defineRoute(app, creds, 'setSenderAccess', async (_c, { params, body, who }) => {
    const sender = await access.setStatus(params.name, body.status, body.operator)
    log.info({ sender: sender.name, ...body, by: nameOf(who) }, 'sender changed')
    return { sender: senderRow(sender) }
  })

  defineRoute(app, creds, 'removeSender', async (_c, { params, who }) => {
    if (!(await access.find(params.name)))
      throw notFound(`no sender named "${params.name}" (see: switchboard access list)`)
    await access.remove(params.name)
    log.info({ sender: params.name, by: nameOf(who) }, 'sender removed')
    return { removed: params.name }
  })

  defineRoute(app, creds, 'pairings', async () => ({
    pairings: (await access.pendingPairings()).map((d) => ({
      code: d.code,
      createdAt: d.createdAt,
      expiresAt: d.expiresAt,
      request: d.request,
    })),
  }))

  defineRoute(app, creds, 'approvePairing', async (_c, { params, body, who }) => {
    const sender = await access.approvePairing(params.code, {
      name: body.name,
      operator: body.operator,
      by: nameOf(who),
    })
    log.info({ sender: sender.name, operator: sender.operator, by: nameOf(who) }, 'pairing approved')
    return { sender: senderRow(sender) }
  })
  return app
}
