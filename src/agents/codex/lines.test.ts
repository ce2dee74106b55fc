// Codex's app-server notifications in the session's one line model: what the transcript, the
// partial text, the costs and the status are read from, as they are for Claude Code's lines.
import { describe, expect, it } from 'vitest'
import { decisionOf, promptOf } from './approval.js'
import { CodexLines } from './lines.js'

/** A count of a thread's tokens: its total so far, and the last model call's. */
const breakdown = (input: number, output: number) => ({
  totalTokens: input + output,
  inputTokens: input,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: output,
  reasoningOutputTokens: 0,
})
const tokens = (total: [number, number], last: [number, number]) => ({
  threadId: 't1',
  turnId: 'u1',
  tokenUsage: { total: breakdown(...total), last: breakdown(...last), modelContextWindow: null },
})

describe('a Codex thread as session lines', () => {
  it('opens with an init line naming the thread, which is what a resume takes', () => {
    const lines = new CodexLines(() => 'thread-1')
    expect(lines.init({ cwd: '/work', model: 'gpt' })).toEqual({
      type: 'system',
      subtype: 'init',
      session_id: 'thread-1',
      cwd: '/work',
      model: 'gpt',
      agent: 'codex',
    })
  })

  it('streams an agent message as text deltas and ends it as an assistant line', () => {
    const lines = new CodexLines(() => 't1')
    const item = { type: 'agentMessage', id: 'm1', text: '' }
    expect(lines.heard('item/started', { item })).toEqual([
      { type: 'stream_event', event: { type: 'content_block_start' } },
    ])
    expect(lines.heard('item/agentMessage/delta', { itemId: 'm1', delta: 'DO' })).toEqual([
      {
        type: 'stream_event',
        event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'DO' } },
      },
    ])
    expect(lines.heard('item/completed', { item: { ...item, text: 'DONE' } })).toEqual([
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: 'DONE' }] },
        session_id: 't1',
      },
    ])
  })

  it('shows a command as a Bash tool use once, even when its approval came first, and its output as the result', () => {
    const lines = new CodexLines(() => 't1')
    const command = "/bin/bash -lc 'touch x'"
    expect(lines.toolUse('call_1', command)).toHaveLength(1)
    expect(
      lines.heard('item/started', { item: { type: 'commandExecution', id: 'call_1', command } }),
    ).toEqual([])
    const done = lines.heard('item/completed', {
      item: {
        type: 'commandExecution',
        id: 'call_1',
        command,
        status: 'completed',
        exitCode: 0,
        aggregatedOutput: 'made\n',
      },
    })
    expect(done).toEqual([
      {
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'made\n', is_error: false }],
        },
        session_id: 't1',
      },
    ])
    const declined = lines.heard('item/completed', {
      item: {
        type: 'commandExecution',
        id: 'call_2',
        command: 'rm -rf /',
        status: 'declined',
        exitCode: null,
        aggregatedOutput: null,
      },
    })
    expect(declined.map((l) => l.type)).toEqual(['assistant', 'user'])
    expect(declined[1]?.message).toMatchObject({
      content: [{ is_error: true, content: 'the command was declined' }],
    })
  })

  it('ends a turn with a result carrying its last text and the tokens of this turn alone, and no cost', () => {
    const lines = new CodexLines(() => 't1')
    lines.heard('turn/started', { turn: { id: 'u1' } })
    // A resumed thread's first count holds every earlier turn's tokens too.
    lines.heard('thread/tokenUsage/updated', tokens([1_020, 510], [20, 10]))
    lines.heard('thread/tokenUsage/updated', tokens([1_040, 520], [20, 10]))
    lines.heard('item/completed', { item: { type: 'agentMessage', id: 'm1', text: 'DONE: made' } })
    const [result] = lines.heard('turn/completed', {
      threadId: 't1',
      turn: { id: 'u1', status: 'completed', error: null },
    })
    expect(result).toEqual({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'DONE: made',
      session_id: 't1',
      num_turns: 1,
      usage: {
        input_tokens: 40,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        output_tokens: 20,
        reasoning_output_tokens: 0,
      },
    })
    expect(result).not.toHaveProperty('total_cost_usd')
  })

  it('ends an interrupted turn as Claude Code does, an error during execution', () => {
    const lines = new CodexLines(() => 't1')
    lines.heard('turn/started', { turn: { id: 'u2' } })
    const [result] = lines.heard('turn/completed', { turn: { id: 'u2', status: 'interrupted', error: null } })
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      codex_status: 'interrupted',
    })
  })
})

describe('a Codex command approval', () => {
  const approval = {
    threadId: 't1',
    turnId: 'u1',
    itemId: 'call_1',
    command: "/bin/bash -lc 'touch x'",
    reason: 'fake asks',
  }

  it('is a Bash prompt with the command and Codex’s reason', () => {
    expect(promptOf(approval)).toEqual({
      subtype: 'can_use_tool',
      tool_name: 'Bash',
      input: { command: "/bin/bash -lc 'touch x'" },
      tool_use_id: 'call_1',
      description: 'fake asks',
    })
  })

  it('is accepted when allowed, declined when denied, and declined when the person edited the command', () => {
    const prompt = promptOf(approval)
    expect(decisionOf(prompt, { behavior: 'allow' })).toBe('accept')
    expect(decisionOf(prompt, { behavior: 'allow', updatedInput: prompt.input })).toBe('accept')
    expect(decisionOf(prompt, { behavior: 'deny', message: 'no' })).toBe('decline')
    expect(decisionOf(prompt, { behavior: 'allow', updatedInput: { command: 'touch y' } })).toBe('decline')
  })
})
