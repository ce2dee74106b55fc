// One way to fail: a DomainError names what kind of failure it is, in words a caller can act on.
// Each surface maps the kind in one place: HTTP statuses (hub/http/errors.ts), MCP tool results
// (core/tool-call.ts), a chat's answer to a button (hub/bridges/verdicts.ts), CLI exit codes
// (cli/main.ts; the hub's answers carry the kind, so a refusal over HTTP is one too). Anything else
// thrown is a fault: logged where it happened, and shown without its internals.
import type * as z from 'zod'

export const ERROR_KINDS = [
  'invalid',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'too_large',
  'rate_limited',
  'unavailable',
  'upstream',
] as const
export type ErrorKind = (typeof ERROR_KINDS)[number]

export class DomainError extends Error {
  override name = 'DomainError'
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message)
  }
}

/** The caller's input is wrong (a body, an argument, a flag, a config key). */
export const invalid = (message: string) => new DomainError('invalid', message)
/** No credential, or one nobody knows. */
export const unauthorized = (message: string) => new DomainError('unauthorized', message)
/** Known, but not allowed to do this. */
export const forbidden = (message: string) => new DomainError('forbidden', message)
export const notFound = (message: string) => new DomainError('not_found', message)
/** The thing is in a state that does not allow this now (answered already, running, stopped). */
export const conflict = (message: string) => new DomainError('conflict', message)
export const tooLarge = (message: string) => new DomainError('too_large', message)
export const rateLimited = (message: string) => new DomainError('rate_limited', message)
/** Something it depends on does not answer (a hub, a CLI, another hub, a platform). */
export const unavailable = (message: string) => new DomainError('unavailable', message)
/** Another hub this one passes a request on to failed it: it does not answer or prove itself. */
export const upstream = (message: string) => new DomainError('upstream', message)

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError
}

/** The first problem zod found, as one line: `path.to.field: message`. */
export function describeZod(err: z.ZodError): string {
  const issue = err.issues[0]
  if (!issue) return 'invalid input'
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message
}
