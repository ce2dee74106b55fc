// Webhooks in: POST /hooks/<source>, verified by the source's secret or signature, each body made
// into events by the source's preset, answered 202 once committed (200: every one a duplicate). The
// hot path of the hub: it reads and answers on Node's own request and response (bench:router).
import { Hono } from 'hono'
import { notFound } from '../../core/errors.js'
import { isReservedSource } from '../../core/sources.js'
import { verifyWebhook, webhookEvents } from '../../sources/webhook/index.js'
import { eventDeliveries } from '../core/reads.js'
import { defineRoute, type Handler } from './define.js'
import type { HubEnv } from './env.js'
import { ANSWERED_ON_NODE, requestBody, sendJson } from './node-io.js'
import type { HubParts } from './parts.js'
import { SourceCache } from './source-cache.js'

export function webhookRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub } = parts
  const sources = new SourceCache(hub.store)

  // The body is read before the source is looked up (define.ts reads it before anything else awaits,
  // as the parser delivers it): a signature covers it, and it is no more than maxBodyBytes.
  const webhook: Handler<'webhook'> = async (c, { params }) => {
    const req = c.env.incoming
    const res = c.env.outgoing
    const name = params.source
    const source = isReservedSource(name) ? null : (sources.cached(name) ?? (await sources.get(name)))
    if (!source) throw notFound(`unknown source "${name}" (create it with: switchboard source add ${name})`)
    const body = await requestBody(c)
    const query = new URL(req.url ?? '/', 'http://hub').searchParams
    const proof = verifyWebhook(source, req.headers, body)
    const outcome = webhookEvents(source, req.headers, body, query, proof)
    if ('ignored' in outcome) {
      sendJson(res, 200, { events: [], ignored: outcome.ignored })
      return ANSWERED_ON_NODE
    }
    const [only, ...more] = outcome.events
    if (only && more.length === 0) {
      const result = await hub.publish(only)
      sendJson(res, result.duplicate ? 200 : 202, { id: result.event.id, duplicate: result.duplicate })
      return ANSWERED_ON_NODE
    }
    // Several events (an alert group's firing and resolved alerts): published in order, in one commit.
    const results = await Promise.all(outcome.events.map((event) => hub.publish(event)))
    sendJson(res, results.every((r) => r.duplicate) ? 200 : 202, {
      events: results.map((r) => ({ id: r.event.id, duplicate: r.duplicate })),
    })
    return ANSWERED_ON_NODE
  }
  defineRoute(app, parts.creds, 'webhook', webhook, { maxBodyBytes: parts.maxBodyBytes })
  // A sender reads its own event's receipts with the secret it posts with (a signature of the empty body does too).
  defineRoute(app, parts.creds, 'webhookEvent', async (c, { params }) => {
    const source = isReservedSource(params.source) ? null : await sources.get(params.source)
    if (!source) throw notFound(`unknown source "${params.source}"`)
    verifyWebhook(source, c.env.incoming.headers, Buffer.alloc(0))
    return eventDeliveries(hub, params.id, source.name)
  })
  return app
}
