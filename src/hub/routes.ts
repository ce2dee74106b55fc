// The hub's HTTP API: webhooks in, sender messages in, sender streams out, pairing.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { describeZod, HttpError } from '../core/errors.js'
import { parseVerdictText, subscriberNameSchema } from '../core/hub-protocol.js'
import { VERSION } from '../core/version.js'
import { verifyWebhook, webhookEvent } from '../sources/webhook/index.js'
import type { Sender } from '../store/store.js'
import { bearerToken, readBody, sendJson } from './http-util.js'
import type { Hub } from './hub.js'
import { SourceCache } from './source-cache.js'

const HTTP_SOURCE = 'http'
const SSE_KEEPALIVE_MS = 15_000

const messageBodySchema = z
  .object({
    text: z.string().min(1, 'text must not be empty').max(32_000),
    to: subscriberNameSchema.optional(),
  })
  .strict()

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>

export function createRoutes(hub: Hub, maxBodyBytes: number) {
  const sources = new SourceCache(hub.store)

  async function allowedSender(req: IncomingMessage, url: URL): Promise<Sender> {
    const token = bearerToken(req, url)
    if (!token) throw new HttpError(401, 'missing sender token (Authorization: Bearer <token>)')
    const sender = await hub.access.authenticate(token)
    if (!sender) throw new HttpError(401, 'unknown sender token')
    if (sender.status === 'pending')
      throw new HttpError(
        403,
        `pairing pending: ask the operator to run "switchboard pair ${sender.name.slice(8)}"`,
      )
    if (sender.status === 'blocked') throw new HttpError(403, 'this sender is blocked')
    return sender
  }

  const health: Route = async (_req, res) =>
    sendJson(res, 200, { ok: true, version: VERSION, pid: process.pid })

  const webhook: Route = async (req, res, url) => {
    const name = decodeURIComponent(url.pathname.slice('/hooks/'.length))
    // Read before anything awaits: the body has usually arrived with the headers, and a reader in
    // place now gets it as it is parsed instead of a few event-loop turns later.
    const reading = readBody(req, maxBodyBytes)
    const source = sources.cached(name) ?? (await sources.get(name))
    if (!source) {
      reading.catch(() => {}) // the 404 says enough
      throw new HttpError(404, `unknown source "${name}" (create it with: switchboard source add ${name})`)
    }
    const body = await reading
    verifyWebhook(source, req.headers, body)
    const result = await hub.publish(webhookEvent(source, req.headers, body, url.searchParams))
    sendJson(res, result.duplicate ? 200 : 202, { id: result.event.id, duplicate: result.duplicate })
  }

  const message: Route = async (req, res, url) => {
    const sender = await allowedSender(req, url)
    const raw = (await readBody(req, maxBodyBytes)).toString('utf8')
    const isJson = /json/i.test(req.headers['content-type'] ?? '')
    let input: z.infer<typeof messageBodySchema>
    try {
      input = messageBodySchema.parse(isJson ? JSON.parse(raw) : { text: raw })
    } catch (err) {
      const reason =
        err instanceof z.ZodError ? describeZod(err) : `body is not valid JSON: ${(err as Error).message}`
      throw new HttpError(400, reason)
    }
    const verdict = parseVerdictText(input.text)
    if (verdict) {
      const decision = await hub.answerPermission(sender, verdict.code, verdict.behavior)
      sendJson(res, 200, { decision: decision.code, behavior: verdict.behavior, status: decision.status })
      return
    }
    const chat = await hub.store.chatFor(HTTP_SOURCE, sender.id)
    const result = await hub.publish({
      topic: `chat:${HTTP_SOURCE}:${sender.name}`,
      source: HTTP_SOURCE,
      sender: sender.name,
      chat_id: chat.id,
      target: input.to ?? null,
      content: input.text,
      meta: {},
      idempotencyKey: headerValue(req, 'idempotency-key'),
    })
    sendJson(res, result.duplicate ? 200 : 202, {
      id: result.event.id,
      chat_id: chat.id,
      duplicate: result.duplicate,
    })
  }

  const events: Route = async (req, res, url) => {
    const sender = await allowedSender(req, url)
    const last = headerValue(req, 'last-event-id') ?? url.searchParams.get('last_event_id')
    const lastId = last !== null && /^\d+$/.test(last) ? Number(last) : null
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    res.write(': connected\n\n')
    await hub.streams.attach(sender.id, res, lastId)
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), SSE_KEEPALIVE_MS)
    res.on('close', () => clearInterval(keepalive))
  }

  const pair: Route = async (req, res) => {
    req.resume()
    const { code, token, expiresAt } = await hub.access.requestPairing()
    sendJson(res, 201, {
      code,
      token,
      expires_at: new Date(expiresAt).toISOString(),
      next: `ask the operator to run: switchboard pair ${code}`,
    })
  }

  return { health, webhook, message, events, pair }
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name]
  return (Array.isArray(v) ? v[0] : v) ?? null
}
