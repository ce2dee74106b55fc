import { describe, expect, it } from 'vitest'
import { nextAttemptIn } from './github-retry.js'

const NOW = 1_800_000_000_000
const refusal = (status: number | null, headers: Record<string, string> = {}, message?: string) => ({
  status,
  headers: new Headers(headers),
  message,
})

describe('when a comment GitHub did not take is tried again', () => {
  it('tries a server error or a lost connection again after the backoff', () => {
    expect(nextAttemptIn(refusal(502), 2_000, NOW)).toBe(2_000)
    expect(nextAttemptIn(refusal(null), 4_000, NOW)).toBe(4_000)
  })

  it('gives up at once on a wrong token, a missing thread, or a 403 that is no rate limit', () => {
    expect(nextAttemptIn(refusal(401, {}, 'Bad credentials'), 2_000, NOW)).toBeNull()
    expect(nextAttemptIn(refusal(404, {}, 'Not Found'), 2_000, NOW)).toBeNull()
    expect(nextAttemptIn(refusal(403, {}, 'Resource not accessible by integration'), 2_000, NOW)).toBeNull()
  })

  it('waits as long as retry-after says, never less than the backoff', () => {
    expect(nextAttemptIn(refusal(429, { 'retry-after': '30' }), 2_000, NOW)).toBe(30_000)
    expect(nextAttemptIn(refusal(403, { 'retry-after': '1' }), 8_000, NOW)).toBe(8_000)
  })

  it('waits until the limit resets when none is left', () => {
    const reset = String((NOW + 90_000) / 1000)
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }
    expect(nextAttemptIn(refusal(403, headers), 2_000, NOW)).toBe(90_000)
    expect(
      nextAttemptIn(refusal(403, { 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': reset }), 2_000, NOW),
    ).toBeNull()
  })

  it('waits a minute on a limit that names no time, and at most an hour on any', () => {
    expect(nextAttemptIn(refusal(403, {}, 'You have exceeded a secondary rate limit'), 2_000, NOW)).toBe(
      60_000,
    )
    expect(nextAttemptIn(refusal(429), 2_000, NOW)).toBe(60_000)
    expect(nextAttemptIn(refusal(429, { 'retry-after': '86400' }), 2_000, NOW)).toBe(3_600_000)
  })
})
