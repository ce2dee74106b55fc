import { describe, expect, it } from 'vitest'
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import { identicalGroups, stableJson } from './batch.ts'

let n = 0
function prompt(
  tool: string,
  request: Record<string, unknown>,
  over: Partial<DecisionRow> = {},
): DecisionRow {
  n += 1
  return {
    id: `dec_${n}`,
    code: `c${n}`,
    kind: 'permission',
    owner: `ses_${n}`,
    status: 'open',
    request: { tool_name: tool, ...request },
    answer: null,
    answeredBy: null,
    createdAt: n,
    expiresAt: null,
    onTimeout: null,
    ...over,
  }
}

const ids = (groups: Map<string, DecisionRow[]>) =>
  [...groups].map(([key, group]) => [key, group.map((d) => d.id)] as const)

describe('approving identical prompts together in the Inbox', () => {
  it('groups prompts for the same tool and input, whatever order the input’s keys came in', () => {
    const a = prompt('Bash', { input: { command: 'npm test', timeout: 60 } })
    const b = prompt('Bash', { input: { timeout: 60, command: 'npm test' } })
    const c = prompt('Bash', { input_preview: '{"command":"npm test","timeout":60}' })
    expect(ids(identicalGroups([a, b, c]))).toEqual([[a.id, [a.id, b.id, c.id]]])
  })

  it('keeps apart prompts that differ in tool or input, and leaves a lone prompt out', () => {
    const a = prompt('Bash', { input: { command: 'npm test' } })
    const b = prompt('Bash', { input: { command: 'npm test -- --watch' } })
    const c = prompt('Write', { input: { command: 'npm test' } })
    const d = prompt('Bash', { input: { command: 'npm test -- --watch' } })
    expect(ids(identicalGroups([a, b, c, d]))).toEqual([[b.id, [b.id, d.id]]])
  })

  it('never batches answered prompts, questions, or a relay whose input was cut short', () => {
    const input = { input: { command: 'rm -rf build' } }
    const open = prompt('Bash', input)
    const answered = prompt('Bash', input, { status: 'answered' })
    const question = prompt('Bash', input, { kind: 'question' })
    const cut = prompt('Bash', { input_preview: '{"command":"rm -rf bu…' })
    const cutToo = prompt('Bash', { input_preview: '{"command":"rm -rf bu…' })
    expect(identicalGroups([open, answered, question, cut, cutToo]).size).toBe(0)
  })

  it('reads nested input with sorted keys, arrays in their order', () => {
    expect(stableJson({ b: [2, { d: 1, c: 0 }], a: null })).toBe('{"a":null,"b":[2,{"c":0,"d":1}]}')
  })
})
