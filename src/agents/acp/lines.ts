// What an ACP agent says, in the session's one line model (agents/agent-process.ts): the session is
// the init line, `agent_message_chunk`s stream as stream_event deltas and end as one assistant text
// line (when a tool call starts or the turn ends), a tool call is an assistant tool_use (an
// `execute` call is Bash with its command, as every surface knows it) and its end, completed or
// failed, a user tool_result; the prompt's answer is the result line, with the tokens where the
// agent gives them (Gemini CLI in `_meta.quota`, others in the draft `usage`). No ACP agent prices
// a turn, so no result says what it cost.
import type { SessionUpdate, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk'
import * as z from 'zod'
import type { CliLine } from '../../claude/messages.js'
import type { AcpAgentName } from '../../core/agents.js'

/** The tool names the line model gives each ACP tool kind; a kind not here keeps the agent's title. */
const TOOL_NAMES: Record<string, string> = {
  execute: 'Bash',
  edit: 'Edit',
  read: 'Read',
  search: 'Grep',
  fetch: 'WebFetch',
  delete: 'Edit',
  move: 'Edit',
}

const geminiQuotaSchema = z.object({
  quota: z.object({
    token_count: z.object({ input_tokens: z.number(), output_tokens: z.number() }),
  }),
})
const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedReadTokens: z.number().nullish(),
  cachedWriteTokens: z.number().nullish(),
  thoughtTokens: z.number().nullish(),
})

/** A tool call as the line model names it: its tool and input. */
export function toolOf(call: ToolCall | ToolCallUpdate): { name: string; input: Record<string, unknown> } {
  const raw = isObj(call.rawInput) ? call.rawInput : {}
  const kind = call.kind ?? 'other'
  const name = TOOL_NAMES[kind] ?? call.title ?? call.name ?? 'tool'
  if (kind === 'execute') {
    const command = typeof raw.command === 'string' ? raw.command : (call.title ?? '')
    return { name, input: { ...raw, command } }
  }
  return { name, input: Object.keys(raw).length ? raw : { title: call.title ?? '' } }
}

type Call = ToolCall | ToolCallUpdate

export class AcpLines {
  /** What each tool call said of itself so far: an update says only what changed. */
  private readonly calls = new Map<string, Call>()
  private readonly toolUses = new Set<string>()
  private readonly toolResults = new Set<string>()
  /** The assistant text of the message being written, not yet a line of its own. */
  private text = ''
  /** The last assistant text of the turn: its result. */
  private lastText: string | null = null

  constructor(
    private readonly agent: AcpAgentName,
    private readonly sessionId: () => string,
  ) {}

  /** The session's opening line: the session's id is what a resume takes. */
  init(fields: { cwd: string; model?: string }): CliLine {
    return {
      type: 'system',
      subtype: 'init',
      session_id: this.sessionId(),
      cwd: fields.cwd,
      ...(fields.model ? { model: fields.model } : {}),
      agent: this.agent,
    }
  }

  /** A line the adapter writes into the session itself (a wait it makes, and why). */
  notice(text: string): CliLine {
    return { type: 'system', subtype: 'notice', text, session_id: this.sessionId(), agent: this.agent }
  }

  /** The lines a `session/update` makes; [] for those the line model has no place for. */
  update(update: SessionUpdate): CliLine[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        if (update.content.type !== 'text' || update.content.text === '') return []
        const starting = this.text === ''
        this.text += update.content.text
        return [
          ...(starting ? [streamEvent({ type: 'content_block_start' })] : []),
          streamEvent({
            type: 'content_block_delta',
            delta: { type: 'text_delta', text: update.content.text },
          }),
        ]
      }
      case 'tool_call':
      case 'tool_call_update': {
        const call = this.merged(update)
        const ended = call.status === 'completed' || call.status === 'failed'
        // An agent that gives a command's raw input gives the command in it, maybe in a later
        // update (OpenCode); one that gives none has it as the title (Gemini CLI).
        const known =
          call.kind !== 'execute' || !isObj(call.rawInput) || typeof call.rawInput.command === 'string'
        return [...this.flush(), ...(known || ended ? this.toolUse(call) : []), ...this.toolResult(call)]
      }
      default:
        return []
    }
  }

  /** A tool call's tool_use line, once per call; [] when it was written already. */
  toolUse(update: Call): CliLine[] {
    if (this.toolUses.has(update.toolCallId)) return []
    const call = this.merged(update)
    this.toolUses.add(call.toolCallId)
    const { name, input } = toolOf(call)
    return [
      ...this.flush(),
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: call.toolCallId, name, input }] },
        session_id: this.sessionId(),
      },
    ]
  }

  /** The prompt's answer: the text still being written, then the turn's result line. */
  ended(stopReason: string, response: Record<string, unknown>): CliLine[] {
    const lines = this.flush()
    const ok = stopReason === 'end_turn'
    const result = this.lastText
    this.lastText = null
    return [
      ...lines,
      {
        type: 'result',
        // Claude Code's words for a turn's end, which the recorder reads: a cancelled turn is an
        // error during execution, as Claude Code's interrupted one is.
        subtype: ok ? 'success' : 'error_during_execution',
        is_error: !ok,
        ...(ok && result !== null ? { result } : {}),
        ...(!ok ? { stop_reason: stopReason } : {}),
        session_id: this.sessionId(),
        num_turns: 1,
        ...usageOf(response),
      },
    ]
  }

  /** A turn that failed before its answer (the agent answered the prompt with an error). */
  failed(message: string): CliLine[] {
    const lines = this.flush()
    this.lastText = null
    return [
      ...lines,
      {
        type: 'result',
        subtype: 'error_during_execution',
        is_error: true,
        result: message,
        session_id: this.sessionId(),
        num_turns: 1,
      },
    ]
  }

  /** The call with this update's fields over what was known of it (null and absent fields say nothing). */
  private merged(update: Call): Call {
    const known = this.calls.get(update.toolCallId)
    const fields = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== null && v !== undefined))
    const call = { ...known, ...fields } as Call
    this.calls.set(update.toolCallId, call)
    return call
  }

  private toolResult(call: Call): CliLine[] {
    if (call.status !== 'completed' && call.status !== 'failed') return []
    if (this.toolResults.has(call.toolCallId)) return []
    this.toolResults.add(call.toolCallId)
    return [
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: call.toolCallId,
              content: outputOf(call),
              is_error: call.status === 'failed',
            },
          ],
        },
        session_id: this.sessionId(),
      },
    ]
  }

  /** The text written so far as an assistant line, if any. */
  private flush(): CliLine[] {
    if (!this.text) return []
    const text = this.text
    this.text = ''
    this.lastText = text
    return [
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text }] },
        session_id: this.sessionId(),
      },
    ]
  }
}

/** What a tool gave back: its text content, else its raw output, else its status. */
function outputOf(call: ToolCall | ToolCallUpdate): string {
  const texts = (call.content ?? []).flatMap((c) =>
    c.type === 'content' && c.content.type === 'text' ? [c.content.text] : [],
  )
  if (texts.length) return texts.join('\n')
  const raw = call.rawOutput
  if (typeof raw === 'string') return raw
  if (isObj(raw) && typeof raw.output === 'string') return raw.output
  if (raw !== undefined && raw !== null) return JSON.stringify(raw)
  return `the tool ${call.status}`
}

/** The usage fields of a result line, from what the agent gave (none when it gave nothing). */
function usageOf(response: Record<string, unknown>): Record<string, unknown> {
  const usage = usageSchema.safeParse(response.usage)
  if (usage.success) {
    const u = usage.data
    return {
      usage: {
        input_tokens: u.inputTokens,
        output_tokens: u.outputTokens,
        cache_read_input_tokens: u.cachedReadTokens ?? 0,
        cache_creation_input_tokens: u.cachedWriteTokens ?? 0,
        ...(u.thoughtTokens ? { reasoning_output_tokens: u.thoughtTokens } : {}),
      },
    }
  }
  const quota = geminiQuotaSchema.safeParse(response._meta)
  if (!quota.success) return {}
  const count = quota.data.quota.token_count
  return { usage: { input_tokens: count.input_tokens, output_tokens: count.output_tokens } }
}

function streamEvent(event: Record<string, unknown>): CliLine {
  return { type: 'stream_event', event }
}

function isObj(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
