import type { z } from 'zod'

/** The first problem zod found, as one line: `path.to.field: message`. */
export function describeZod(err: z.ZodError): string {
  const issue = err.issues[0]
  if (!issue) return 'invalid input'
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message
}

/** A mistake the user can fix: printed as one line, without a stack trace. */
export class UserError extends Error {
  override name = 'UserError'
}

/** An HTTP answer with a status and a one-line reason. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}
