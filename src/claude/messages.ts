// The stream-json protocol of `claude -p --input-format stream-json --output-format stream-json`
// (PROTOCOLS.md §3): every line the CLI writes or reads, as zod schemas. A line is stored and passed on
// whole, unknown fields and message types too, because newer CLIs add them all the time; the readers
// below (initOf, resultOf) take from one the fields a surface uses.
import * as z from 'zod'

const looseObject = z.object({}).passthrough()

// --- lines the host writes to the CLI's stdin ---------------------------------------------------

/** A user turn. The `message` wrapper is required: a line without it kills the CLI. */
export const userInputSchema = z
  .object({
    type: z.literal('user'),
    message: z.object({
      role: z.literal('user'),
      content: z.union([z.string().min(1), z.array(looseObject).min(1)]),
    }),
    parent_tool_use_id: z.string().nullable().optional(),
    session_id: z.string().optional(),
    uuid: z.string().optional(),
  })
  .passthrough()
export type UserInput = z.infer<typeof userInputSchema>

export const controlRequestSchema = z.object({
  type: z.literal('control_request'),
  request_id: z.string().min(1),
  request: z.object({ subtype: z.string().min(1) }).passthrough(),
})
export type ControlRequest = z.infer<typeof controlRequestSchema>

export const controlResponseSchema = z.object({
  type: z.literal('control_response'),
  response: z.discriminatedUnion('subtype', [
    z
      .object({ subtype: z.literal('success'), request_id: z.string(), response: looseObject.optional() })
      .passthrough(),
    z.object({ subtype: z.literal('error'), request_id: z.string(), error: z.string() }).passthrough(),
  ]),
})
export type ControlResponse = z.infer<typeof controlResponseSchema>

export const controlCancelSchema = z.object({
  type: z.literal('control_cancel_request'),
  request_id: z.string(),
})

/** Everything a host may write. The writer refuses anything else before it reaches the CLI. */
export const hostLineSchema = z.union([userInputSchema, controlRequestSchema, controlResponseSchema])
export type HostLine = z.infer<typeof hostLineSchema>

// --- lines the CLI writes to stdout -------------------------------------------------------------

/** A field of another type than the one read reads as absent: the line is read as far as it goes. */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined)

/** The line that opens a session: Claude Code's own id for it, and what it runs with. */
export const systemInitSchema = z.object({
  type: z.literal('system'),
  subtype: z.literal('init'),
  session_id: lenient(z.string()),
  cwd: lenient(z.string()),
  model: lenient(z.string()),
  permissionMode: lenient(z.string()),
  tools: lenient(z.array(z.string())),
  claude_code_version: lenient(z.string()),
})
export type SystemInit = z.output<typeof systemInitSchema>

/** The line that ends a turn: how (`subtype`, `is_error`), its last text, and what it cost. */
export const resultSchema = z.object({
  type: z.literal('result'),
  subtype: lenient(z.string()),
  is_error: lenient(z.boolean()),
  result: lenient(z.string()),
  session_id: lenient(z.string()),
  num_turns: lenient(z.number()),
  total_cost_usd: lenient(z.number()),
  terminal_reason: lenient(z.string()),
})
export type ResultLine = z.output<typeof resultSchema>

/** The line read as a session's opening line, or null when it is another. */
export function initOf(line: Record<string, unknown>): SystemInit | null {
  return line.type === 'system' && line.subtype === 'init' ? systemInitSchema.parse(line) : null
}

/** The line read as a turn's end, or null when it is another. */
export function resultOf(line: Record<string, unknown>): ResultLine | null {
  return line.type === 'result' ? resultSchema.parse(line) : null
}

/** The content blocks of a line's message (assistant and user lines carry one): the objects among them. */
export function contentBlocks(line: Record<string, unknown>): Record<string, unknown>[] {
  const message = line.message
  const content =
    message !== null && typeof message === 'object' ? (message as { content?: unknown }).content : undefined
  return Array.isArray(content)
    ? content.filter(
        (b): b is Record<string, unknown> => b !== null && typeof b === 'object' && !Array.isArray(b),
      )
    : []
}

/** `can_use_tool`: the CLI asks the host whether a tool may run (with --permission-prompt-tool stdio). */
export const canUseToolSchema = z
  .object({
    subtype: z.literal('can_use_tool'),
    tool_name: z.string(),
    input: z.record(z.string(), z.unknown()),
    tool_use_id: z.string().optional(),
    description: z.string().optional(),
    display_name: z.string().optional(),
    title: z.string().optional(),
    permission_suggestions: z.array(z.unknown()).optional(),
    blocked_path: z.string().optional(),
    decision_reason: z.string().optional(),
    mcp_server: z.string().optional(),
  })
  .passthrough()
export type CanUseTool = z.infer<typeof canUseToolSchema>

/** Any line the CLI prints: typed where we rely on it, kept whole either way. */
export const cliLineSchema = z.object({ type: z.string().min(1) }).passthrough()
export type CliLine = z.infer<typeof cliLineSchema>

/**
 * The rule of cliLineSchema, without copying the object: it runs on every line the CLI prints, and
 * the copy is most of the decoder's cost (bench/codec). messages.test.ts holds the two to agreement.
 */
export function checkCliLine(value: unknown): { ok: true; value: CliLine } | { ok: false; reason: string } {
  const type =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as { type?: unknown }).type
      : undefined
  return typeof type === 'string' && type.length > 0
    ? { ok: true, value: value as CliLine }
    : { ok: false, reason: 'a line needs a non-empty "type"' }
}

export type PermissionAnswer =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: unknown[] }
  | { behavior: 'deny'; message: string; interrupt?: boolean }
