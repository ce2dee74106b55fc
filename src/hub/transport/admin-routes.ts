// Admin HTTP routes besides sessions: status, peers, sending to a peer from outside, dead letters,
// outbound webhooks, the hook's take.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { HttpError } from '../../core/errors.js'
import {
  type HubStatus,
  type OutboundWebhookInfo,
  subscriberNameSchema,
  topicSchema,
} from '../../core/hub-protocol.js'
import type { Hub } from '../core/hub.js'
import type { OutboundWebhooks } from '../core/outbound.js'
import { readJson, sendJson } from './http-util.js'
import { pathSegment } from './request-guard.js'

const peerMessageSchema = z
  .object({
    from: z.string().min(1).max(100).default('cli'),
    to: subscriberNameSchema,
    text: z.string().min(1),
  })
  .strict()

const answerByCodeSchema = z
  .object({
    code: z.string().regex(/^[a-km-z]{5}$/, 'a prompt id is five letters a-z without l'),
    behavior: z.enum(['allow', 'deny']),
    message: z.string().min(1).optional(),
  })
  .strict()

const subscribeSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
    topics: z.array(topicSchema).min(1).default(['*']),
    maxAttempts: z.number().int().min(1).max(50).default(8),
    backoffMs: z.number().int().min(10).max(3_600_000).default(1_000),
  })
  .strict()

export function createAdminRoutes(
  hub: Hub,
  outbound: OutboundWebhooks,
  status: () => Promise<HubStatus>,
  signinLink: () => Promise<{ url: string; expiresAt: number }>,
) {
  return async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET'
    if (url.pathname === '/web-links' && method === 'POST') {
      req.resume()
      return sendJson(res, 201, await signinLink())
    }
    if (url.pathname === '/status' && method === 'GET') return sendJson(res, 200, await status())
    if (url.pathname === '/decisions/answer' && method === 'POST') {
      const { code, behavior, message } = await readJson(req, answerByCodeSchema)
      const decision = await hub.decisions.answerByCode(code, behavior, message, 'cli')
      return sendJson(res, 200, { decision: decision.id, code, behavior, owner: decision.owner })
    }
    if (url.pathname === '/peers' && method === 'GET')
      return sendJson(res, 200, { peers: await hub.peers.list() })
    if (url.pathname === '/dead-letters' && method === 'GET')
      return sendJson(res, 200, {
        deadLetters: await hub.store.listDeadLetters(url.searchParams.get('kind') ?? undefined),
      })
    if (url.pathname === '/hook/take' && method === 'POST') {
      const { subscriber } = await readJson(req, z.object({ subscriber: subscriberNameSchema }).strict())
      return sendJson(res, 200, { events: await hub.takeForHook(subscriber) })
    }
    if (url.pathname === '/subscriptions' && method === 'POST') {
      const input = await readJson(req, subscribeSchema)
      const webhook = await outbound.add(input)
      return sendJson(res, 201, {
        name: webhook.name,
        url: webhook.url,
        secret: webhook.secret,
        topics: input.topics,
      })
    }
    if (url.pathname === '/subscriptions' && method === 'GET') {
      const subscribers = new Map((await hub.store.listSubscribers()).map((s) => [s.name, s]))
      const webhooks = (await hub.store.listOutboundWebhooks()).map(
        (w): OutboundWebhookInfo => ({
          name: w.name,
          url: w.url,
          topics: subscribers.get(w.name)?.topics ?? [],
          pending: subscribers.get(w.name)?.pending ?? 0,
          maxAttempts: w.maxAttempts,
          backoffMs: w.backoffMs,
          createdAt: w.createdAt,
        }),
      )
      return sendJson(res, 200, { webhooks })
    }
    if (url.pathname.startsWith('/subscriptions/') && method === 'DELETE') {
      req.resume()
      const name = pathSegment(url.pathname.slice('/subscriptions/'.length))
      if (!(await outbound.remove(name))) throw new HttpError(404, `no outbound webhook named "${name}"`)
      return sendJson(res, 200, { removed: name })
    }
    if (url.pathname === '/subscriptions/log' && method === 'GET') {
      const name = url.searchParams.get('name') ?? ''
      return sendJson(res, 200, { log: await hub.store.outboundLog(name, 200) })
    }
    if (url.pathname === '/peers/messages' && method === 'POST') {
      const { from, to, text } = await readJson(req, peerMessageSchema)
      const id = await hub.peers.send(from, to, text)
      return sendJson(res, 202, { id, message: `sent to ${to}` })
    }
    req.resume()
    throw new HttpError(404, `no such path: ${method} ${url.pathname}`)
  }
}
