// What an answer typed as `<code> <values…>` records for each kind of prompt.
import { expect, it } from 'vitest'
import { answerFor } from './answer-values.js'

const question = {
  kind: 'question' as const,
  request: {
    input: {
      questions: [
        { question: 'DB?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] },
        { question: 'Port?', options: [{ label: '7420' }] },
      ],
    },
  },
}

it('answers each question by number, by label (any case) or in words, in order', () => {
  expect(answerFor(question, ['2', '7420'])).toEqual({
    behavior: 'allow',
    answers: { 'DB?': 'Postgres', 'Port?': '7420' },
  })
  expect(answerFor(question, ['sqlite', '9'])).toEqual({
    behavior: 'allow',
    answers: { 'DB?': 'SQLite', 'Port?': '9' },
  })
  expect(() => answerFor(question, ['1'])).toThrow(/asks 2 questions/)
  expect(answerFor(question, ['no'])).toMatchObject({ behavior: 'deny' })
})

it('answers a permission or a plan yes or no, no with the message Claude is given', () => {
  expect(answerFor({ kind: 'permission', request: {} }, ['yes'])).toEqual({ behavior: 'allow' })
  expect(answerFor({ kind: 'plan', request: {} }, ['no'], 'add tests')).toEqual({
    behavior: 'deny',
    message: 'add tests',
  })
  expect(() => answerFor({ kind: 'permission', request: {} }, ['maybe'])).toThrow(/say yes or no/)
})
