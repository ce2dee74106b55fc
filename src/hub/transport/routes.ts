// The hub's HTTP API: webhooks in, sender messages in, sender streams out, pairing.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { describeZod, HttpError } from '../../core/errors.js'
import { topicMatches } from '../../core/event.js'
import { connectionBinding, hubProof } from '../../core/hub-proof.js'
import { parseVerdictText, subscriberNameSchema } from '../../core/hub-protocol.js'
import { parseJson } from '../../core/json.js'
import { isReservedSource } from '../../core/sources.js'
import { VERSION } from '../../core/version.js'
import { verifyWebhook, webhookEvents } from '../../sources/webhook/index.js'
import type { Sender } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import { bearerToken, readBody, sendJson } from './http-util.js'
import { RateLimit } from './rate-limit.js'
import { pathSegment } from './request-guard.js'
import { MAX_STREAMS_PER_SENDER, type SenderStreams } from './sender-streams.js'
import { SourceCache } from './source-cache.js'

const HTTP_SOURCE = 'http'
const SSE_KEEPALIVE_MS = 15_000
const RECHECK_MS = 1_000
const PAIRINGS_PER_ADDRESS = 5
const PAIRING_WINDOW_MS = 10 * 60_000

const messageBodySchema = z
  .object({
    text: z.string().min(1, 'text must not be empty').max(32_000),
    to: subscriberNameSchema.optional(),
  })
  .strict()

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>

export function createRoutes(hub: Hub, streams: SenderStreams, maxBodyBytes: number, adminToken: string) {
  const sources = new SourceCache(hub.store)
  const pairingLimit = new RateLimit(PAIRINGS_PER_ADDRESS, PAIRING_WINDOW_MS)

  async function allowedSender(token: string | null): Promise<Sender> {
    if (!token) throw new HttpError(401, 'missing sender token (Authorization: Bearer <token>)')
    const sender = await hub.access.authenticate(token)
    // A dashboard browser's key is for the dashboard's API only.
    if (sender?.kind !== 'token') throw new HttpError(401, 'unknown sender token')
    if (sender.status === 'pending')
      throw new HttpError(
        403,
        `pairing pending: ask the operator to run "switchboard pair ${sender.name.slice(8)}"`,
      )
    if (sender.status === 'blocked') throw new HttpError(403, 'this sender is blocked')
    return sender
  }

  /** With `?challenge=`, the hub proves it holds the admin token before a client sends it (hub-address.ts). */
  const health: Route = async (req, res, url) => {
    const challenge = url.searchParams.get('challenge')
    // Bound to this connection as the hub sees it: a relay's client sees another one (core/hub-proof.ts).
    const proof =
      challenge && challenge.length <= 128
        ? { proof: hubProof(adminToken, challenge, connectionBinding(req.socket, 'hub')) }
        : {}
    sendJson(res, 200, { ok: true, version: VERSION, pid: process.pid, ...proof })
  }

  const webhook: Route = async (req, res, url) => {
    const name = pathSegment(url.pathname.slice('/hooks/'.length))
    // Read before anything awaits: the body has usually arrived with the headers, and a reader in
    // place now gets it as it is parsed instead of a few event-loop turns later.
    const reading = readBody(req, maxBodyBytes)
    const source = isReservedSource(name) ? null : (sources.cached(name) ?? (await sources.get(name)))
    if (!source) {
      reading.catch(() => {}) // the 404 says enough
      throw new HttpError(404, `unknown source "${name}" (create it with: switchboard source add ${name})`)
    }
    const body = await reading
    const proof = verifyWebhook(source, req.headers, body)
    const outcome = webhookEvents(source, req.headers, body, url.searchParams, proof)
    if ('ignored' in outcome) {
      sendJson(res, 200, { events: [], ignored: outcome.ignored })
      return
    }
    const [only, ...more] = outcome.events
    if (only && more.length === 0) {
      const result = await hub.publish(only)
      sendJson(res, result.duplicate ? 200 : 202, { id: result.event.id, duplicate: result.duplicate })
      return
    }
    // Several events (an alert group's firing and resolved alerts): published in order, in one commit.
    const results = await Promise.all(outcome.events.map((event) => hub.publish(event)))
    sendJson(res, results.every((r) => r.duplicate) ? 200 : 202, {
      events: results.map((r) => ({ id: r.event.id, duplicate: r.duplicate })),
    })
  }

  const message: Route = async (req, res) => {
    const sender = await allowedSender(bearerToken(req))
    const raw = (await readBody(req, maxBodyBytes)).toString('utf8')
    const isJson = /json/i.test(req.headers['content-type'] ?? '')
    const parsed = messageBodySchema.safeParse(isJson ? parseJson(raw) : { text: raw })
    if (!parsed.success) throw new HttpError(400, describeZod(parsed.error))
    const input = parsed.data
    const verdict = parseVerdictText(input.text)
    if (verdict) {
      const decision = await hub.decisions.answerPermission(sender, verdict.code, verdict.behavior)
      sendJson(res, 200, { decision: decision.code, behavior: verdict.behavior, status: decision.status })
      return
    }
    const topic = `chat:${HTTP_SOURCE}:${sender.name}`
    if (input.to !== undefined && !(await takesChat(input.to, topic)))
      throw new HttpError(404, `no session named "${input.to}" takes chat (see: switchboard peers)`)
    const chat = await hub.store.chatFor(HTTP_SOURCE, sender.id)
    const result = await hub.publish({
      topic,
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

  /** A registered subscriber whose topics include this chat: a channel that took `*`, for one. */
  async function takesChat(name: string, topic: string): Promise<boolean> {
    const subscriber = await hub.store.getSubscriber(name)
    return subscriber !== null && topicMatches(subscriber.topics, topic)
  }

  const events: Route = async (req, res, url) => {
    // EventSource cannot set headers: browsers pass the token in the query, here only.
    const sender = await allowedSender(bearerToken(req) ?? url.searchParams.get('token'))
    if (!streams.hasRoom(sender.id))
      throw new HttpError(429, `at most ${MAX_STREAMS_PER_SENDER} open streams per sender; close one first`)
    const last = headerValue(req, 'last-event-id') ?? url.searchParams.get('last_event_id')
    const lastId = last !== null && /^\d+$/.test(last) ? Number(last) : null
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    res.write(': connected\n\n')
    await streams.attach(sender.id, res, lastId)
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), SSE_KEEPALIVE_MS)
    // Blocked or removed at the terminal (another process, maybe another hub): the stream ends within a second.
    const recheck = setInterval(() => {
      streams
        .mayReceive(sender.id)
        .then((may) => (may ? undefined : res.end()))
        .catch(() => {})
    }, RECHECK_MS)
    res.on('close', () => {
      clearInterval(keepalive)
      clearInterval(recheck)
    })
  }

  const pair: Route = async (req, res) => {
    req.resume()
    const address = req.socket.remoteAddress ?? 'unknown'
    if (!pairingLimit.take(address))
      throw new HttpError(429, 'too many pairing requests from this address; try again in a few minutes')
    const { code, token, expiresAt } = await hub.access.requestPairing({
      address,
      userAgent: headerValue(req, 'user-agent')?.slice(0, 200) ?? null,
    })
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
