// Slack's failures in the hub's terms: what may be retried, after how long, and the start-up refusals
// (a bad bot token, a bad app-level token) said in words a person can act on.
import { PlatformError } from '../chat/platform.js'

/** Slack's answers that may succeed when asked again; every other `{ok:false}` error cannot. */
const TRANSIENT = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
])

/** Slack's refusals of a message's blocks or markup: the same words may go as plain text. */
const FORMAT_ERRORS = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_blocks_too_long'])

/** The errors that say a token is not (or no longer) good. */
const AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
])

/** The shape @slack/web-api's errors share: a `code`, and per code a few more fields. */
interface SlackErrorLike {
  code?: unknown
  retryAfter?: unknown
  data?: { error?: unknown }
  statusCode?: unknown
  original?: { message?: unknown }
  message?: unknown
}

/** The `{ok:false, error}` code of a Web API refusal, or null for any other failure. */
export function slackErrorCode(error: unknown): string | null {
  const e = error as SlackErrorLike | null
  if (e?.code !== 'slack_webapi_platform_error') return null
  return typeof e.data?.error === 'string' ? e.data.error : null
}

export function tokenRefused(kind: 'bot token' | 'app-level token', code: string): string {
  const hint = kind === 'bot token' ? 'the xoxb-… token' : 'the xapp-… token with connections:write'
  return `Slack refused the ${kind} (${code}): check ${hint}`
}

/** What a failed Web API call means for the caller: a 429 waits, a refusal cannot succeed as asked. */
export function toPlatformError(error: unknown, what: string): PlatformError {
  if (error instanceof PlatformError) return error
  const e = (error ?? {}) as SlackErrorLike
  switch (e.code) {
    case 'slack_webapi_rate_limited_error': {
      const seconds = typeof e.retryAfter === 'number' && e.retryAfter > 0 ? e.retryAfter : 1
      return new PlatformError(`Slack ${what}: rate limited, retry after ${seconds}s`, {
        retryAfterMs: seconds * 1000,
      })
    }
    case 'slack_webapi_platform_error': {
      const code = slackErrorCode(error) ?? 'unknown_error'
      if (AUTH_ERRORS.has(code))
        return new PlatformError(tokenRefused('bot token', code), { permanent: true, tokenRefused: true })
      if (FORMAT_ERRORS.has(code))
        return new PlatformError(`Slack ${what}: ${code}`, { permanent: true, formatRefused: true })
      return new PlatformError(`Slack ${what}: ${code}`, { permanent: !TRANSIENT.has(code) })
    }
    case 'slack_webapi_http_error': {
      const status = typeof e.statusCode === 'number' ? e.statusCode : 0
      // Slack answers 200 for its own refusals; another 4xx is a proxy's or a broken request's.
      const permanent = status >= 400 && status < 500 && status !== 408
      return new PlatformError(`Slack ${what}: HTTP ${status}`, { permanent })
    }
    case 'slack_webapi_request_error':
      return new PlatformError(
        `Slack ${what}: ${String(e.original?.message ?? e.message ?? 'request failed')}`,
      )
    default:
      return new PlatformError(`Slack ${what}: ${error instanceof Error ? error.message : String(error)}`)
  }
}
