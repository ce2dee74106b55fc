// Claude Code's hooks, one route for every event (POST /api/claude-hooks/:event): the hook's input as
// Claude Code sends it in, the output it expects for that event back. Down the home's socket, or with
// the admin token; what the session's environment says comes as headers (core/claude-hooks.ts HOOK_HEADERS).
import { Hono } from 'hono'
import { agentSchema } from '../../core/agents.js'
import { HOOK_HEADERS } from '../../core/claude-hooks.js'
import { invalid } from '../../core/errors.js'
import { GEMINI_HOOK_EVENT } from '../../core/gemini-hooks.js'
import { subscriberNameSchema } from '../../core/hub-protocol.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'

export function claudeHookRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub, creds, terminalHooks } = parts

  defineRoute(app, creds, 'claudeHook', (c, { params, body }) => {
    if (body.hook_event_name !== params.event)
      throw invalid(`the path names ${params.event}, the input's hook_event_name ${body.hook_event_name}`)
    const timeout = Number(c.req.header(HOOK_HEADERS.timeout) ?? '')
    // An unset variable reaches the header as nothing: no name, the folder's is taken.
    const name = subscriberNameSchema.safeParse(c.req.header(HOOK_HEADERS.name) ?? '')
    // Another agent's hook (Codex's, Gemini CLI's) says which it is; none: Claude Code's own.
    const agent = c.req.header(HOOK_HEADERS.agent)
    const parsedAgent = agent === undefined ? null : agentSchema.safeParse(agent)
    if (parsedAgent && !parsedAgent.success)
      throw invalid(`${HOOK_HEADERS.agent}: "${agent}" is not one of ${agentSchema.options.join(', ')}`)
    // Gemini CLI's one hook is its BeforeTool, in words of its own (core/gemini-hooks.ts).
    if ((parsedAgent?.data === 'gemini') !== (params.event === GEMINI_HOOK_EVENT))
      throw invalid(`${GEMINI_HOOK_EVENT} is Gemini CLI’s hook, and the one Switchboard takes from it`)
    return terminalHooks.handle(params.event, body, {
      // Aborted when Claude Code closes the request: the dialog was answered at the terminal.
      signal: c.req.raw.signal,
      timeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : null,
      name: name.success ? name.data : null,
      agent: parsedAgent?.data ?? 'claude',
    })
  })

  defineRoute(app, creds, 'terminalSessions', async () => ({
    sessions: await hub.store.listTerminalSessions(),
  }))
  return app
}
