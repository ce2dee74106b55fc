// `answer <id> <values…>` as a person types it in a chat.
import { expect, it } from 'vitest'
import { parseAnswerText } from './verdicts.js'

it('reads a typed answer: the code, then one value per question, words in quotes kept together', () => {
  expect(parseAnswerText('answer bqzmx 2 "port 9000 please"')).toEqual({
    code: 'bqzmx',
    values: ['2', 'port 9000 please'],
  })
  expect(parseAnswerText('Answer BQZMX blue “the big one”')).toEqual({
    code: 'bqzmx',
    values: ['blue', 'the big one'],
  })
  expect(parseAnswerText('answer me this')).toBeNull()
  expect(parseAnswerText('answer bqzmx')).toBeNull()
  expect(parseAnswerText('the answer bqzmx 1')).toBeNull()
})
