// `switchboard mcp`: lets another agent drive Claude Code sessions through the hub. Decisions are
// offered through MCP elicitation when the client supports it, and as pendingInputs otherwise.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import { HubApi, HubApiError } from '../client/api-client.js'
import type { HubConfig } from '../core/config.js'
import { describeZod } from '../core/errors.js'
import type { Logger } from '../core/log.js'
import type { PendingInput, RespondInput, SessionView } from '../core/session-api.js'
import { VERSION } from '../core/version.js'
import {
  createArgs,
  interruptArgs,
  listArgs,
  respondArgs,
  sendArgs,
  statusArgs,
  toolDefinitions,
} from './tools.js'

const DEFAULT_WAIT = 30

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean }

function text(value: unknown, isError = false): ToolResult {
  return {
    content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
    isError,
  }
}

/** What an agent needs from a session, without the transcript. */
function summary(view: SessionView) {
  return {
    sessionId: view.id,
    claudeSessionId: view.claudeSessionId,
    status: view.status,
    lastResult: view.lastResult,
    costUsd: view.costUsd,
    turns: view.turns,
    pendingInputs: view.pendingInputs,
    ...(view.pendingInputs.length
      ? { next: 'answer each pending input with claude_respond (decision, behavior allow|deny)' }
      : {}),
  }
}

/** An elicitation form for one pending input, and how to read the person's answer. */
function form(p: PendingInput): {
  message: string
  schema: Record<string, unknown>
  read(c: Record<string, unknown>): RespondInput
} {
  if (p.kind === 'question') {
    const questions =
      (p.input.questions as { question: string; options?: { label: string }[] }[] | undefined) ?? []
    const properties: Record<string, unknown> = {}
    questions.forEach((q, i) => {
      properties[`q${i}`] = { type: 'string', title: q.question, enum: (q.options ?? []).map((o) => o.label) }
    })
    return {
      message: 'Claude asks:',
      schema: { type: 'object', properties, required: Object.keys(properties) },
      read: (c) => ({
        behavior: 'allow',
        answers: Object.fromEntries(questions.map((q, i) => [q.question, String(c[`q${i}`] ?? '')])),
      }),
    }
  }
  const what =
    p.kind === 'plan'
      ? 'Approve Claude’s plan?'
      : `Allow ${p.tool_name}? ${p.description ?? JSON.stringify(p.input)}`
  return {
    message: what,
    schema: {
      type: 'object',
      properties: {
        approve: { type: 'boolean', title: 'Approve' },
        message: { type: 'string', title: 'Reason or feedback (when not approving)' },
      },
      required: ['approve'],
    },
    read: (c) =>
      c.approve === true
        ? { behavior: 'allow' }
        : { behavior: 'deny', message: typeof c.message === 'string' && c.message ? c.message : 'Denied' },
  }
}

export interface McpServerOptions {
  /** Lets the driving agent start sessions in `bypassPermissions` mode: off unless the owner says so. */
  allowBypassPermissions?: boolean
}

export async function runMcpServer(
  config: HubConfig,
  log: Logger,
  options: McpServerOptions = {},
): Promise<void> {
  const hub = new HubApi(config, log)
  const server = new Server({ name: 'switchboard', version: VERSION }, { capabilities: { tools: {} } })
  const canElicit = () => !!server.getClientCapabilities()?.elicitation

  /** Waits for the turn; asks the person through elicitation for each input the session needs. */
  async function settle(id: string, waitSeconds: number): Promise<SessionView> {
    const deadline = Date.now() + waitSeconds * 1000
    let view = await hub.settle(id, waitSeconds)
    while (canElicit() && view.pendingInputs.length && Date.now() < deadline) {
      for (const p of view.pendingInputs) {
        const f = form(p)
        const reply = await server.elicitInput({ message: f.message, requestedSchema: f.schema as never })
        if (reply.action === 'cancel') return hub.status(id)
        const answer: RespondInput =
          reply.action === 'accept'
            ? f.read(reply.content ?? {})
            : { behavior: 'deny', message: 'Declined by the user' }
        await hub.respond(id, p.decision, answer)
      }
      view = await hub.settle(id, Math.max(0, Math.ceil((deadline - Date.now()) / 1000)))
    }
    return view
  }

  function parse<T>(schema: z.ZodType<T>, args: unknown, tool: string): T {
    const parsed = schema.safeParse(args ?? {})
    if (!parsed.success) throw new HubApiError(400, `${tool}: ${describeZod(parsed.error)}`)
    return parsed.data
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDefinitions }))
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<ToolResult> => {
    const { name, arguments: args } = req.params
    try {
      switch (name) {
        case 'claude_create_session': {
          const a = parse(createArgs, args, name)
          // An agent that may pick bypassPermissions approves every tool call of its child itself.
          if (a.permissionMode === 'bypassPermissions' && !options.allowBypassPermissions)
            throw new HubApiError(
              403,
              `${name}: permissionMode bypassPermissions is refused; the owner may start switchboard mcp with --allow-bypass-permissions`,
            )
          const { prompt, cwd, waitSeconds, fork, ...rest } = a
          const view = await hub.create(prompt, {
            ...rest,
            cwd: cwd ?? process.cwd(),
            ...(fork && rest.resume ? { forkSession: true } : {}),
          })
          return text(summary(await settle(view.id, waitSeconds ?? DEFAULT_WAIT)))
        }
        case 'claude_send_message': {
          const a = parse(sendArgs, args, name)
          const view = await hub.send(a.sessionId, a.message, a.fork)
          return text(summary(await settle(view.id, a.waitSeconds ?? DEFAULT_WAIT)))
        }
        case 'claude_get_status': {
          const a = parse(statusArgs, args, name)
          return text(summary(await settle(a.sessionId, a.waitSeconds ?? 0)))
        }
        case 'claude_respond': {
          const a = parse(respondArgs, args, name)
          const answer: RespondInput =
            a.behavior === 'allow'
              ? {
                  behavior: 'allow',
                  ...(a.updatedInput ? { updatedInput: a.updatedInput } : {}),
                  ...(a.answers ? { answers: a.answers } : {}),
                }
              : { behavior: 'deny', message: a.message ?? 'Denied' }
          await hub.respond(a.sessionId, a.decision, answer)
          return text(summary(await settle(a.sessionId, a.waitSeconds ?? DEFAULT_WAIT)))
        }
        case 'claude_interrupt': {
          const a = parse(interruptArgs, args, name)
          return text(summary(await hub.interrupt(a.sessionId)))
        }
        case 'claude_list_sessions': {
          const a = parse(listArgs, args, name)
          return text({ sessions: (await hub.list(a.cwd)).slice(0, a.limit ?? 50) })
        }
        default:
          return text(`unknown tool: ${name}`, true)
      }
    } catch (err) {
      return text(err instanceof HubApiError ? err.message : `failed: ${(err as Error).message}`, true)
    }
  })

  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
  })
  await server.connect(new StdioServerTransport())
  log.info('mcp server ready')
  await closed
}
