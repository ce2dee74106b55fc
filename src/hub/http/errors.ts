// How the one app answers a failure: a DomainError's kind becomes its status, with the reason and the
// kind in the body ({ error, kind }), and a line at debug level; anything else is a fault, logged, and
// answered 500.
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { type DomainError, type ErrorKind, isDomainError } from '../../core/errors.js'
import type { Logger } from '../../core/log.js'
import type { HubEnv } from './env.js'

export const STATUS_OF_KIND: Record<ErrorKind, 400 | 401 | 403 | 404 | 409 | 413 | 429 | 502 | 503> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  upstream: 502,
}

/** A refusal as the app answers every one: its status, and `{ error, kind }`. */
export function refusal(err: DomainError): Response {
  return Response.json({ error: err.message, kind: err.kind }, { status: STATUS_OF_KIND[err.kind] })
}

export function onError(log: Logger) {
  return (err: Error, c: Context<HubEnv>) => {
    // What the client had still to send is the adapter's to drain (a little, briefly) or cut off.
    if (isDomainError(err)) {
      log.debug({ path: c.req.path, kind: err.kind, reason: err.message }, 'refused')
      return refusal(err)
    }
    if (err instanceof HTTPException) return c.json({ error: err.message }, err.status)
    log.error({ err, path: c.req.path }, 'request failed')
    return c.json({ error: 'internal error; see the hub log', kind: null }, 500)
  }
}
