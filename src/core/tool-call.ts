// The tools of an MCP server, the one way both of ours (`switchboard channel`, `switchboard mcp`) have
// them: a table of tools, each its description, the zod schema of its arguments and its handler;
// tools/list is derived from the table, and a call's arguments are checked before the handler runs.
// Whatever goes wrong comes back as one line a model can act on: `unknown tool: <name>`,
// `<tool>: <field>: <problem>`, or `<tool>: <what the handler's error said>`.
import { z } from 'zod'
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

/**
 * The answer to one tools/call. An error its handler throws that is no DomainError is a fault, not the
 * caller's doing: `onFault` hears of it (to log it), and the caller still gets its one line.
 */
export async function callTool(
  table: Record<string, Tool>,
  name: string,
  args: unknown,
  onFault: (err: unknown, tool: string) => void = () => {},
): Promise<ToolResult> {
  // Own names only: `toString` is no tool, whatever every object inherits.
  const t = Object.hasOwn(table, name) ? table[name] : undefined
  if (!t) return toolError(`unknown tool: ${name}`)
  const parsed = t.args.safeParse(args ?? {})
  if (!parsed.success) return toolError(`${name}: ${describeZod(parsed.error)}`)
  try {
    return await t.run(parsed.data)
  } catch (err) {
    if (!(err instanceof DomainError)) onFault(err, name)
    return toolError(`${name}: ${err instanceof Error ? err.message : String(err)}`)
  }
}
