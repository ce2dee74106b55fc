// The dashboard's web chat (like the official fakechat): the signed-in browser writes to the sessions
// that take chat, as an HTTP sender does, and reads Claude's replies as they come.
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { forbidden } from '../../core/errors.js'
import type { Sender } from '../../store/store.js'
import { chatFromSender } from '../people/sender-chat.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import type { Principal } from './principal.js'
import { holdOpen, stillOperator } from './sse.js'

/** The web chat is a browser's: its replies come back to that browser. */
function browserOf(who: Principal): Sender {
  if (who.kind !== 'browser')
    throw forbidden('the web chat is for a signed-in browser; senders use POST /messages')
  return who.sender
}

export function chatRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub, creds, replies } = parts

  defineRoute(app, creds, 'chat', async (c, { body, who }) => {
    const result = await chatFromSender(hub, browserOf(who), {
      text: body.text,
      to: body.to,
      idempotencyKey: c.req.header('idempotency-key') ?? null,
    })
    return { id: result.event.id, chat_id: result.chatId, sessions: result.subscribers.length }
  })

  defineRoute(app, creds, 'chatStream', (c, { who }) => {
    const browser = browserOf(who)
    const after = Number(c.req.header('last-event-id') ?? 0) || 0
    return streamSSE(c, async (stream) => {
      const off = await replies.follow(browser.id, after, (id, reply) => {
        void stream.writeSSE({ id: String(id), event: 'reply', data: JSON.stringify(reply) })
      })
      stream.onAbort(off)
      await holdOpen(stream, stillOperator(hub.store, who))
    })
  })
  return app
}
