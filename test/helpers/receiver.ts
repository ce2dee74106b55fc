// A receiver on 127.0.0.1 standing in for whatever a webhook or an API call is POSTed to: it keeps
// each request's path, headers and parsed JSON body, and answers what `answer` says (200 by default).
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received<T> {
  path: string
  headers: IncomingHttpHeaders
  body: T
}

export async function startReceiver<T = Record<string, unknown>>(
  answer: (request: Received<T>) => { status: number; body?: string } = () => ({ status: 200 }),
) {
  const got: Received<T>[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => {
      raw += c
    })
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body: JSON.parse(raw) as T }
      const { status, body } = answer(request)
      if (status < 300) got.push(request)
      res.writeHead(status, { 'content-type': 'application/json' }).end(body ?? '{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** What was answered with a 2xx, in order. */
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
