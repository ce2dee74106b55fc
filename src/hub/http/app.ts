// The hub's one HTTP application: every route (webhooks, senders, the sockets, the API of the CLI and
// the dashboard, the page, the OpenAPI document) in one Hono app made of one sub-app per area, behind
// one guard (the target; Host and Origin over TCP), with one way to answer a failure. Routes come from the
// contract (core/api/routes.ts); who may call each is checked where it is defined (define.ts).
import { Hono } from 'hono'
import { isDomainError, notFound } from '../../core/errors.js'
import { chatRoutes } from './chat.js'
import { claudeHookRoutes } from './claude-hooks.js'
import { decisionRoutes } from './decisions.js'
import type { HubApp, HubEnv } from './env.js'
import { onError, refusal } from './errors.js'
import { passOnToItsHub } from './forward.js'
import { methodsOn, wrongMethod } from './methods.js'
import { PAGE_PATHS, pageRoutes, securityHeaders } from './page.js'
import type { HubParts } from './parts.js'
import { peopleRoutes } from './people.js'
import { pushRoutes } from './push.js'
import { checkHostAndOrigin, checkTarget } from './request-guard.js'
import { routineRoutes } from './routines.js'
import { senderAdminRoutes } from './sender-admin.js'
import { senderRoutes } from './senders.js'
import { sessionRoutes } from './sessions.js'
import { sourceAdminRoutes } from './source-admin.js'
import { stateRoutes } from './state.js'
import { systemRoutes } from './system.js'
import { transcriptionRoutes } from './transcriptions.js'
import { usageRoutes } from './usage.js'
import { webhookRoutes } from './webhooks.js'

export function createApp(parts: HubParts): HubApp {
  const app = new Hono<HubEnv>()
  // The home's socket is reachable only through the home's permissions: no browser gets there.
  for (const path of PAGE_PATHS) app.use(path, securityHeaders)
  app.route('/', systemRoutes(parts))
  app.route('/', webhookRoutes(parts))
  app.route('/', senderRoutes(parts))
  app.route('/', peopleRoutes(parts))
  app.route('/', senderAdminRoutes(parts))
  app.route('/', sourceAdminRoutes(parts))
  app.route('/', stateRoutes(parts))
  app.route('/', claudeHookRoutes(parts))
  app.route('/', decisionRoutes(parts))
  app.route('/', sessionRoutes(parts, passOnToItsHub(parts.hub.store, parts.forwarding)))
  app.route('/', transcriptionRoutes(parts))
  app.route('/', chatRoutes(parts))
  app.route('/', pushRoutes(parts))
  app.route('/', routineRoutes(parts))
  app.route('/', usageRoutes(parts))
  app.route('/', pageRoutes())
  app.notFound((c) => {
    const path = c.req.path
    if (!methodsOn(path).length) return refusal(notFound(`no such path: ${path}`))
    return wrongMethod(c.req.method, path)
  })
  app.onError(onError(parts.log))
  return {
    // The guard runs before Hono rather than as its middleware: a route that is one handler (the
    // webhook's) is then called at once, without the middleware chain (bench:router).
    fetch(request, env) {
      try {
        checkTarget(env.incoming.url)
        if (!env.local) checkHostAndOrigin(env.incoming, parts.hostRules())
      } catch (err) {
        if (isDomainError(err)) return refusal(err)
        throw err
      }
      return app.fetch(request, env)
    },
  }
}
