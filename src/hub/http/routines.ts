// The routines' routes (issue 25): adding, listing, pausing, removing, firing and testing a routine,
// and its runs. What they do is hub/routines/'s; here a request becomes a call.
import { Hono } from 'hono'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'

export function routineRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { creds, routines } = parts

  defineRoute(app, creds, 'routines', async () => ({ routines: await routines.list() }))
  defineRoute(app, creds, 'addRoutine', (_c, { body }) => routines.add(body))
  defineRoute(app, creds, 'routine', (_c, { params }) => routines.get(params.name))
  defineRoute(app, creds, 'removeRoutine', async (_c, { params }) => {
    await routines.remove(params.name)
    return { removed: params.name }
  })
  defineRoute(app, creds, 'pauseRoutine', (_c, { params }) => routines.pause(params.name, true))
  defineRoute(app, creds, 'resumeRoutine', (_c, { params }) => routines.pause(params.name, false))
  defineRoute(app, creds, 'routineRuns', async (_c, { params, query }) => ({
    runs: await routines.runs(params.name, query.limit),
  }))
  defineRoute(app, creds, 'fireRoutine', async (_c, { params, body, who }) => {
    await routines.mayStart(params.name, who.kind === 'admin')
    return routines.fire(params.name, body.event)
  })
  defineRoute(app, creds, 'replayRun', async (_c, { params, who }) => {
    await routines.mayStart(params.name, who.kind === 'admin')
    return routines.replay(params.name, params.run)
  })
  defineRoute(app, creds, 'testRoutine', (_c, { params, body }) => routines.test(params.name, body))
  return app
}
