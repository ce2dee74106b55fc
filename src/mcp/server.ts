// `switchboard mcp`: lets another agent drive Claude Code sessions through the hub with seed 004's
// six tools, and answer any session's prompts with two of Switchboard's own. A driven session's
// decisions are offered through MCP elicitation when the client supports it, and as pendingInputs
// otherwise.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { HubApi, HubApiError } from '../client/api-client.js'
import type { HubConfig } from '../core/config.js'
import type { Logger } from '../core/log.js'
import type { RespondInput, SessionView } from '../core/session-api.js'
import { serveTools, type ToolResult, type ToolSpec, tool } from '../core/tool-call.js'
import { VERSION } from '../core/version.js'
import { form } from './elicitation.js'
import { createHandlers } from './handlers.js'
import { type ToolName, tools } from './tools.js'

/** The seed's shape as JSON text, for clients that read only content, and as structured content. */
const success = (value: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value,
})

export interface McpServerOptions {
  /** Lets the driving agent start sessions whose tools run unasked (see handlers.ts): off unless the owner says so. */
  allowPreApproval?: boolean
}

export async function runMcpServer(
  config: HubConfig,
  log: Logger,
  options: McpServerOptions = {},
): Promise<void> {
  const hub = new HubApi(config, log, true, 'mcp')
  const server = new Server({ name: 'switchboard', version: VERSION }, { capabilities: { tools: {} } })
  const canElicit = () => !!server.getClientCapabilities()?.elicitation

  /** Waits for the turn; asks the person through elicitation for each input the session needs. */
  async function settle(id: string, waitSeconds: number): Promise<SessionView> {
    const deadline = Date.now() + waitSeconds * 1000
    let view = await hub.settle(id, waitSeconds)
    // Inputs already waiting are put to the person even when the caller would not wait.
    while (canElicit() && view.pendingInputs.length) {
      for (const p of view.pendingInputs) {
        const f = form(p)
        const reply = await server.elicitInput({ message: f.message, requestedSchema: f.schema as never })
        if (reply.action === 'cancel') return hub.call('session', { params: { id } })
        const answer: RespondInput =
          reply.action === 'accept'
            ? f.read(reply.content ?? {})
            : { behavior: 'deny', message: 'Declined by the user' }
        await hub.call('respond', { params: { id }, body: { decision: p.decision, answer } })
      }
      view = await hub.settle(id, Math.max(0, Math.ceil((deadline - Date.now()) / 1000)))
      if (Date.now() >= deadline) break
    }
    return view
  }

  const handlers = createHandlers({
    hub,
    settle,
    allowPreApproval: options.allowPreApproval === true,
  })

  const table = Object.fromEntries(
    Object.entries(tools).map(([name, spec]) => {
      const handler = handlers[name as ToolName] as (a: unknown) => Promise<Record<string, unknown>>
      return [name, tool(spec as ToolSpec, async (a) => success(await handler(a)))]
    }),
  )
  serveTools(server, table, (err, name) => {
    // The hub's answer to a call it refused is the caller's to act on, not a fault.
    if (!(err instanceof HubApiError)) log.error({ err, tool: name }, 'tool failed')
  })

  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
  })
  await server.connect(new StdioServerTransport())
  log.info('mcp server ready')
  await closed
}
