import { describe, expect, it } from 'vitest'
import { sanitizeMetaKey, toMeta, topicMatches } from './event.js'

describe('meta', () => {
  it('renames keys Claude Code would drop, instead of losing them', () => {
    expect(sanitizeMetaKey('run-id')).toBe('run_id')
    expect(sanitizeMetaKey('2fa')).toBe('_2fa')
    expect(sanitizeMetaKey('---')).toBeNull()
  })

  it('keeps scalars only, stringified and capped', () => {
    const meta = toMeta({ a: 1, b: true, c: 'x'.repeat(600), d: { nested: 1 }, e: null, f: [1] })
    expect(meta).toEqual({ a: '1', b: 'true', c: 'x'.repeat(500) })
  })

  it('keeps the first of two keys that sanitise to the same name', () => {
    expect(toMeta({ 'a-b': '1', a_b: '2' })).toEqual({ a_b: '1' })
  })

  it('keeps keys that are also names on every object', () => {
    const meta = toMeta(JSON.parse('{"constructor":"a","toString":"b","__proto__":"c","hasOwnProperty":"d"}'))
    expect(Object.entries(meta)).toEqual([
      ['constructor', 'a'],
      ['toString', 'b'],
      ['__proto__', 'c'],
      ['hasOwnProperty', 'd'],
    ])
  })
})

describe('topics', () => {
  it('matches exact names, trailing wildcards and everything', () => {
    expect(topicMatches(['github'], 'github')).toBe(true)
    expect(topicMatches(['github'], 'github2')).toBe(false)
    expect(topicMatches(['chat:*'], 'chat:http:alice')).toBe(true)
    expect(topicMatches(['*'], 'anything')).toBe(true)
  })
})
