// One client per entry point: each sends one input and says what came back, and never throws, so a
// fuzzer can tell a wrong answer from a dropped connection from a dead hub.
import http from 'node:http'
import net from 'node:net'
import WebSocket from 'ws'
import { clientMessageSchema } from '../../src/core/hub-protocol.js'
import type { FuzzHub } from './hub.js'
import type { Frame, HttpInput, HubSession } from './inputs.js'

/**
 * `failure` names what went wrong in a few words, so equal failures count together. `refused`: the
 * connection was refused, so the input never reached a hub (one that had died already).
 */
export type Outcome = { status?: number; failure?: string; detail?: string; refused?: boolean }

export const WEBHOOK_STATUSES = new Set([200, 202, 400, 401, 404, 405, 413, 431])
export const MESSAGE_STATUSES = new Set([200, 202, 400, 401, 403, 404, 409, 413, 431])

/** Sends one request; judges the status against the documented ones. */
export function sendHttp(
  port: number,
  input: HttpInput,
  agent: http.Agent,
  allowed: Set<number>,
  timeoutMs = 15_000,
): Promise<Outcome> {
  return new Promise((resolve) => {
    // Framing is always explicit: node sends a GET's body unframed unless told it is chunked.
    const framing = input.chunked
      ? { 'transfer-encoding': 'chunked' }
      : { 'content-length': String(input.body.length) }
    const headers = { ...input.headers, ...framing }
    let req: http.ClientRequest
    try {
      req = http.request({ host: '127.0.0.1', port, method: input.method, path: input.path, headers, agent })
    } catch (err) {
      resolve({ failure: 'refused by the client', detail: (err as Error).message })
      return
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)))
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({
        failure: 'dropped connection',
        detail: err.code ?? err.message,
        refused: err.code === 'ECONNREFUSED',
      }),
    )
    req.on('response', (res) => {
      const status = res.statusCode ?? 0
      res.resume()
      res.on('error', (err) => resolve({ failure: 'dropped connection', detail: err.message }))
      res.on('end', () => {
        if (status >= 500) resolve({ status, failure: `answered ${status}` })
        else if (!allowed.has(status)) resolve({ status, failure: `unexpected status ${status}` })
        else resolve({ status })
      })
    })
    if (!input.chunked) {
      req.end(input.body)
      return
    }
    // In pieces, so the hub sees the body grow past its limit instead of a declared length.
    const third = Math.ceil(input.body.length / 3)
    for (let i = 0; i < input.body.length; i += third) req.write(input.body.subarray(i, i + third))
    req.end()
  })
}

/**
 * Writes raw bytes and reads what comes back until the hub closes the socket, has been quiet for a
 * moment after answering, or `timeoutMs` passes (an unfinished request waits for more bytes).
 */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 150): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    let refused = false
    let quiet: NodeJS.Timeout | null = null
    const done = () => {
      clearTimeout(timer)
      if (quiet) clearTimeout(quiet)
      socket.destroy()
      const statuses = [...answer.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]))
      const bad = statuses.find((s) => s >= 500)
      resolve(bad ? { status: bad, failure: `answered ${bad}` } : { status: statuses[0] ?? 0, refused })
    }
    const timer = setTimeout(done, timeoutMs)
    socket.on('error', (err: NodeJS.ErrnoException) => {
      refused = err.code === 'ECONNREFUSED'
    })
    socket.on('close', done)
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      if (quiet) clearTimeout(quiet)
      if (answer.includes('\r\n\r\n')) quiet = setTimeout(done, 20)
    })
    socket.write(bytes)
  })
}

const framePayload = (frame: Frame, worker: string): string | Buffer =>
  // Names are made the worker's own, so one worker's reconnecting hello never takes another's name.
  'text' in frame ? frame.text.replaceAll('"fz-', `"fz${worker}-`) : frame.bytes

/** The reply the hub owes a frame: every frame gets one, except acks, rungs and byes after a hello. */
function owedReply(payload: string | Buffer, welcomed: boolean): 'error' | 'welcome' | 'result' | null {
  let json: unknown
  try {
    json = JSON.parse(String(payload))
  } catch {
    return 'error'
  }
  const parsed = clientMessageSchema.safeParse(json)
  if (!parsed.success) return 'error'
  const type = parsed.data.type
  if (type === 'hello') return welcomed ? 'error' : 'welcome'
  if (!welcomed) return 'error'
  return type === 'ack' || type === 'rung' || type === 'bye' ? null : 'result'
}

const isValidUtf8 = (bytes: Buffer) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

export function hubSocket(port: number, token: string): WebSocket {
  return new WebSocket(`ws://127.0.0.1:${port}/hub`, { headers: { authorization: `Bearer ${token}` } })
}

/**
 * One channel's life: frames before a hello, maybe a hello, frames after. Every reply the hub owes
 * must arrive, in order, and the hub must not close the socket, except for invalid UTF-8 in a text
 * frame, which ends a WebSocket by the protocol (1007).
 */
export function runSession(
  port: number,
  token: string,
  session: HubSession,
  worker: string,
  timeoutMs = 15_000,
): Promise<Outcome & { frames: number }> {
  return new Promise((resolve) => {
    const ws = hubSocket(port, token)
    const owed: string[] = []
    const got: string[] = []
    let frames = 0
    let endsWith1007 = false
    let settled = false
    const finish = (outcome: Outcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (ws.readyState === WebSocket.OPEN) {
        if (session.end === 'bye') ws.send('{"type":"bye"}')
        if (session.end === 'terminate') ws.terminate()
        else ws.close()
      } else ws.terminate()
      resolve({ ...outcome, frames })
    }
    const timer = setTimeout(
      () => finish({ failure: 'missing replies', detail: `owed ${owed.join(',')}; got ${got.join(',')}` }),
      timeoutMs,
    )
    const check = () => {
      if (got.length < owed.length) return
      if (got.join() === owed.join()) finish({})
      else finish({ failure: 'wrong replies', detail: `owed ${owed.join(',')}; got ${got.join(',')}` })
    }
    ws.on('error', (err: NodeJS.ErrnoException) =>
      finish({ failure: 'socket error', detail: err.message, refused: err.code === 'ECONNREFUSED' }),
    )
    ws.on('close', (code) => {
      if (endsWith1007 && code === 1007) finish({})
      else finish({ failure: `closed by the hub (${code})` })
    })
    ws.on('message', (data) => {
      let type: string
      try {
        type = (JSON.parse(String(data)) as { type: string }).type
      } catch {
        finish({ failure: 'a reply that is not JSON', detail: String(data).slice(0, 100) })
        return
      }
      if (type === 'deliver' || type === 'verdict') return
      got.push(type)
      check()
    })
    ws.on('open', () => {
      let welcomed = false
      const hello: Frame[] = session.hello ? [{ text: JSON.stringify(session.hello) }] : []
      for (const frame of [...session.before, ...hello, ...session.after]) {
        const payload = framePayload(frame, worker)
        const binary = 'bytes' in frame && frame.binary
        frames++
        ws.send(payload, { binary })
        if (!binary && Buffer.isBuffer(payload) && !isValidUtf8(payload)) {
          endsWith1007 = true
          return
        }
        const reply = owedReply(payload, welcomed)
        if (reply === 'welcome') welcomed = true
        if (reply) owed.push(reply)
      }
      check()
    })
  })
}

/**
 * A well-behaved channel next to the fuzzed ones: subscribed to everything, acknowledging what it
 * gets, reconnecting after a hub restart. Counts the times the hub closed it while staying up.
 */
export class Watcher {
  /** Each beat delivered (see beat()), with when it arrived. */
  readonly received = new Map<string, number>()
  /** Why the hub closed this channel while staying up, each time it did. */
  readonly closedByHub: string[] = []
  private ws: WebSocket | null = null
  private stopped = false
  private ackTimer: NodeJS.Timeout | null = null
  private lastSeq = 0

  constructor(private readonly hub: FuzzHub) {}

  /** Resolves once the hub welcomed it. */
  start(): Promise<void> {
    return new Promise((resolve) => this.connect(resolve))
  }

  stop(): void {
    this.stopped = true
    this.ws?.terminate()
  }

  /** Posts `content` to the `beat` source and waits for it here: null when the hub did not take it. */
  async beat(content: string, timeoutMs = 10_000): Promise<boolean | null> {
    const res = await fetch(`${this.hub.home.url}/hooks/beat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.hub.secrets.beat}` },
      body: content,
    }).catch(() => null)
    if (res?.status !== 202) return null
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (this.received.has(content)) return true
      await new Promise((r) => setTimeout(r, 5))
    }
    return false
  }

  private connect(onWelcome: () => void = () => {}): void {
    const ws = hubSocket(this.hub.port, this.hub.adminToken)
    this.ws = ws
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'hello', subscriber: 'watcher', topics: ['*'], reconnect: true })),
    )
    let welcomed = false
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; event?: { seq: number; content: string } }
      if (msg.type === 'welcome') {
        welcomed = true
        onWelcome()
      }
      if (msg.type !== 'deliver' || !msg.event) return
      // Only beats are kept: other events may be megabytes each.
      if (msg.event.content.startsWith('beat ')) this.received.set(msg.event.content, Date.now())
      this.lastSeq = Math.max(this.lastSeq, msg.event.seq)
      this.ackTimer ??= setTimeout(() => {
        this.ackTimer = null
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ack', seq: this.lastSeq }))
      }, 5)
    })
    ws.on('error', () => {})
    const exitsBefore = this.hub.exits.length
    ws.on('close', async (code, reason) => {
      if (this.stopped) return
      // A hub that went down takes its sockets with it; one that stays up must not close this one.
      await this.hub.diesWithin(500)
      if (welcomed && this.hub.exits.length === exitsBefore) this.closedByHub.push(`${code} ${reason}`.trim())
      setTimeout(() => this.connect(onWelcome), 100)
    })
  }
}
