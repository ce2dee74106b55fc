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
