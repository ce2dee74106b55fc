// Driven sessions, for the CLI, `switchboard mcp` and the dashboard alike: list, start (or resume one
// from the history), message, answer, interrupt, stop, resume, switch model and permission mode, bind
// to an IDE, and read the transcript a page at a time or as a stream. A request about a session that
// another hub runs is passed to that hub first (forward.ts).
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { DRIVEN_AGENTS } from '../../core/agents.js'
import type { PartialPiece } from '../../core/api/rows.js'
import { conflict, forbidden } from '../../core/errors.js'
import { replayThenLive } from '../sessions/replay.js'
import { type Before, defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import { nameOf } from './principal.js'
import { sessionFileRoutes } from './session-files.js'
import { holdOpen, stillOperator } from './sse.js'

export function sessionRoutes(parts: HubParts, elsewhere: Before): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { sessions, creds, hub } = parts
  /** A route about one session, answered by the hub that runs it. */
  const about: typeof defineRoute = (a, c, name, handler) =>
    defineRoute(a, c, name, handler, { before: elsewhere })

  defineRoute(app, creds, 'sessions', async () => ({ sessions: await sessions.list() }))
  defineRoute(app, creds, 'agents', async () => ({ agents: [...DRIVEN_AGENTS] }))
  defineRoute(app, creds, 'history', async (_c, { query }) => ({ sessions: await sessions.listAll(query) }))

  defineRoute(app, creds, 'createSession', async (_c, { body, who }) => {
    // Another binary, or another transport: what a local process may ask for, never a browser.
    if (body.setup && who.kind !== 'admin') throw forbidden('setup needs the admin token')
    return sessions.create(body.prompt, body.options, {
      topics: body.topics,
      setup: body.setup,
      peer: body.peer,
      agent: body.agent,
      startedBy: nameOf(who),
    })
  })

  defineRoute(app, creds, 'pruneSessions', async () => ({ removed: await sessions.prune() }))

  about(app, creds, 'session', (_c, { params, query }) => sessions.status(params.id, query.wait))

  about(app, creds, 'removeSession', async (_c, { params }) => {
    const view = await sessions.view(params.id)
    if (view.live) throw conflict(`session ${view.id} is running; stop it first`)
    return { removed: await sessions.prune([view.id]) }
  })

  about(app, creds, 'sendMessage', (_c, { params, body }) =>
    sessions.send(params.id, body.text, { fork: body.fork }),
  )
  sessionFileRoutes(app, parts, elsewhere)
  about(app, creds, 'respond', (_c, { params, body, who }) =>
    sessions.respond(params.id, body.decision, body.answer, nameOf(who)),
  )
  about(app, creds, 'interrupt', (_c, { params }) => sessions.interrupt(params.id))
  about(app, creds, 'stopSession', (_c, { params }) => sessions.stop(params.id))
  about(app, creds, 'resumeSession', (_c, { params }) => sessions.resume(params.id))
  about(app, creds, 'bindIde', (_c, { params, body }) => sessions.bindIde(params.id, body.ide))
  about(app, creds, 'unbindIde', (_c, { params }) => sessions.bindIde(params.id, null))
  about(app, creds, 'nameSession', (_c, { params, body }) => sessions.setTitle(params.id, body.title))

  about(app, creds, 'setModel', async (_c, { params, body }) => {
    await sessions.setModel(params.id, body.model)
    return { ok: true as const }
  })
  about(app, creds, 'setPermissionMode', async (_c, { params, body }) => {
    await sessions.setPermissionMode(params.id, body.mode)
    return { ok: true as const }
  })

  about(app, creds, 'sessionLines', async (_c, { params, query }) => {
    const view = await sessions.view(params.id)
    return sessions.lines(view.id, query.after, query.limit)
  })

  /**
   * Every line from where the reader left off (Last-Event-ID, or ?after=), then live: none lost, none
   * twice, the stored ones a page at a time (hub/sessions/replay.ts). Between them, `partial` events
   * (no id, so a resume is unaffected): the assistant text being written, the text so far first, then
   * each piece.
   */
  about(app, creds, 'sessionStream', async (c, { params, who }) => {
    const mayStillSee = stillOperator(hub.store, who)
    const view = await sessions.view(params.id)
    const from = Number(c.req.header('last-event-id') ?? c.req.query('after') ?? 0) || 0
    return streamSSE(c, async (stream) => {
      let replaying = true
      const partial = (piece: PartialPiece) =>
        stream.writeSSE({ event: 'partial', data: JSON.stringify(piece) })
      // Pieces during the replay are left out: the text so far follows it.
      const offPartial = sessions.onPartialOf(view.id, (piece) => {
        if (!replaying) void partial(piece)
      })
      stream.onAbort(offPartial)
      const offLines = await replayThenLive(sessions, view.id, from, {
        write: (seq, json) => stream.writeSSE({ id: String(seq), event: 'line', data: json }),
        gone: () => stream.aborted,
      })
      stream.onAbort(offLines)
      if (stream.aborted) {
        offLines()
        return
      }
      replaying = false
      const sofar = sessions.partial(view.id)
      if (sofar) await partial(sofar)
      await holdOpen(stream, mayStillSee)
    })
  })
  return app
}
