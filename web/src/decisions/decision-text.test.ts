import { describe, expect, it } from 'vitest'
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import {
  closingText,
  endText,
  inputOf,
  KIND_LABEL,
  requestText,
  ruleInputOf,
  toolOf,
} from './decision-text.ts'

function decision(over: Partial<DecisionRow> = {}): DecisionRow {
  return {
    id: 'dec_1',
    code: 'abcde',
    kind: 'permission',
    owner: 'ses_1',
    status: 'open',
    request: {},
    answer: null,
    answeredBy: null,
    createdAt: 0,
    expiresAt: null,
    onTimeout: null,
    ...over,
  }
}

describe('a decision card’s wording', () => {
  it('says of a call auto mode denied that its retry was allowed, or that it was left denied, and by whom', () => {
    const answered = (behavior: string) =>
      decision({ kind: 'denied', status: 'answered', answer: { behavior }, answeredBy: 'olga' })
    expect(closingText(answered('allow'))).toBe('Retry allowed by olga')
    expect(closingText(answered('deny'))).toBe('Left denied by olga')
    expect(KIND_LABEL.denied).toBe('Denied by auto mode')
  })

  it('names the tool asked for, else what kind of decision it is', () => {
    expect(toolOf(decision({ request: { tool_name: 'Bash' } }))).toBe('Bash')
    expect(toolOf(decision({ kind: 'pairing' }))).toBe('to pair')
    expect(toolOf(decision({ kind: 'question', request: { tool_name: '' } }))).toBe('question')
  })

  it('shows the tool’s input when the hub has it, and nothing in its place when it does not', () => {
    expect(inputOf(decision({ request: { input: { command: 'ls' } } }))).toEqual({ command: 'ls' })
    expect(inputOf(decision({ request: { input: ['ls'] } }))).toBeNull()
    expect(inputOf(decision({ request: { input_preview: '{"command":"ls"}' } }))).toBeNull()
  })

  it('offers "Always allow" for a relay’s preview only when it is a whole JSON object', () => {
    expect(ruleInputOf(decision({ request: { input: { command: 'ls' } } }))).toEqual({ command: 'ls' })
    expect(ruleInputOf(decision({ request: { input_preview: '{"command":"ls"}' } }))).toEqual({
      command: 'ls',
    })
    // A relay cuts long input short: no rule can be made from part of it.
    expect(ruleInputOf(decision({ request: { input_preview: '{"command":"ls -la /very/lo…' } }))).toBeNull()
    expect(ruleInputOf(decision({ request: { input_preview: '["ls"]' } }))).toBeNull()
    expect(ruleInputOf(decision({ request: { input_preview: 'null' } }))).toBeNull()
    expect(ruleInputOf(decision())).toBeNull()
  })

  it('reads a request’s text fields, an empty one as missing', () => {
    const d = decision({ request: { description: 'List files', reason: '', count: 3 } })
    expect(requestText(d, 'description')).toBe('List files')
    expect(requestText(d, 'reason')).toBeNull()
    expect(requestText(d, 'count')).toBeNull()
  })

  it('says the verdict and who gave it: allowed or denied, a plan approved or sent back, a question’s choice', () => {
    const answered = (over: Partial<DecisionRow>) => closingText(decision({ status: 'answered', ...over }))
    expect(answered({ answer: { behavior: 'allow' }, answeredBy: 'web-ann' })).toBe('Allowed by web-ann')
    expect(answered({ answer: { behavior: 'deny', message: 'no' }, answeredBy: 'cli' })).toBe('Denied by cli')
    expect(answered({ kind: 'plan', answer: { behavior: 'allow' }, answeredBy: 'cli' })).toBe(
      'Approved by cli',
    )
    expect(answered({ kind: 'plan', answer: { behavior: 'deny', message: 'x' }, answeredBy: 'cli' })).toBe(
      'Sent back by cli',
    )
    expect(
      answered({
        kind: 'question',
        answer: { behavior: 'allow', answers: { 'Which colour?': 'blue' } },
        answeredBy: 'cli',
      }),
    ).toBe('Answered by cli: blue')
  })

  it('says who answered a closed card, or that it was cancelled or expired', () => {
    expect(closingText(decision({ status: 'answered', answeredBy: 'telegram:ann' }))).toBe(
      'Answered by telegram:ann',
    )
    expect(closingText(decision({ status: 'answered' }))).toBe('Answered by someone')
    expect(closingText(decision({ status: 'cancelled' }))).toBe('Cancelled')
    expect(closingText(decision({ status: 'expired' }))).toBe('Expired')
  })
})

describe('a decision with a timeout', () => {
  it('says what happens when, while open, and what the timeout did once it ran out', () => {
    const at = new Date(2026, 0, 5, 14, 5).getTime()
    const denying = decision({ expiresAt: at, onTimeout: 'deny', createdAt: at - 600_000 })
    expect(endText(denying)).toBe('Denied at 14:05 unless answered')
    expect(endText(decision({ expiresAt: at, onTimeout: 'terminal' }))).toBe(
      'Goes back to the terminal at 14:05',
    )
    expect(endText(decision())).toBeNull()
    expect(
      closingText({ ...denying, status: 'answered', answeredBy: 'timeout', answer: { behavior: 'deny' } }),
    ).toBe('Denied: no one answered within 10 min')
    expect(
      closingText({
        ...denying,
        onTimeout: 'terminal',
        status: 'answered',
        answeredBy: 'timeout',
        answer: { on_timeout: 'terminal' },
      }),
    ).toBe('Back to the terminal: no one answered within 10 min')
  })
})
