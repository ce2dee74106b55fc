// What `codex app-server` says, in the session's one line model (agents/agent-process.ts): its
// thread is the session's init line, an agent message streams as stream_event deltas and ends as an
// assistant text line, a command is an assistant tool_use (Bash, with the command) and its end a
// user tool_result, and a turn's end is a result line with the turn's tokens. Codex prices nothing,
// so no result says what a turn cost: a Codex session's cost stays unknown (0 in its record).
import * as z from 'zod'
import type { CliLine } from '../../claude/messages.js'

const itemSchema = z
  .object({
    type: z.string(),
    id: z.string(),
    text: z.string().optional().catch(undefined),
    command: z.string().optional().catch(undefined),
    aggregatedOutput: z.string().nullable().optional().catch(undefined),
    exitCode: z.number().nullable().optional().catch(undefined),
    status: z.string().optional().catch(undefined),
  })
  .passthrough()

const breakdownSchema = z.object({
  totalTokens: z.number(),
  inputTokens: z.number(),
  cachedInputTokens: z.number().catch(0),
  cacheWriteInputTokens: z.number().catch(0),
  outputTokens: z.number(),
  reasoningOutputTokens: z.number().catch(0),
})
type Breakdown = z.infer<typeof breakdownSchema>

const tokenUsageSchema = z.object({ tokenUsage: z.object({ total: breakdownSchema, last: breakdownSchema }) })
const deltaSchema = z.object({ itemId: z.string(), delta: z.string() })
const itemNoticeSchema = z.object({ item: itemSchema })
const turnNoticeSchema = z.object({
  turn: z.object({
    id: z.string(),
    status: z.string(),
    error: z.object({ message: z.string() }).nullable().optional().catch(null),
  }),
})

/** The name a command takes in the line model: Claude Code's shell tool, which every surface knows. */
export const CODEX_SHELL_TOOL = 'Bash'

const ZERO: Breakdown = {
  totalTokens: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
}

export class CodexLines {
  /** Commands whose tool_use line was written (an approval may come before the item starts). */
  private readonly toolUses = new Set<string>()
  private lastText: string | null = null
  /**
   * The thread's tokens before the turn's first model call, and as Codex last counted them. The
   * first is read from the turn's first count (its total less that call's own), not kept from the
   * turn before: a resumed thread's first count includes the tokens of every earlier process.
   */
  private tokensAtTurnStart: Breakdown | null = null
  private tokens: Breakdown = ZERO

  constructor(private readonly threadId: () => string) {}

  /** The session's opening line: the thread's id is what a resume takes. */
  init(fields: { cwd: string; model?: string }): CliLine {
    return {
      type: 'system',
      subtype: 'init',
      session_id: this.threadId(),
      cwd: fields.cwd,
      ...(fields.model ? { model: fields.model } : {}),
      agent: 'codex',
    }
  }

  /** A command's tool_use line, once per command; [] when it was written already. */
  toolUse(itemId: string, command: string): CliLine[] {
    if (this.toolUses.has(itemId)) return []
    this.toolUses.add(itemId)
    return [
      {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: itemId, name: CODEX_SHELL_TOOL, input: { command } }],
        },
        session_id: this.threadId(),
      },
    ]
  }

  /** The lines a notification makes; [] for those the line model has no place for. */
  heard(method: string, params: Record<string, unknown>): CliLine[] {
    switch (method) {
      case 'turn/started':
        this.tokensAtTurnStart = null
        this.lastText = null
        return []
      case 'item/started':
        return this.started(params)
      case 'item/agentMessage/delta': {
        const d = deltaSchema.safeParse(params)
        if (!d.success || d.data.delta === '') return []
        return [
          streamEvent({ type: 'content_block_delta', delta: { type: 'text_delta', text: d.data.delta } }),
        ]
      }
      case 'item/completed':
        return this.completed(params)
      case 'thread/tokenUsage/updated': {
        const u = tokenUsageSchema.safeParse(params)
        if (!u.success) return []
        this.tokens = u.data.tokenUsage.total
        this.tokensAtTurnStart ??= minus(u.data.tokenUsage.total, u.data.tokenUsage.last)
        return []
      }
      case 'turn/completed':
        return this.turnEnded(params)
      default:
        return []
    }
  }

  private started(params: Record<string, unknown>): CliLine[] {
    const parsed = itemNoticeSchema.safeParse(params)
    if (!parsed.success) return []
    const { item } = parsed.data
    if (item.type === 'agentMessage') return [streamEvent({ type: 'content_block_start' })]
    if (item.type === 'commandExecution') return this.toolUse(item.id, item.command ?? '')
    return []
  }

  private completed(params: Record<string, unknown>): CliLine[] {
    const parsed = itemNoticeSchema.safeParse(params)
    if (!parsed.success) return []
    const { item } = parsed.data
    if (item.type === 'agentMessage' && item.text) {
      this.lastText = item.text
      return [
        {
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: item.text }] },
          session_id: this.threadId(),
        },
      ]
    }
    if (item.type !== 'commandExecution') return []
    const ran = item.status === 'completed' && (item.exitCode ?? 0) === 0
    const output =
      item.aggregatedOutput ??
      (item.status === 'declined' ? 'the command was declined' : `the command ${item.status ?? 'ended'}`)
    return [
      ...this.toolUse(item.id, item.command ?? ''),
      {
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: item.id, content: output, is_error: !ran }],
        },
        session_id: this.threadId(),
      },
    ]
  }

  private turnEnded(params: Record<string, unknown>): CliLine[] {
    const parsed = turnNoticeSchema.safeParse(params)
    if (!parsed.success) return []
    const { status, error } = parsed.data.turn
    const used = this.tokensAtTurnStart ? minus(this.tokens, this.tokensAtTurnStart) : ZERO
    this.tokensAtTurnStart = null
    const ok = status === 'completed'
    return [
      {
        type: 'result',
        // Claude Code's words for a turn's end, which the recorder reads: an interrupted turn is an
        // error during execution, as Claude Code's is.
        subtype: ok ? 'success' : 'error_during_execution',
        is_error: !ok,
        ...(ok && this.lastText !== null ? { result: this.lastText } : {}),
        ...(!ok ? { codex_status: status, ...(error ? { error: error.message } : {}) } : {}),
        session_id: this.threadId(),
        num_turns: 1,
        usage: {
          input_tokens: used.inputTokens,
          cache_read_input_tokens: used.cachedInputTokens,
          cache_creation_input_tokens: used.cacheWriteInputTokens,
          output_tokens: used.outputTokens,
          reasoning_output_tokens: used.reasoningOutputTokens,
        },
      },
    ]
  }
}

function streamEvent(event: Record<string, unknown>): CliLine {
  return { type: 'stream_event', event }
}

function minus(a: Breakdown, b: Breakdown): Breakdown {
  return {
    totalTokens: a.totalTokens - b.totalTokens,
    inputTokens: a.inputTokens - b.inputTokens,
    cachedInputTokens: a.cachedInputTokens - b.cachedInputTokens,
    cacheWriteInputTokens: a.cacheWriteInputTokens - b.cacheWriteInputTokens,
    outputTokens: a.outputTokens - b.outputTokens,
    reasoningOutputTokens: a.reasoningOutputTokens - b.reasoningOutputTokens,
  }
}
