// When to ask GitHub again after it did not take a comment. GitHub's REST API says so itself when
// it limits a client ("Rate limits for the REST API"): `retry-after` in seconds, or
// `x-ratelimit-remaining: 0` with `x-ratelimit-reset` in epoch seconds, and otherwise at least a
// minute. A 403 is a rate limit only when it says so; any other 4xx will not go better by asking again.

/** GitHub's own advice when a limit names no time. */
const UNNAMED_LIMIT_MS = 60_000
/** The longest wait taken: the primary limit resets within the hour. */
const LONGEST_MS = 60 * 60_000

export interface Refusal {
  /** null when no answer came (the network, a timeout). */
  status: number | null
  headers: Headers | null
  /** GitHub's `message`, if it gave one. */
  message: string | undefined
}

/** The wait before the next attempt, at least `backoffMs`; null when another attempt is pointless. */
export function nextAttemptIn(refusal: Refusal, backoffMs: number, now = Date.now()): number | null {
  const { status, headers, message } = refusal
  if (status === null || status >= 500) return backoffMs
  if (status !== 403 && status !== 429) return null
  const named = limitNamedIn(headers, now)
  const limited = status === 429 || named !== null || /rate limit/i.test(message ?? '')
  if (!limited) return null
  const wait = named ?? UNNAMED_LIMIT_MS
  return Math.min(Math.max(wait, backoffMs), LONGEST_MS)
}

/** The wait GitHub's headers name, if they name one. */
function limitNamedIn(headers: Headers | null, now: number): number | null {
  const after = Number(headers?.get('retry-after') ?? Number.NaN)
  if (Number.isFinite(after) && after >= 0) return after * 1000
  const reset = Number(headers?.get('x-ratelimit-reset') ?? Number.NaN)
  if (headers?.get('x-ratelimit-remaining') === '0' && Number.isFinite(reset))
    return Math.max(0, reset * 1000 - now)
  return null
}
