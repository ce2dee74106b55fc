// Webhooks in: POST /hooks/<source>, verified by the source's secret or signature, each body made
// into events by the source's preset, answered 202 once committed (200: every one a duplicate). The
// hot path of the hub (bench:router): its body is read from Node's own request.
import { Hono } from 'hono'
import { notFound } from '../../core/errors.js'
import { isReservedSource } from '../../core/sources.js'
import { verifyWebhook, webhookBodyLimit, webhookEvents } from '../../sources/webhook/index.js'
import { eventDeliveries } from '../core/reads.js'
import { defineRoute, type Handler } from './define.js'
import type { HubEnv } from './env.js'
import { requestBody } from './node-io.js'
import type { HubParts } from './parts.js'

export function webhookRoutes(parts: HubParts): Hono<HubEnv> {
  const { sources } = parts
  const app = new Hono<HubEnv>()
  const { hub } = parts
  /** A source not in the cache yet: looked up once, before its body is read. */
  const limitOf = async (name: string) => {
    const source = isReservedSource(name) ? null : await sources.get(name)
    return source ? webhookBodyLimit(source, parts.maxBodyBytes) : parts.maxBodyBytes
  }

  // The source is known (from the cache, on the hot path) before the body is read, so its sender's
  // own cap is the limit: a signature covers the body, and it is no more than that. The answer is
  // c.json's, which the adapter writes as it is, headers and all, with no Headers object made.
  const webhook: Handler<'webhook'> = async (c, { params }) => {
    const req = c.env.incoming
    const name = params.source
    const source = isReservedSource(name) ? null : (sources.cached(name) ?? (await sources.get(name)))
    if (!source) throw notFound(`unknown source "${name}" (create it with: switchboard source add ${name})`)
    const body = await requestBody(c)
    const query = new URL(req.url ?? '/', 'http://hub').searchParams
    const proof = verifyWebhook(source, req.headers, body)
    const outcome = webhookEvents(source, req.headers, body, query, proof)
    if ('ignored' in outcome) return c.json({ events: [], ignored: outcome.ignored }, 200)
    const [only, ...more] = outcome.events
    if (only && more.length === 0) {
      const result = await hub.publish(only)
      return c.json({ id: result.event.id, duplicate: result.duplicate }, result.duplicate ? 200 : 202)
    }
    // Several events (an alert group's firing and resolved alerts): published in order, in one commit.
    const results = await Promise.all(outcome.events.map((event) => hub.publish(event)))
    return c.json(
      { events: results.map((r) => ({ id: r.event.id, duplicate: r.duplicate })) },
      results.every((r) => r.duplicate) ? 200 : 202,
    )
  }
  defineRoute(app, parts.creds, 'webhook', webhook, {
    maxBodyBytes: parts.maxBodyBytes,
    // A sender that sends more than the setting (GitHub, up to 25 MiB) is read up to its own cap.
    bodyLimit: (c) => {
      const name = c.req.param('source') ?? ''
      const source = isReservedSource(name) ? null : sources.cached(name)
      return source ? webhookBodyLimit(source, parts.maxBodyBytes) : limitOf(name)
    },
  })
  // A sender reads its own event's receipts with the secret it posts with (a signature of the empty body does too).
  defineRoute(app, parts.creds, 'webhookEvent', async (c, { params }) => {
    const source = isReservedSource(params.source) ? null : await sources.get(params.source)
    if (!source) throw notFound(`unknown source "${params.source}"`)
    verifyWebhook(source, c.env.incoming.headers, Buffer.alloc(0))
    return eventDeliveries(hub, params.id, source.name)
  })
  return app
}
