// Reading and answering on Node's own request and response, for the routes that keep to them: the
// webhook (the hot path: bench:router) and the sender streams.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { invalid, tooLarge } from '../../core/errors.js'

/**
 * What a route returns once it has answered on Node's response itself: the Node listener (node.ts)
 * then writes nothing more.
 */
export const ANSWERED_ON_NODE: Response = new Response(null, { status: 204 })

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) {
    req.resume()
    return Promise.reject(tooLarge(`body is ${declared} bytes; the limit is ${limit}`))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(tooLarge(`body is over the limit of ${limit} bytes`))
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    // A client that hangs up mid-body is its own problem, not the hub's: a 400, never logged as a fault.
    req.on('error', () => reject(invalid('the connection closed before the body ended')))
  })
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

export function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name]
  return (Array.isArray(v) ? v[0] : v) ?? null
}
