// People and programs that chat with sessions over HTTP: a message (or a verdict, `yes <id>`) in, the
// sender's stream of replies and prompts out, and pairing for a device that has no token yet.
import { Hono } from 'hono'
import { messageBodySchema } from '../../core/api/schemas.js'
import { describeZod, invalid, rateLimited } from '../../core/errors.js'
import { parseVerdictText } from '../../core/hub-protocol.js'
import { parseJson } from '../../core/json.js'
import type { Sender } from '../../store/store.js'
import { chatFromSender } from '../people/sender-chat.js'
import { defineRoute, type Handler } from './define.js'
import type { HubEnv } from './env.js'
import { ANSWERED_ON_NODE, header, requestBody } from './node-io.js'
import type { HubParts } from './parts.js'
import { RateLimit } from './rate-limit.js'
import { MAX_STREAMS_PER_SENDER } from './sender-streams.js'

const SSE_KEEPALIVE_MS = 15_000
const RECHECK_MS = 1_000
const PAIRINGS_PER_ADDRESS = 5
const PAIRING_WINDOW_MS = 10 * 60_000

export function senderRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub, streams, creds } = parts
  const pairingLimit = new RateLimit(PAIRINGS_PER_ADDRESS, PAIRING_WINDOW_MS)
  const senderOf = (who: { kind: string; sender?: Sender }) => who.sender as Sender

  /** A text body is the message; a JSON one may also name the session (`to`). */
  const message: Handler<'message'> = async (c, { who }) => {
    const sender = senderOf(who)
    const raw = (await requestBody(c)).toString('utf8')
    const isJson = /json/i.test(c.req.header('content-type') ?? '')
    const parsed = messageBodySchema.safeParse(isJson ? parseJson(raw) : { text: raw })
    if (!parsed.success) throw invalid(describeZod(parsed.error))
    const input = parsed.data
    const verdict = parseVerdictText(input.text)
    if (verdict) {
      const decision = await hub.decisions.answerPermission(sender, verdict.code, verdict.behavior)
      return c.json({ decision: decision.code, behavior: verdict.behavior, status: decision.status }, 200)
    }
    const result = await chatFromSender(hub, sender, {
      text: input.text,
      to: input.to,
      idempotencyKey: c.req.header('idempotency-key') ?? null,
    })
    return c.json(
      { id: result.event.id, chat_id: result.chatId, duplicate: result.duplicate },
      result.duplicate ? 200 : 202,
    )
  }
  defineRoute(app, creds, 'message', message, { maxBodyBytes: parts.maxBodyBytes })

  defineRoute(app, creds, 'senderEvents', async (c, { who }) => {
    const sender = senderOf(who)
    const req = c.env.incoming
    const res = c.env.outgoing
    if (!streams.hasRoom(sender.id))
      throw rateLimited(`at most ${MAX_STREAMS_PER_SENDER} open streams per sender; close one first`)
    const last = header(req, 'last-event-id') ?? c.req.query('last_event_id') ?? null
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
    return ANSWERED_ON_NODE
  })

  defineRoute(app, creds, 'pair', async (c) => {
    const req = c.env.incoming
    const address = req.socket.remoteAddress ?? 'unknown'
    if (!pairingLimit.take(address))
      throw rateLimited('too many pairing requests from this address; try again in a few minutes')
    const { code, token, expiresAt } = await hub.access.requestPairing({
      address,
      userAgent: c.req.header('user-agent')?.slice(0, 200) ?? null,
    })
    return {
      code,
      token,
      expires_at: new Date(expiresAt).toISOString(),
      next: `ask the operator to run: switchboard pair ${code}`,
    }
  })
  return app
}
