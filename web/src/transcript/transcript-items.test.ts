import { describe, expect, it } from 'vitest'
import { decodeLine, endsPartial, TranscriptReader, withPiece } from './transcript-items.ts'

const assistant = (content: unknown) => ({ type: 'assistant', message: { content } })
const user = (content: unknown, uuid?: string) => ({
  type: 'user',
  message: { content },
  ...(uuid ? { uuid } : {}),
})

describe('a session transcript as the dashboard shows it', () => {
  it('shows what Claude wrote, thought and ran, and skips blank text', () => {
    const reader = new TranscriptReader()
    const items = reader.read(
      assistant([
        { type: 'thinking', thinking: 'Check the tests first.' },
        { type: 'redacted_thinking', data: 'xyz' },
        { type: 'text', text: 'Running them now.' },
        { type: 'text', text: '   ' },
        { type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'npm test' } },
      ]),
    )
    expect(items).toEqual([
      { kind: 'thinking', text: 'Check the tests first.', redacted: false },
      { kind: 'thinking', text: '', redacted: true },
      { kind: 'assistant', text: 'Running them now.' },
      { kind: 'tool', name: 'Bash', input: { command: 'npm test' } },
    ])
  })

  it('names the tool a result answers, and marks a failed one', () => {
    const reader = new TranscriptReader()
    reader.read(assistant([{ type: 'tool_use', id: 'tu_1', name: 'Read', input: { file_path: '/a' } }]))
    const items = reader.read(
      user([
        {
          type: 'tool_result',
          tool_use_id: 'tu_1',
          content: [{ type: 'text', text: 'line 1' }, { type: 'image' }],
        },
        { type: 'tool_result', tool_use_id: 'tu_unknown', content: 'no such file', is_error: true },
      ]),
    )
    expect(items).toEqual([
      { kind: 'tool-result', tool: 'Read', text: 'line 1\n[image]', isError: false },
      { kind: 'tool-result', tool: null, text: 'no such file', isError: true },
    ])
  })

  it('shows a message the person sent once, even when the CLI echoes what the hub recorded', () => {
    const reader = new TranscriptReader()
    const sent = user([{ type: 'text', text: 'fix the build' }, { type: 'image' }], 'u-1')
    expect(reader.read(sent)).toEqual([{ kind: 'user', text: 'fix the build\n[image]' }])
    expect(reader.read(sent)).toEqual([])
    expect(reader.read(user('and the docs', 'u-2'))).toEqual([{ kind: 'user', text: 'and the docs' }])
  })

  it('ends a turn with its cost and duration, or with why it failed', () => {
    const reader = new TranscriptReader()
    expect(
      reader.read({ type: 'result', subtype: 'success', total_cost_usd: 0.12, duration_ms: 3400 }),
    ).toEqual([{ kind: 'turn', cost: 0.12, durationMs: 3400, error: null }])
    expect(reader.read({ type: 'result', subtype: 'success', cost_usd: 0.5 })).toEqual([
      { kind: 'turn', cost: 0.5, durationMs: null, error: null },
    ])
    expect(reader.read({ type: 'result', subtype: 'error_max_turns' })).toEqual([
      { kind: 'turn', cost: null, durationMs: null, error: 'error_max_turns' },
    ])
    expect(
      reader.read({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 529' }),
    ).toEqual([{ kind: 'turn', cost: null, durationMs: null, error: 'API Error: 529' }])
  })

  it('says the session started once per model, and nothing for system chatter or stream events', () => {
    const reader = new TranscriptReader()
    const init = (model?: string) => ({ type: 'system', subtype: 'init', ...(model ? { model } : {}) })
    expect(reader.read(init('claude-sonnet'))).toEqual([
      { kind: 'note', text: 'Session started · claude-sonnet' },
    ])
    expect(reader.read(init('claude-sonnet'))).toEqual([])
    expect(reader.read(init('claude-opus'))).toEqual([
      { kind: 'note', text: 'Session started · claude-opus' },
    ])
    expect(new TranscriptReader().read(init())).toEqual([{ kind: 'note', text: 'Session started' }])
    for (const line of [
      { type: 'system', subtype: 'hook_response' },
      { type: 'stream_event', event: {} },
      { type: 'control_request', request: {} },
      'not an object',
      null,
      [1, 2],
    ])
      expect(reader.read(line)).toEqual([])
  })
})

describe('lines and pieces from the session stream', () => {
  it('reads a line sent as JSON text, or wrapped as { line }, and nothing from garbage', () => {
    const line = { type: 'assistant', message: { content: 'hi' } }
    expect(decodeLine(JSON.stringify(line))).toEqual(line)
    expect(decodeLine(JSON.stringify({ line: JSON.stringify(line) }))).toEqual(line)
    expect(decodeLine(JSON.stringify({ line }))).toEqual(line)
    expect(decodeLine('{not json')).toBeNull()
  })

  it('grows the text being written piece by piece, starts over at 0, and waits out a gap', () => {
    const piece = (at: number, text: string) => JSON.stringify({ at, text })
    let text = withPiece(null, piece(0, 'Hel'))
    expect(text).toBe('Hel')
    text = withPiece(text as string, piece(3, 'lo'))
    expect(text).toBe('Hello')
    expect(withPiece('Hello', piece(9, 'x'))).toBeUndefined()
    expect(withPiece(null, piece(2, 'x'))).toBeUndefined()
    expect(withPiece('Hello', piece(0, 'New'))).toBe('New')
    expect(withPiece('Hello', piece(0, ''))).toBeNull()
    expect(withPiece('Hello', '{oops')).toBeUndefined()
    expect(withPiece('Hello', JSON.stringify({ at: '5', text: '!' }))).toBeUndefined()
  })

  it('replaces the streamed text when the finished message or the turn’s end arrives', () => {
    expect(endsPartial({ type: 'assistant' })).toBe(true)
    expect(endsPartial({ type: 'result' })).toBe(true)
    expect(endsPartial({ type: 'user' })).toBe(false)
    expect(endsPartial(null)).toBe(false)
  })
})
