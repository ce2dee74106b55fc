// Admin HTTP routes besides sessions: peers, sending to a peer from outside, dead letters.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { HttpError } from '../core/errors.js'
import { subscriberNameSchema } from '../core/hub-protocol.js'
import { readBody, sendJson } from './http-util.js'
import type { Hub } from './hub.js'
import { describeZod } from './routes.js'

const peerMessageSchema = z
  .object({
    from: z.string().min(1).max(100).default('cli'),
    to: subscriberNameSchema,
    text: z.string().min(1),
  })
  .strict()

export function createAdminRoutes(hub: Hub) {
  return async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET'
    if (url.pathname === '/peers' && method === 'GET')
      return sendJson(res, 200, { peers: await hub.peers.list() })
    if (url.pathname === '/dead-letters' && method === 'GET')
      return sendJson(res, 200, {
        deadLetters: await hub.store.listDeadLetters(url.searchParams.get('kind') ?? undefined),
      })
    if (url.pathname === '/peers/messages' && method === 'POST') {
      const raw = (await readBody(req, 1024 * 1024)).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(raw)
      } catch (err) {
        throw new HttpError(400, `body is not valid JSON: ${(err as Error).message}`)
      }
      const parsed = peerMessageSchema.safeParse(json)
      if (!parsed.success) throw new HttpError(400, describeZod(parsed.error))
      const { from, to, text } = parsed.data
      const id = await hub.peers.send(from, to, text)
      return sendJson(res, 202, { id, message: `sent to ${to}` })
    }
    req.resume()
    throw new HttpError(404, `no such path: ${method} ${url.pathname}`)
  }
}
