import { describe, expect, it } from 'vitest'
import { fullTime } from '../lib/time.ts'
import { callText, DURATION_CHOICES, expiryText, SCOPE_CHOICES, usesText, whatText } from './rule-text.ts'

describe('an "Always allow" rule as the Rules page says it', () => {
  const now = Date.UTC(2025, 5, 1, 12, 0, 0)

  it('says how long it lasts, and when it ran out', () => {
    expect(expiryText(null, now)).toBe('until revoked')
    expect(expiryText(now + 60_000, now)).toBe(`until ${fullTime(now + 60_000)}`)
    expect(expiryText(now, now)).toBe(`expired ${fullTime(now)}`)
    expect(expiryText(now - 1, now)).toBe(`expired ${fullTime(now - 1)}`)
  })

  it('counts the prompts it answered', () => {
    expect(usesText(0)).toBe('no prompts yet')
    expect(usesText(1)).toBe('1 prompt')
    expect(usesText(12)).toBe('12 prompts')
  })

  it('offers the narrowest scope first and "until revoked" last', () => {
    expect(SCOPE_CHOICES[0]?.value).toBe('session')
    expect(DURATION_CHOICES.at(-1)).toEqual({ minutes: null, label: 'until revoked' })
  })
})

describe('a pattern rule as the Rules page says it', () => {
  it('says what it allows or denies, and nothing for an exact rule shown as its input', () => {
    expect(whatText({ toolName: 'Bash', match: 'prefix', pattern: 'npm test', effect: 'allow' })).toBe(
      'Allows Bash starting with "npm test"',
    )
    expect(whatText({ toolName: 'Bash', match: 'glob', pattern: 'rm *', effect: 'deny' })).toBe(
      'Denies Bash matching "rm *"',
    )
    expect(whatText({ toolName: 'Bash', match: 'exact', pattern: null, effect: 'allow' })).toBeNull()
  })

  it('reads a previewed call as its command or path', () => {
    expect(callText('Bash', { command: 'npm test -- --watch' })).toBe('$ npm test -- --watch')
    expect(callText('Edit', { file_path: '/a/b.ts', old_string: 'x', new_string: 'y' })).toBe('edit /a/b.ts')
    expect(callText('WebFetch', { url: 'https://example.test' })).toBe('{"url":"https://example.test"}')
  })
})
