// Small helpers for node:http handlers: bounded body reading, one-line JSON answers, tokens.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpError } from '../core/errors.js'

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
    req.on('error', reject)
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

/** `Authorization: Bearer <token>`, or `?token=` for clients that cannot set headers (EventSource). */
export function bearerToken(req: IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null
  return m?.[1] ?? url.searchParams.get('token')
}
