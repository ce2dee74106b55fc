// The hub's HTTP edge as a stranger on its port meets it: bodies larger than a route takes, a HEAD of
// a route that acts when it is read, and a client that hangs up halfway through its body. Each tried
// against a running hub, on the wire.
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import { SseReader } from './helpers/sse.js'

const world = homePerTest()
const MiB = 1024 * 1024

/** Starts the home's hub in the background, as `switchboard start` does, and waits for it to answer. */
async function startHub(env: Record<string, string> = {}): Promise<number> {
  Object.assign(world.home.extraEnv, env)
  await world.home.cli('start')
  await world.home.waitForHub()
  const pid = world.home.hubPid()
  if (pid === null) throw new Error('the hub wrote no hub.json')
  return pid
}

/** The most memory the hub has held at once since it started (VmHWM), in bytes. */
function peakMemory(pid: number): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  if (!kb) throw new Error(`no VmHWM for ${pid}`)
  return Number(kb) * 1024
}

interface Flooded {
  /** The status the hub answered with; 0: none before the connection ended. */
  status: number
  /** Body bytes written before the hub answered or the connection ended. */
  sent: number
}

/**
 * Sends a request's head, then up to `total` bytes of body (as one length, or in chunks with none),
 * as fast as the hub takes them; stops sending once the hub answers or the connection ends.
 */
function flood(method: string, path: string, total: number, options: { chunked: boolean; headers?: string }) {
  return new Promise<Flooded>((resolve) => {
    const socket = connect(world.home.port, '127.0.0.1')
    let answer = ''
    let sent = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      socket.destroy()
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), sent })
    }
    socket.on('data', (chunk) => {
      answer += chunk
      if (answer.includes('\r\n')) finish()
    })
    socket.on('error', finish)
    socket.on('close', finish)
    const framing = options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`
    const piece = Buffer.alloc(MiB, 'a')
    // A piece at a time, reading between them as any client does (curl, a browser): the answer is seen
    // as soon as it comes, not after the last write.
    const next = () => {
      if (done) return
      if (sent >= total) return void (options.chunked && socket.write('0\r\n\r\n'))
      const data = options.chunked
        ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
        : piece
      sent += piece.length
      if (socket.write(data)) setImmediate(next)
      else socket.once('drain', next)
    }
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${world.home.port}\r\n` +
        `Content-Type: application/json\r\n${options.headers ?? ''}${framing}\r\n\r\n`,
    )
    next()
  })
}

describe('request bodies', () => {
  const BODY = 160 * MiB

  it('refuses a sign-in body past its limit with 413 as soon as it says its length, without reading it', async () => {
    const pid = await startHub()
    const before = peakMemory(pid)
    const answer = await flood('POST', '/api/signin', BODY, { chunked: false })
    expect(answer.status).toBe(413)
    expect(answer.sent).toBeLessThan(BODY)
    // Generous: the body's size is what reading it whole would have cost, several times over.
    expect(peakMemory(pid) - before).toBeLessThan(BODY / 4)
    expect(await hubAnswers()).toBe(true)
  })

  it('cuts a chunked sign-in body with no length off at the limit, as it is read', async () => {
    const pid = await startHub()
    const before = peakMemory(pid)
    const answer = await flood('POST', '/api/signin', BODY, { chunked: true })
    expect(answer.status).toBe(413)
    expect(answer.sent).toBeLessThan(BODY)
    expect(peakMemory(pid) - before).toBeLessThan(BODY / 4)
    expect(await hubAnswers()).toBe(true)
  })

  it('refuses an oversized body on pairing, a webhook, a message and a signed-in route too', async () => {
    const pid = await startHub()
    const secret = await world.home.addSource('ci')
    const token = await world.home.addSender('alice')
    const before = peakMemory(pid)
    for (const chunked of [false, true]) {
      expect((await flood('POST', '/pair', BODY, { chunked })).status).toBe(413)
      const webhook = await flood('POST', '/hooks/ci', BODY, {
        chunked,
        headers: `Authorization: Bearer ${secret}\r\n`,
      })
      expect(webhook.status).toBe(413)
      const message = await flood('POST', '/messages', BODY, {
        chunked,
        headers: `Authorization: Bearer ${token}\r\n`,
      })
      expect(message.status).toBe(413)
      // Who is asking comes first: a stranger's body is never read, whatever its size.
      expect((await flood('POST', '/api/sessions', BODY, { chunked })).status).toBe(401)
    }
    expect(peakMemory(pid) - before).toBeLessThan(BODY / 4)
    expect(await hubAnswers()).toBe(true)
  })
})

async function hubAnswers(): Promise<boolean> {
  return (await fetch(`${world.home.url}/health`).catch(() => null))?.ok === true
}

/** A request as written on the wire, read until the end of its answer's head. */
function head(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(world.home.port, '127.0.0.1', () => socket.write(request))
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk
      if (answer.includes('\r\n\r\n')) {
        socket.destroy()
        resolve(answer)
      }
    })
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

describe('HEAD', () => {
  it('of a paired device’s stream runs nothing: its next GET of the stream still gets its "Paired"', async () => {
    await startHub()
    const asked = (await (await fetch(`${world.home.url}/pair`, { method: 'POST' })).json()) as {
      code: string
      token: string
    }
    await world.home.cli('pair', asked.code, '--name', 'phone')
    const answer = await head(
      `HEAD /events HTTP/1.1\r\nHost: 127.0.0.1:${world.home.port}\r\n` +
        `Authorization: Bearer ${asked.token}\r\n\r\n`,
    )
    const stream = await SseReader.open(world.home.url, asked.token)
    world.opened.push(stream)
    const paired = (await stream.waitFor('paired')).data as { text: string }
    expect(paired.text).toMatch(/^Paired/)
    expect(answer).toMatch(/^HTTP\/1\.1 405/)
  })

  it('of the dashboard’s page still answers its headers', async () => {
    await startHub()
    const answer = await fetch(`${world.home.url}/`, { method: 'HEAD' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toContain('text/html')
    expect(answer.headers.get('x-frame-options')).toBe('DENY')
  })
})

describe('a GET or HEAD that carries a body past its route’s limit', () => {
  // A HEAD runs no route (it is refused before its body is read), a GET its route.
  for (const [method, status] of [
    ['GET', 413],
    ['HEAD', 405],
  ]) {
    it(`(${method}) is refused, and its keep-alive connection answers the next request`, async () => {
      await startHub()
      const socket = connect(world.home.port, '127.0.0.1')
      world.opened.push({ close: () => socket.destroy() })
      let received = ''
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1')
      })
      const chunk = (size: number) => `${size.toString(16)}\r\n${'x'.repeat(size)}\r\n`
      const head = `Host: 127.0.0.1:${world.home.port}\r\n`
      // The body comes in chunks: the hub answers once it has read past the limit, and the rest
      // arrives after its answer, as a client that sends its body whole writes it.
      socket.write(`${method} /health HTTP/1.1\r\n${head}Transfer-Encoding: chunked\r\n\r\n${chunk(70_000)}`)
      await waitFor(() => /^HTTP\/1\.1 (\d+)/.test(received), 15_000, 'the answer to the first request')
      expect(received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
      socket.write(`${chunk(10_000)}0\r\n\r\nGET /health HTTP/1.1\r\n${head}\r\n`)
      await waitFor(
        () => (received.match(/HTTP\/1\.1 \d+/g) ?? []).length === 2,
        15_000,
        'the answer to the next request on the connection',
      )
      expect(received.match(/HTTP\/1\.1 \d+/g)?.[1]).toBe('HTTP/1.1 200')
    })
  }
})

describe('a client that hangs up halfway through its body', () => {
  /** The hub's log lines (logs/hub.log: its stdout and stderr), parsed where they are JSON. */
  function logLines(): { level?: number; msg?: string; reason?: string; raw: string }[] {
    const text = readFileSync(join(world.home.dir, 'logs', 'hub.log'), 'utf8')
    return text
      .split('\n')
      .filter(Boolean)
      .map((raw) => {
        try {
          return { ...(JSON.parse(raw) as object), raw }
        } catch {
          return { raw }
        }
      })
  }

  it('is its own trouble: the hub logs no error, and says so at debug level at most', async () => {
    await startHub({ SWITCHBOARD_LOG_LEVEL: 'debug' })
    const admin = readFileSync(join(world.home.dir, 'admin-token'), 'utf8').trim()
    const requests = [
      ['/api/signin', ''],
      ['/api/sessions', `Authorization: Bearer ${admin}\r\n`],
    ]
    for (const [path, auth] of requests) {
      const seen = logLines().length
      await new Promise<void>((resolve) => {
        // 400 bytes said, 14 sent, and the connection closed.
        const socket = connect(world.home.port, '127.0.0.1', () =>
          socket.end(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${world.home.port}\r\n${auth}` +
              'Content-Type: application/json\r\nContent-Length: 400\r\n\r\n{"token": "abc',
          ),
        )
        socket.resume() // whatever the hub answers is read, so its closing is seen
        socket.on('close', () => resolve())
        socket.on('error', () => {})
      })
      // Until the hub has dealt with it one way or the other: an error, or its refusal at debug level.
      await waitFor(
        () =>
          logLines()
            .slice(seen)
            .some((line) => (line.level ?? 0) >= 50 || /before the body ended/.test(line.reason ?? '')),
        10_000,
        `the hub to log what became of ${path}`,
      )
      const errors = logLines()
        .slice(seen)
        .filter((line) => (line.level ?? 0) >= 50 || (line.level === undefined && /error/i.test(line.raw)))
      expect(errors.map((line) => line.raw)).toEqual([])
    }
    expect(await hubAnswers()).toBe(true)
  })
})
