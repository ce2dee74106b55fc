// The hub's HTTP API for driven sessions (admin token): create, send, status with long-poll,
// respond, interrupt, stop, resume, remove, bind to an IDE, list, and an SSE stream of a session's lines from any point.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { claudeOptionsSchema } from '../../claude/process.js'
import { describeZod, HttpError } from '../../core/errors.js'
import { topicSchema } from '../../core/hub-protocol.js'
import { linesQuerySchema, respondSchema, sessionSetupSchema } from '../../core/session-api.js'
import { replayThenLive } from '../sessions/replay.js'
import type { SessionManager } from '../sessions/session-manager.js'
import { readJson, sendJson } from './http-util.js'
import { pathSegment } from './request-guard.js'

const createSchema = z
  .object({
    prompt: z.string().min(1, 'prompt must not be empty'),
    options: claudeOptionsSchema,
    /** Events on these topics are written into the session as `<channel>` messages. */
    topics: z.array(topicSchema).optional(),
    setup: sessionSetupSchema.optional(),
    /** Other sessions may message this one (peers): off unless asked for. */
    peer: z.boolean().optional(),
  })
  .strict()
const sendSchema = z
  .object({ text: z.string().min(1, 'text must not be empty'), fork: z.boolean().optional() })
  .strict()
const respondBodySchema = z.object({ decision: z.string().min(1), answer: respondSchema }).strict()
const modelSchema = z.object({ model: z.string().min(1) }).strict()
/** An IDE by its port or its name, as `switchboard ide list` shows them. */
const ideSchema = z.object({ ide: z.string().min(1, 'name the IDE: its port or its name') }).strict()
const modeSchema = z.object({ mode: claudeOptionsSchema.shape.permissionMode.unwrap() }).strict()

/** Errors from the manager ("no session", "not running") are the caller's to fix. */
async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof HttpError) throw err
    const message = (err as Error).message
    throw new HttpError(/^no (session|live IDE)/.test(message) ? 404 : 409, message)
  }
}

export function createSessionRoutes(sessions: SessionManager) {
  return async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const parts = url.pathname.split('/').filter(Boolean) // ['sessions', id?, action?]
    const [, id, action] = parts.map(pathSegment)
    const method = req.method ?? 'GET'

    if (!id) {
      if (method === 'GET') {
        const cwd = url.searchParams.get('cwd') ?? undefined
        return sendJson(res, 200, { sessions: await sessions.listAll({ cwd }) })
      }
      if (method === 'DELETE') {
        req.resume()
        return sendJson(res, 200, { removed: await sessions.prune() })
      }
      if (method === 'POST') {
        const input = await readJson(req, createSchema)
        return sendJson(
          res,
          201,
          await guard(() =>
            sessions.create(input.prompt, input.options, {
              topics: input.topics,
              setup: input.setup,
              peer: input.peer,
            }),
          ),
        )
      }
    } else if (!action && method === 'GET') {
      const wait = Math.min(Number(url.searchParams.get('wait') ?? 0) || 0, 300)
      return sendJson(res, 200, await guard(() => sessions.status(id, wait)))
    } else if (!action && method === 'DELETE') {
      req.resume()
      const view = await guard(() => sessions.view(id))
      if (view.live) throw new HttpError(409, `session ${view.id} is running; stop it first`)
      return sendJson(res, 200, { removed: await sessions.prune([view.id]) })
    } else if (action === 'stop' && method === 'POST') {
      req.resume()
      return sendJson(res, 200, await guard(() => sessions.stop(id)))
    } else if (action === 'resume' && method === 'POST') {
      req.resume()
      return sendJson(res, 200, await guard(() => sessions.resume(id)))
    } else if (action === 'ide' && method === 'POST') {
      const input = await readJson(req, ideSchema)
      return sendJson(res, 200, await guard(() => sessions.bindIde(id, input.ide)))
    } else if (action === 'ide' && method === 'DELETE') {
      req.resume()
      return sendJson(res, 200, await guard(() => sessions.bindIde(id, null)))
    } else if (action === 'messages' && method === 'POST') {
      const input = await readJson(req, sendSchema)
      return sendJson(res, 202, await guard(() => sessions.send(id, input.text, { fork: input.fork })))
    } else if (action === 'respond' && method === 'POST') {
      const input = await readJson(req, respondBodySchema)
      return sendJson(res, 200, await guard(() => sessions.respond(id, input.decision, input.answer, 'api')))
    } else if (action === 'interrupt' && method === 'POST') {
      req.resume()
      return sendJson(res, 200, await guard(() => sessions.interrupt(id)))
    } else if (action === 'model' && method === 'POST') {
      const input = await readJson(req, modelSchema)
      await guard(() => sessions.setModel(id, input.model))
      return sendJson(res, 200, { ok: true })
    } else if (action === 'permission-mode' && method === 'POST') {
      const input = await readJson(req, modeSchema)
      await guard(() => sessions.setPermissionMode(id, input.mode))
      return sendJson(res, 200, { ok: true })
    } else if (action === 'lines' && method === 'GET') {
      const query = linesQuerySchema.safeParse({
        after: url.searchParams.get('after') ?? undefined,
        limit: url.searchParams.get('limit') ?? undefined,
      })
      if (!query.success) throw new HttpError(400, describeZod(query.error))
      const view = await guard(() => sessions.view(id))
      return sendJson(res, 200, await sessions.lines(view.id, query.data.after, query.data.limit))
    } else if (action === 'events' && method === 'GET') {
      return streamLines(sessions, id, req, res, url)
    }
    req.resume()
    throw new HttpError(404, `no such session route: ${method} ${url.pathname}`)
  }
}

async function streamLines(
  sessions: SessionManager,
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const session = await guard(() => sessions.view(id))
  const header = req.headers['last-event-id']
  const from = Number((Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('after') ?? 0) || 0
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  res.write(': connected\n\n')
  const gone = () => res.destroyed || res.writableEnded
  const stop = await replayThenLive(sessions, session.id, from, {
    // A reader that is behind makes write() say false: the replay waits for it to drain.
    write: (seq, json) =>
      res.write(`id: ${seq}\nevent: line\ndata: ${json}\n\n`) || gone() ? Promise.resolve() : drained(res),
    gone,
  })
  if (gone()) stop()
  else res.on('close', stop)
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
