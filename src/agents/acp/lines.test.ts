// An ACP agent's session updates in the session's one line model, and its permission requests as
// the session's prompts: shapes taken from what Gemini CLI 0.61.0 and OpenCode 1.18.33 sent
// (shared/AGENTS.md §2e, §3e).
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { AcpLines } from './lines.js'
import { outcomeOf, promptOf } from './permission.js'

const chunk = (text: string) =>
  ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }) as const

describe('an ACP session as session lines', () => {
  it('streams the text, ends it as one assistant line when a tool call starts, and names a command Bash', () => {
    const lines = new AcpLines('gemini', () => 's1')
    expect(lines.update(chunk('let me '))).toHaveLength(2) // the block's start and its first piece
    expect(lines.update(chunk('look'))).toEqual([
      {
        type: 'stream_event',
        event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'look' } },
      },
    ])
    const started = lines.update({
      sessionUpdate: 'tool_call',
      toolCallId: 'run_shell_command__1',
      status: 'in_progress',
      title: 'touch /w/a && echo made',
      kind: 'execute',
    })
    expect(started.map((l) => JSON.stringify(l.message))).toEqual([
      JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'let me look' }] }),
      JSON.stringify({
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'run_shell_command__1',
            name: 'Bash',
            input: { command: 'touch /w/a && echo made' },
          },
        ],
      }),
    ])
    const done = lines.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'run_shell_command__1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'made' } }],
    })
    expect(done).toEqual([
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'run_shell_command__1', content: 'made', is_error: false },
          ],
        },
        session_id: 's1',
      },
    ])
    // An update that repeats the end says nothing more.
    expect(
      lines.update({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'run_shell_command__1',
        status: 'completed',
      }),
    ).toEqual([])
  })

  it('waits for the command when the agent gives raw input without it yet (OpenCode), and merges what updates say', () => {
    const lines = new AcpLines('opencode', () => 's2')
    expect(
      lines.update({
        sessionUpdate: 'tool_call',
        toolCallId: 'call_3',
        title: 'bash',
        kind: 'execute',
        status: 'pending',
        rawInput: {},
      }),
    ).toEqual([])
    const use = lines.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_3',
      status: 'in_progress',
      rawInput: { command: 'echo hi' },
    })
    expect(use.map((l) => l.message)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_3', name: 'Bash', input: { command: 'echo hi' } }],
      },
    ])
    const end = lines.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_3',
      status: 'failed',
      rawOutput: { output: 'nope' },
    })
    expect(end[0]?.message).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'call_3', content: 'nope', is_error: true }],
    })
  })

  it("ends a turn with its last text as the result and Gemini CLI's tokens as its usage", () => {
    const lines = new AcpLines('gemini', () => 's1')
    lines.update(chunk('DONE: made'))
    const end = lines.ended('end_turn', {
      stopReason: 'end_turn',
      _meta: { quota: { token_count: { input_tokens: 40, output_tokens: 20 }, model_usage: [] } },
    })
    expect(end.map((l) => l.type)).toEqual(['assistant', 'result'])
    expect(end[1]).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'DONE: made',
      num_turns: 1,
      usage: { input_tokens: 40, output_tokens: 20 },
    })
  })

  it("reads the draft protocol's usage, and says a cancelled turn ended as an error during execution", () => {
    const lines = new AcpLines('opencode', () => 's2')
    const [end] = lines.ended('cancelled', {
      stopReason: 'cancelled',
      usage: { totalTokens: 12, inputTokens: 9, outputTokens: 3, cachedReadTokens: 4 },
    })
    expect(end).toMatchObject({
      subtype: 'error_during_execution',
      is_error: true,
      stop_reason: 'cancelled',
      usage: { input_tokens: 9, output_tokens: 3, cache_read_input_tokens: 4 },
    })
    expect(end).not.toHaveProperty('result')
  })

  it('ignores what the line model has no place for (thoughts, commands, plans)', () => {
    const lines = new AcpLines('gemini', () => 's1')
    expect(
      lines.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }),
    ).toEqual([])
    expect(lines.update({ sessionUpdate: 'available_commands_update', availableCommands: [] })).toEqual([])
  })
})

/** A permission request as each agent sent it: the same shape, its own option ids. */
function requestWith(options: RequestPermissionRequest['options']): RequestPermissionRequest {
  return {
    sessionId: 's1',
    toolCall: {
      toolCallId: 'call_fake_22',
      title: 'touch /w/acp_allow && echo made',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'touch /w/acp_allow && echo made' },
    },
    options,
  }
}
const GEMINI_OPTIONS = [
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
] as const
const OPENCODE_OPTIONS = [
  { optionId: 'once', kind: 'allow_once', name: 'Allow once' },
  { optionId: 'always', kind: 'allow_always', name: 'Always allow' },
  { optionId: 'reject', kind: 'reject_once', name: 'Reject' },
] as const

describe("an ACP agent's permission request as the session's prompt", () => {
  it('asks about the command as Bash, and answers with the option of the right kind, whatever its id', () => {
    for (const [options, allow, reject] of [
      [GEMINI_OPTIONS, 'proceed_once', 'cancel'],
      [OPENCODE_OPTIONS, 'once', 'reject'],
    ] as const) {
      const request = requestWith([...options])
      const prompt = promptOf(request)
      expect(prompt).toMatchObject({
        tool_name: 'Bash',
        input: { command: 'touch /w/acp_allow && echo made' },
      })
      expect(outcomeOf(request, prompt, { behavior: 'allow' })).toEqual({
        outcome: { outcome: 'selected', optionId: allow },
      })
      expect(outcomeOf(request, prompt, { behavior: 'deny', message: 'no' })).toEqual({
        outcome: { outcome: 'selected', optionId: reject },
      })
    }
  })

  it('rejects an allow that edits the command, and answers cancelled for a request the agent withdrew', () => {
    const request = requestWith([...GEMINI_OPTIONS])
    const prompt = promptOf(request)
    expect(outcomeOf(request, prompt, { behavior: 'allow', updatedInput: { command: 'rm -rf /' } })).toEqual({
      outcome: { outcome: 'selected', optionId: 'cancel' },
    })
    expect(outcomeOf(request, prompt, null)).toEqual({ outcome: { outcome: 'cancelled' } })
  })
})
