import { expect, it } from 'vitest'
import { PartialText } from './partial-text.js'

const event = (e: Record<string, unknown>) => ({ type: 'stream_event', event: e })
const text = (t: string) =>
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } })

it('hands each text delta on at its offset, and gives the text so far as one piece', () => {
  const partial = new PartialText()
  expect(partial.apply(event({ type: 'message_start', message: {} }))).toBeNull()
  expect(
    partial.apply(event({ type: 'content_block_start', index: 0, content_block: { type: 'text' } })),
  ).toBeNull()
  expect(partial.apply(text('alpha '))).toEqual({ at: 0, text: 'alpha ' })
  expect(partial.apply(text('beta'))).toEqual({ at: 6, text: 'beta' })
  expect(partial.snapshot()).toEqual({ at: 0, text: 'alpha beta' })
  // Tool input and thinking are not shown.
  expect(
    partial.apply(
      event({ type: 'content_block_delta', delta: { type: 'input_json_delta', partial_json: '{' } }),
    ),
  ).toBeNull()
  expect(partial.clear()).toBe(true)
  expect(partial.snapshot()).toBeNull()
  expect(partial.clear()).toBe(false)
})

it('starts over with each content block', () => {
  const partial = new PartialText()
  partial.apply(text('first block'))
  partial.apply(event({ type: 'content_block_start', index: 1, content_block: { type: 'text' } }))
  expect(partial.apply(text('second'))).toEqual({ at: 0, text: 'second' })
})
