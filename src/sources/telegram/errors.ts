// Telegram's failures in the hub's terms: what may be retried, after how long, and the two start-up
// refusals (a bad token, another poller) said in words a person can act on.
import { GrammyError, HttpError } from 'grammy'
import { PlatformError } from '../chat/platform.js'

export const TOKEN_REFUSED =
  'Telegram refused the bot token (401 Unauthorized): check the token from @BotFather'
export const CONFLICT = 'another program is receiving updates for this bot (Telegram 409 Conflict)'

/** Telegram's 400 for markup it cannot read ("can't parse entities: Unsupported start tag…"). */
const CANT_PARSE = /can't parse entities|can't find end of the entity|unsupported start tag/i

/** What a failed Bot API call means for the caller: 429 waits, other 4xx cannot succeed as asked. */
export function toPlatformError(error: unknown, what: string): PlatformError {
  if (error instanceof PlatformError) return error
  if (error instanceof GrammyError) {
    const message = `Telegram ${what}: ${error.description} (${error.error_code})`
    if (error.error_code === 429) {
      const seconds = error.parameters.retry_after ?? 1
      return new PlatformError(message, { retryAfterMs: seconds * 1000 })
    }
    if (error.error_code === 401)
      return new PlatformError(TOKEN_REFUSED, { permanent: true, tokenRefused: true })
    if (error.error_code === 409) return new PlatformError(CONFLICT, { permanent: true })
    if (error.error_code === 400 && CANT_PARSE.test(error.description))
      return new PlatformError(message, { permanent: true, formatRefused: true })
    return new PlatformError(message, { permanent: error.error_code >= 400 && error.error_code < 500 })
  }
  if (error instanceof HttpError) return new PlatformError(`Telegram ${what}: ${error.message}`)
  const reason = error instanceof Error ? error.message : String(error)
  return new PlatformError(`Telegram ${what}: ${reason}`)
}

/** Editing a message into what it already is: the wanted state holds, so it is no failure. */
export function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && /message is not modified/i.test(error.description)
}
