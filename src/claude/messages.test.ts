import { expect, it } from 'vitest'
import { checkCliLine, cliLineSchema, contentBlocks, initOf, resultOf } from './messages.js'

it('checks CLI lines by the same rule as the schema', () => {
  const samples: unknown[] = [
    { type: 'assistant', message: {} },
    { type: 'x', extra: [1, 2] },
    { type: '' },
    { type: 3 },
    { no: 'type' },
    [{ type: 'a' }],
    null,
    'text',
    42,
  ]
  for (const sample of samples) expect(checkCliLine(sample).ok).toBe(cliLineSchema.safeParse(sample).success)
})

it('reads a turn’s end field by field: one of another type reads as absent, the rest still count', () => {
  expect(resultOf({ type: 'assistant' })).toBeNull()
  const line = {
    type: 'result',
    subtype: 'success',
    is_error: 'no',
    result: 'done',
    total_cost_usd: null,
    num_turns: 2,
  }
  expect(resultOf(line)).toEqual({ type: 'result', subtype: 'success', result: 'done', num_turns: 2 })
})

it('reads the session’s own id from its opening line only', () => {
  expect(initOf({ type: 'system', subtype: 'init', session_id: 'abc', tools: 'Bash' })).toMatchObject({
    session_id: 'abc',
    tools: undefined,
  })
  expect(initOf({ type: 'system', subtype: 'compact_boundary', session_id: 'abc' })).toBeNull()
})

it('gives the objects among a message’s content blocks', () => {
  const line = { type: 'assistant', message: { content: [{ type: 'text', text: 'hi' }, 'stray', null, [1]] } }
  expect(contentBlocks(line)).toEqual([{ type: 'text', text: 'hi' }])
  expect(contentBlocks({ type: 'assistant', message: { content: 'plain' } })).toEqual([])
})
