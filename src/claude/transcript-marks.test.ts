// The transcript reader against transcripts the real CLI (2.1.330) wrote (test/fixtures/transcripts,
// captured by the probes in docs/transcript-receipts.md, with the lines that carry no event trimmed).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { marksOf, TranscriptMarks } from './transcript-marks.js'

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/transcripts')

function read(name: string) {
  const marks = new TranscriptMarks()
  const changes: string[] = []
  const inContextLines = new Map<string, number>()
  for (const line of readFileSync(join(FIXTURES, name), 'utf8').split('\n')) {
    if (!line) continue
    const m = marksOf(JSON.parse(line))
    if (m?.mark === 'in_context')
      for (const id of m.ids) inContextLines.set(id, (inContextLines.get(id) ?? 0) + 1)
    for (const c of marks.addLine(line)) changes.push(`${c.id} ${c.mark}`)
  }
  return { marks, changes, inContextLines }
}

describe('the transcript reader', () => {
  it('takes a channel notification that starts a turn (a user line) as in context, after its queue record', () => {
    const { marks, changes } = read('print-idle-and-held-turn.jsonl')
    expect(changes.slice(0, 2)).toEqual([
      'ev_mwwdmqxca2d228a77162 queued',
      'ev_mwwdmqxca2d228a77162 in_context',
    ])
    expect(marks.state('ev_mwwdmqxca2d228a77162')).toBe('in_context')
  })

  it('holds events sent while the model answers as queued, then in context in one batched user line', () => {
    const { changes, inContextLines } = read('print-idle-and-held-turn.jsonl')
    const during = ['ev_mwwdmrbp2dba3b01160d', 'ev_mwwdmrby09375fddc0b5']
    for (const id of during) {
      expect(changes.indexOf(`${id} queued`)).toBeLessThan(changes.indexOf(`${id} in_context`))
      expect(inContextLines.get(id)).toBe(1)
    }
  })

  it('takes events absorbed while a tool runs (attachment queued_command) as in context, and a later queue remove as nothing', () => {
    const { marks, changes, inContextLines } = read('print-late-first-line-and-tool.jsonl')
    for (const id of ['ev_mwwdnu0t03adedbf73ce', 'ev_mwwdnu0z1169de8b8ca5']) {
      expect(marks.state(id)).toBe('in_context')
      expect(inContextLines.get(id)).toBe(1)
      expect(changes.filter((c) => c.startsWith(id))).toEqual([`${id} queued`, `${id} in_context`])
    }
  })

  it('never sees the events a -p session dropped before its first input line', () => {
    const { marks } = read('print-late-first-line-and-tool.jsonl')
    // Five were written before the first line; the transcript holds three events, none of them.
    expect(marks.size).toBe(3)
  })

  it("takes a hook's additionalContext as in context once, after UserPromptSubmit and after PostToolUse, and never the hook's own record of its answer", () => {
    const { marks, changes, inContextLines } = read('print-hook-context.jsonl')
    const [prompt, tool] = ['ev_mx03cyjzf658f8e6f112', 'ev_mx03d62v31b4c426f7a7']
    expect(changes).toEqual([`${prompt} in_context`, `${tool} in_context`])
    expect(Object.fromEntries(inContextLines)).toEqual({ [prompt]: 1, [tool]: 1 })
    expect(marks.state(tool)).toBe('in_context')
    // The PostToolUse hook's output is recorded (hook_success, its stdout quoting the tag) just
    // before the context line: that record is not the conversation.
    const lines = readFileSync(join(FIXTURES, 'print-hook-context.jsonl'), 'utf8').split('\n')
    const record = lines.find((l) => l.includes('"hook_success"') && l.includes('event_id='))
    expect(record).toBeDefined()
    expect(marksOf(JSON.parse(record as string))).toBeNull()
  })

  it('ignores a tool result quoting a tag, a half-written line, and attachments the model is not shown as prompts', () => {
    const marks = new TranscriptMarks()
    const tag = '<channel source="x" event_id="ev_quoted">hi</channel>'
    expect(
      marks.addLine(
        '{"type":"user","message":{"content":[{"type":"tool_result","content":"' +
          tag.replace(/"/g, '\\"') +
          '"}]}}',
      ),
    ).toEqual([])
    expect(marks.addLine('{"type":"user","message":{"content":"<channel event_id=\\"ev_half')).toEqual([])
    expect(
      marks.addLine(
        JSON.stringify({ type: 'attachment', attachment: { type: 'edited_text_file', snippet: tag } }),
      ),
    ).toEqual([])
    expect(marks.state('ev_quoted')).toBe('absent')
    // A hook's context is shown to the model: it counts.
    const hook = {
      type: 'attachment',
      timestamp: '2026-01-01T00:00:00.000Z',
      attachment: { type: 'hook_additional_context', content: [tag] },
    }
    expect(marks.addLine(JSON.stringify(hook))).toEqual([
      { id: 'ev_quoted', mark: 'in_context', at: Date.parse('2026-01-01T00:00:00.000Z') },
    ])
  })

  it("takes a tag another channel of the session wrote (addressed to another subscriber) as none of this channel's", () => {
    // Two servers in one session, both handed the event: alpha's notification got in, gamma's was
    // dropped. Gamma reading alpha's line must not call its own delivery in context.
    const line = (subscriber: string, type = 'user') =>
      JSON.stringify({
        type,
        operation: 'enqueue',
        timestamp: '2026-01-01T00:00:00.000Z',
        content: `<channel source="alpha" event_id="ev_both" subscriber="${subscriber}">x</channel>`,
        message: {
          content: `<channel source="alpha" event_id="ev_both" subscriber="${subscriber}">x</channel>`,
        },
      })
    const gamma = new TranscriptMarks('gamma')
    expect(gamma.addLine(line('alpha', 'queue-operation'))).toEqual([])
    expect(gamma.addLine(line('alpha'))).toEqual([])
    expect(gamma.state('ev_both')).toBe('absent')
    const alpha = new TranscriptMarks('alpha')
    expect(alpha.addLine(line('alpha')).map((c) => c.mark)).toEqual(['in_context'])
    // A tag naming no subscriber (the hook's text, an older channel) is anyone's.
    const hook = JSON.stringify({
      type: 'user',
      message: { content: '<channel source="s" event_id="ev_hook">x</channel>' },
    })
    expect(gamma.addLine(hook).map((c) => c.id)).toEqual(['ev_hook'])
  })
})
