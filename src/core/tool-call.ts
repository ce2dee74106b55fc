// The tools of an MCP server, the one way both of ours (`switchboard channel`, `switchboard mcp`) have
// them: a table of tools, each its description, the zod schema of its arguments and its handler;
// tools/list is derived from the table, and a call's arguments are checked before the handler runs.
// Whatever goes wrong comes back as one line, of one of the two kinds the MCP specification has:
// a call that names no tool of ours, or is no tools/call at all (no name, arguments that are no
// object), is a protocol error, -32602 Invalid params (`unknown tool "<name>"; the tools are …`,
// `tools/call needs …`); a tool that was called and failed is an isError result the model reads and
// can act on (`<tool>: <field>: <problem>`, `<tool>: <what the handler's error said>`). Arguments
// a tool's schema refuses are the second kind, as the specification has them since 2025-11-25.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import * as z from 'zod'
import { DomainError, describeZod } from './errors.js'

// A type, not an interface: the MCP SDK's result type takes it only with an implicit index signature.
export type ToolResult = {
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

/** What tools/list says of a tool. */
export interface ToolSpec {
  description: string
  args: z.ZodObject
  /** What a call answers with (its structuredContent), when it answers with one. */
  result?: z.ZodObject
}

export interface Tool<A extends z.ZodObject = z.ZodObject> extends ToolSpec {
  args: A
  run(args: z.output<A>): Promise<ToolResult>
}

/** A tool whose handler is typed by its own arguments' schema, for a table of tools of all kinds. */
export function tool<A extends z.ZodObject>(spec: ToolSpec & { args: A }, run: Tool<A>['run']): Tool {
  return { ...spec, run } as Tool
}

export const textResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }] })
export const toolError = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true })

type ObjectSchema = { type: 'object'; [key: string]: unknown }

/** Draft-07: what the MCP SDK's own zod conversion emits, and what its client's Ajv compiles as is. */
function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): ObjectSchema {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as ObjectSchema
}

/** The answer to tools/list. */
export function listTools(table: Record<string, ToolSpec>) {
  return Object.entries(table).map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: jsonSchema(t.args, 'input'),
    ...(t.result ? { outputSchema: jsonSchema(t.result, 'output') } : {}),
  }))
}

/** JSON-RPC's codes for a request a server will not run (the MCP SDK sends a thrown error's `code` and message). */
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602

/** A request refused as a whole, before any tool ran: a JSON-RPC error, not a tool's result. */
export class ProtocolError extends Error {
  override name = 'ProtocolError'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

const NAME_NEEDED = 'tools/call needs params.name (a string)'
const ARGUMENTS_NEEDED = 'tools/call needs params.arguments to be an object (the tool’s arguments by name)'
const callParams = z.object(
  {
    name: z.string({ error: NAME_NEEDED }),
    arguments: z.record(z.string(), z.unknown(), { error: ARGUMENTS_NEEDED }).optional(),
  },
  { error: NAME_NEEDED },
)

/**
 * The answer to one tools/call, from its params as the client sent them. An error its handler throws
 * that is no DomainError is a fault, not the caller's doing: `onFault` hears of it (to log it), and
 * the caller still gets its one line. Throws a ProtocolError for a call that reaches no tool.
 */
export async function callTool(
  table: Record<string, Tool>,
  params: unknown,
  onFault: (err: unknown, tool: string) => void = () => {},
): Promise<ToolResult> {
  const call = callParams.safeParse(params)
  if (!call.success) throw new ProtocolError(INVALID_PARAMS, call.error.issues[0]?.message ?? NAME_NEEDED)
  const { name } = call.data
  // Own names only: `toString` is no tool, whatever every object inherits.
  const t = Object.hasOwn(table, name) ? table[name] : undefined
  if (!t)
    throw new ProtocolError(
      INVALID_PARAMS,
      `unknown tool ${JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)}; the tools are ${Object.keys(table).join(', ')}`,
    )
  const parsed = t.args.safeParse(call.data.arguments ?? {})
  if (!parsed.success) return toolError(`${name}: ${describeZod(parsed.error)}`)
  try {
    return await t.run(parsed.data)
  } catch (err) {
    if (!(err instanceof DomainError)) onFault(err, name)
    return toolError(`${name}: ${err instanceof Error ? err.message : String(err)}`)
  }
}

/**
 * Serves the tools on an MCP server: tools/list derived from the table, tools/call through callTool.
 * Both are answered by the server's fallback, which is handed each request as the client sent it: a
 * handler registered for tools/call is handed it only once the SDK's own schema passed it, and the
 * SDK answers a call that fails that schema with -32603 and zod's issues as JSON. Any other request
 * nothing answers is refused as the SDK refuses it.
 */
export function serveTools(
  server: Server,
  table: Record<string, Tool>,
  onFault: (err: unknown, tool: string) => void,
): void {
  const listed = listTools(table)
  server.fallbackRequestHandler = async (request) => {
    if (request.method === 'tools/list') return { tools: listed }
    if (request.method === 'tools/call') return callTool(table, request.params, onFault)
    throw new ProtocolError(METHOD_NOT_FOUND, 'Method not found')
  }
}
