// Discord's failures in the hub's terms: what may be retried, after how long, and a refused token said
// in words a person can act on.
import { DiscordAPIError, DiscordjsErrorCodes, HTTPError, RateLimitError } from 'discord.js'
import { PlatformError } from '../chat/platform.js'

export const TOKEN_REFUSED =
  'Discord refused the bot token (401 Unauthorized): check the token under Bot in the Developer Portal'

/** discord.js says "refused" three ways: a 401 from REST, its own TokenInvalid, a 4004 close on the gateway. */
export function isTokenRefused(error: unknown): boolean {
  if (error instanceof DiscordAPIError) return error.status === 401
  const e = error as { code?: unknown; message?: unknown } | null
  if (e?.code === DiscordjsErrorCodes.TokenInvalid) return true
  return e?.message === 'Authentication failed'
}

/** What a failed call means for the caller: a 429 waits, a refusal (4xx) cannot succeed as asked. */
export function toPlatformError(error: unknown, what: string): PlatformError {
  if (error instanceof PlatformError) return error
  if (isTokenRefused(error)) return new PlatformError(TOKEN_REFUSED, { permanent: true, tokenRefused: true })
  if (error instanceof RateLimitError) {
    const ms = error.retryAfter > 0 ? error.retryAfter : Math.max(error.timeToReset, 1000)
    return new PlatformError(`Discord ${what}: rate limited, retry after ${Math.ceil(ms / 1000)}s`, {
      retryAfterMs: ms,
    })
  }
  if (error instanceof DiscordAPIError) {
    const message = `Discord ${what}: ${error.message} (${error.status}, code ${error.code})`
    if (error.status === 429) {
      const seconds = Number((error.rawError as { retry_after?: unknown }).retry_after)
      return new PlatformError(message, { retryAfterMs: seconds > 0 ? seconds * 1000 : 1000 })
    }
    // 408 is the one 4xx that says nothing about the request itself.
    return new PlatformError(message, {
      permanent: error.status >= 400 && error.status < 500 && error.status !== 408,
    })
  }
  if (error instanceof HTTPError)
    return new PlatformError(`Discord ${what}: HTTP ${error.status} ${error.message}`)
  const reason = error instanceof Error ? error.message : String(error)
  return new PlatformError(`Discord ${what}: ${reason}`)
}

export async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw toPlatformError(error, what)
  }
}
