import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import type { HubEnv } from './env.js'
import { requestListener } from './node.js'

const log = pino({ level: 'silent' })
let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

async function serve(app: Hono<HubEnv>): Promise<string> {
  server = createServer(requestListener({ fetch: (req, env) => app.fetch(req, env) }, false, log))
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('the Node listener', () => {
  it('answers JSON with its length, every cookie, and the body a route read', async () => {
    const app = new Hono<HubEnv>()
    app.post('/echo/:name', async (c) => {
      c.header('set-cookie', 'a=1; HttpOnly', { append: true })
      c.header('set-cookie', 'b=2; HttpOnly', { append: true })
      const body = (await c.req.json()) as { n: number }
      return c.json({ name: c.req.param('name'), n: body.n, agent: c.req.header('x-agent') }, 201)
    })
    const url = await serve(app)
    const answer = await fetch(`${url}/echo/caf%C3%A9?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent': 'test' },
      body: JSON.stringify({ n: 7 }),
    })
    const text = await answer.text()
    expect(answer.status).toBe(201)
    expect(JSON.parse(text)).toEqual({ name: 'café', n: 7, agent: 'test' })
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(answer.headers.getSetCookie()).toEqual(['a=1; HttpOnly', 'b=2; HttpOnly'])
  })

  it('sends an event stream as it is written, and stops it when the client goes away', async () => {
    const app = new Hono<HubEnv>()
    let aborted!: () => void
    const gone = new Promise<void>((resolve) => {
      aborted = resolve
    })
    app.get('/stream', (c) =>
      streamSSE(c, async (stream) => {
        stream.onAbort(() => aborted())
        await stream.writeSSE({ data: 'first' })
        // Held open: only the client's leaving ends it.
        await gone
      }),
    )
    const url = await serve(app)
    const firstEvent = await new Promise<string>((resolve, reject) => {
      const req = request(`${url}/stream`, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream')
        res.once('data', (chunk: Buffer) => {
          resolve(chunk.toString('utf8'))
          req.destroy()
        })
      })
      req.on('error', reject)
      req.end()
    })
    expect(firstEvent).toContain('data: first')
    await gone // the route's abort handler ran: nothing is left writing to a closed connection
  })
})
