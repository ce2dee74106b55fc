// Small helpers for node:http handlers: bounded body reading, one-line JSON answers, tokens.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import { describeZod, HttpError } from '../../core/errors.js'
import { parseJson } from '../../core/json.js'

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) {
    req.resume()
    return Promise.reject(new HttpError(413, `body is ${declared} bytes; the limit is ${limit}`))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new HttpError(413, `body is over the limit of ${limit} bytes`))
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    // A client that hangs up mid-body is its own problem, not the hub's: a 400, never logged as a fault.
    req.on('error', () => reject(new HttpError(400, 'the connection closed before the body ended')))
  })
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

export function sendError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.end()
    return
  }
  if (err instanceof HttpError) sendJson(res, err.status, { error: err.message })
  else sendJson(res, 500, { error: 'internal error; see the hub log' })
}

/** `Authorization: Bearer <token>`. Only GET /events also takes `?token=` (see routes.ts). */
export function bearerToken(req: IncomingMessage): string | null {
  const auth = req.headers.authorization
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null
  return m?.[1] ?? null
}

/** A JSON body checked against `schema`; an empty body reads as `{}`. Problems answer 400. */
export async function readJson<T>(
  req: IncomingMessage,
  schema: z.ZodType<T>,
  limit = 1024 * 1024,
): Promise<T> {
  const raw = (await readBody(req, limit)).toString('utf8')
  const json = raw.trim() ? parseJson(raw) : {}
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw new HttpError(400, describeZod(parsed.error))
  return parsed.data
}
