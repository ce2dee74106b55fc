// The stream-json protocol of `claude -p --input-format stream-json --output-format stream-json`
// (PROTOCOLS.md §3): every line the CLI writes or reads, as zod schemas. Unknown fields and unknown
// message types are kept (passthrough), because newer CLIs add them all the time.
import { z } from 'zod'

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

export const systemInitSchema = z
  .object({
    type: z.literal('system'),
    subtype: z.literal('init'),
    session_id: z.string(),
    cwd: z.string().optional(),
    model: z.string().optional(),
    permissionMode: z.string().optional(),
    tools: z.array(z.string()).optional(),
    claude_code_version: z.string().optional(),
  })
  .passthrough()

export const assistantSchema = z
  .object({
    type: z.literal('assistant'),
    session_id: z.string().optional(),
    message: z.object({ id: z.string().optional(), content: z.array(looseObject) }).passthrough(),
  })
  .passthrough()

export const resultSchema = z
  .object({
    type: z.literal('result'),
    subtype: z.string(),
    is_error: z.boolean().optional(),
    result: z.string().optional(),
    session_id: z.string().optional(),
    num_turns: z.number().optional(),
    total_cost_usd: z.number().optional(),
    terminal_reason: z.string().optional(),
  })
  .passthrough()

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
