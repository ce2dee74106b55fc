import { describe, expect, it } from 'vitest'
import { clientMessageSchema, parseVerdictText } from './hub-protocol.js'

describe('verdict text', () => {
  it('reads the forms the channels docs give, case-insensitively', () => {
    expect(parseVerdictText('yes abcde')).toEqual({ behavior: 'allow', code: 'abcde' })
    expect(parseVerdictText(' Y ABCDE ')).toEqual({ behavior: 'allow', code: 'abcde' })
    expect(parseVerdictText('no qwert')).toEqual({ behavior: 'deny', code: 'qwert' })
    expect(parseVerdictText('n qwert')).toEqual({ behavior: 'deny', code: 'qwert' })
  })

  it('treats anything else as chat', () => {
    expect(parseVerdictText('yes')).toBeNull()
    expect(parseVerdictText('approve abcde')).toBeNull()
    expect(parseVerdictText('yes abcdl')).toBeNull() // "l" is never in an id
    expect(parseVerdictText('yes abcde please')).toBeNull()
  })
})

describe('hub protocol', () => {
  it('rejects a hello with a subscriber name that could not be a topic', () => {
    const parsed = clientMessageSchema.safeParse({ type: 'hello', subscriber: 'a b', topics: ['*'] })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.message).toMatch(/letters, digits/)
  })
})
