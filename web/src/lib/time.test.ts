import { describe, expect, it } from 'vitest'
import { ago } from './time.ts'

describe('how long ago, as a person reads it', () => {
  const now = Date.UTC(2025, 5, 1, 12, 0, 0)
  const earlier = (seconds: number) => now - seconds * 1000

  it('says "just now" for under 45 seconds, even a clock a little ahead', () => {
    expect(ago(earlier(0), now)).toBe('just now')
    expect(ago(earlier(44), now)).toBe('just now')
    expect(ago(earlier(-5), now)).toBe('just now')
  })

  it('counts minutes, then hours, rounded', () => {
    expect(ago(earlier(45), now)).toBe('1 min ago')
    expect(ago(earlier(59 * 60), now)).toBe('59 min ago')
    expect(ago(earlier(60 * 60), now)).toBe('1 h ago')
    expect(ago(earlier(23 * 3600), now)).toBe('23 h ago')
  })

  it('gives the date from a day on', () => {
    const then = earlier(24 * 3600)
    expect(ago(then, now)).toBe(new Date(then).toLocaleDateString())
  })
})
