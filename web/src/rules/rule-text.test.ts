import { describe, expect, it } from 'vitest'
import { fullTime } from '../lib/time.ts'
import { DURATION_CHOICES, expiryText, SCOPE_CHOICES, usesText } from './rule-text.ts'

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
