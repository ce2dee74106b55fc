// What flows through the hub, for the CLI and the dashboard alike: its status, the channel sessions,
// the event log, webhook sources, peers, dead letters, outbound webhooks, and what the hook takes.
import { Hono } from 'hono'
import { notFound } from '../../core/errors.js'
import {
  channelRows,
  deadLetterRows,
  eventDeliveries,
  eventRows,
  outboundLog,
  outboundRows,
  sourceRows,
} from '../core/reads.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'

export function stateRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub, creds, outbound } = parts

  defineRoute(app, creds, 'status', () => parts.status())
  defineRoute(app, creds, 'channels', async () => ({ channels: await channelRows(hub) }))
  defineRoute(app, creds, 'events', async (_c, { query }) => ({ events: await eventRows(hub, query) }))
  defineRoute(app, creds, 'event', async (_c, { params }) => eventDeliveries(hub, params.id))
  defineRoute(app, creds, 'sources', async () => ({ sources: await sourceRows(hub) }))
  defineRoute(app, creds, 'peers', async () => ({ peers: await hub.peers.list() }))

  defineRoute(app, creds, 'sendToPeer', async (_c, { body }) => {
    const id = await hub.peers.send(body.from, body.to, body.text)
    return { id, message: `sent to ${body.to}` }
  })

  defineRoute(app, creds, 'deadLetters', async (_c, { query }) => ({
    deadLetters: await deadLetterRows(hub, query.kind),
  }))

  defineRoute(app, creds, 'subscriptions', async () => ({ webhooks: await outboundRows(hub) }))

  defineRoute(app, creds, 'subscribe', async (_c, { body }) => {
    const webhook = await outbound.add(body)
    return {
      name: webhook.name,
      url: webhook.url,
      secret: webhook.secret,
      topics: body.topics,
      receipts: webhook.receipts,
    }
  })

  defineRoute(app, creds, 'unsubscribe', async (_c, { params }) => {
    if (!(await outbound.remove(params.name))) throw notFound(`no outbound webhook named "${params.name}"`)
    return { removed: params.name }
  })

  defineRoute(app, creds, 'subscriptionLog', async (_c, { params }) => ({
    log: await outboundLog(hub, params.name),
  }))

  defineRoute(app, creds, 'hookTake', async (_c, { body }) => ({
    events: await hub.takeForHook(body.subscriber, body.folder),
  }))
  return app
}
