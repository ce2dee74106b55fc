// A tiny HTTP server on 127.0.0.1 that Claude Code's `type: "http"` hooks POST to: it records every
// request (path, headers, JSON body, whether the CLI closed it before an answer) and answers each path
// as the test says, at once, after a while, or never (held until the test answers or the CLI gives up).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

export interface HookCall {
  path: string
  headers: IncomingMessage['headers']
  // biome-ignore lint/suspicious/noExplicitAny: a hook payload is whatever the CLI sends; tests read it
  body: any
  /** The CLI closed the request before it was answered (its timeout, or an abort). */
  closedUnanswered: boolean
  answered: boolean
}

export type HookReply = { status?: number; body?: string } | 'hold'
export type HookAnswer = (call: HookCall) => HookReply | Promise<HookReply>

/** The hook's JSON output as the body of a 200. */
export const json = (output: unknown): { body: string } => ({ body: JSON.stringify(output) })

export class HookTarget {
  readonly calls: HookCall[] = []
  private readonly answers = new Map<string, HookAnswer>()
  private readonly held = new Map<HookCall, ServerResponse>()
  private server: Server | null = null
  private port = 0

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve))
    const address = this.server.address()
    this.port = typeof address === 'object' && address ? address.port : 0
    return this
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`
  }

  /** How `path` is answered from now on (unset: 200 with an empty body). */
  answer(path: string, answer: HookAnswer): void {
    this.answers.set(path, answer)
  }

  on(path: string): HookCall[] {
    return this.calls.filter((c) => c.path === path)
  }

  /** Answers a held call now; false if the CLI already closed it. */
  release(call: HookCall, reply: Exclude<HookReply, 'hold'>): boolean {
    const res = this.held.get(call)
    this.held.delete(call)
    if (!res || res.destroyed) return false
    this.send(call, res, reply)
    return true
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // kept as text: the test sees what came
    }
    const call: HookCall = {
      path: req.url ?? '',
      headers: req.headers,
      body,
      closedUnanswered: false,
      answered: false,
    }
    this.calls.push(call)
    res.on('close', () => {
      if (!call.answered) call.closedUnanswered = true
    })
    const reply = await (this.answers.get(call.path) ?? (() => ({ body: '' })))(call)
    if (reply === 'hold') this.held.set(call, res)
    else this.send(call, res, reply)
  }

  private send(call: HookCall, res: ServerResponse, reply: { status?: number; body?: string }): void {
    if (res.destroyed) return
    call.answered = true
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' })
    res.end(reply.body ?? '')
  }
}
