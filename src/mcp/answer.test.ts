import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { PendingInput } from '../core/session-api.js'
import { hubAnswer } from './answer.js'

const question = (
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/recorded-session.json'), 'utf8')) as {
    question: { view: { pendingInputs: PendingInput[] } }
  }
).question.view.pendingInputs[0]
const call = { sessionId: 'ses_1', inputId: 'dec_1', waitSeconds: 0 }

it('turns the seed’s answers (one label per question) into question text → label', () => {
  const updatedInput = { questions: question?.input.questions, answers: ['blue'] }
  expect(hubAnswer({ ...call, decision: 'allow', updatedInput }, question)).toEqual({
    behavior: 'allow',
    answers: { 'Which colour?': 'blue' },
  })
  expect(hubAnswer({ ...call, decision: 'allow', answers: { 'Which colour?': 'red' } }, question)).toEqual({
    behavior: 'allow',
    answers: { 'Which colour?': 'red' },
  })
})

it('passes an edited input on allow, and the reason on deny', () => {
  const bash: PendingInput = { ...(question as PendingInput), kind: 'permission', tool_name: 'Bash' }
  const updatedInput = { command: 'ls' }
  expect(hubAnswer({ ...call, decision: 'allow', updatedInput }, bash)).toEqual({
    behavior: 'allow',
    updatedInput,
  })
  expect(hubAnswer({ ...call, decision: 'deny', reason: 'not now' }, bash)).toEqual({
    behavior: 'deny',
    message: 'not now',
  })
  expect(hubAnswer({ ...call, decision: 'deny' }, bash)).toEqual({ behavior: 'deny', message: 'Denied' })
})
