// JSON-RPC over a child's stdio, one JSON object a line, as `codex app-server` speaks it
// (shared/AGENTS.md §1e; the `"jsonrpc":"2.0"` field may be left out, and its replies leave it out).
// Three kinds of message come in: answers to our requests (by id), notifications, and the server's
// own requests (an approval), which we answer by their id. Every message read is checked first.
import * as z from 'zod'
import { NdjsonReader } from '../../claude/ndjson.js'
import { DomainError, unavailable } from '../../core/errors.js'

const idSchema = z.union([z.string(), z.number()])
const paramsSchema = z.record(z.string(), z.unknown()).optional()

const messageSchema = z.union([
  z.object({ id: idSchema, method: z.string().min(1), params: paramsSchema }),
  z.object({ method: z.string().min(1), params: paramsSchema }),
  // The error before the result: a missing `result` would read as an undefined one.
  z.object({
    id: idSchema,
    error: z.object({ code: z.number().optional(), message: z.string() }).passthrough(),
  }),
  z.object({ id: idSchema, result: z.unknown() }),
])
type Message = z.infer<typeof messageSchema>

function checkMessage(value: unknown): { ok: true; value: Message } | { ok: false; reason: string } {
  const parsed = messageSchema.safeParse(value)
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: 'not a JSON-RPC message' }
}

/** The server answered a request with an error. */
export class RpcError extends DomainError {
  override name = 'RpcError'
  constructor(method: string, message: string) {
    super('conflict', `${method}: ${message}`)
  }
}

export interface RpcHandlers {
  notification(method: string, params: Record<string, unknown>): void
  /** A request of the server's; what it resolves with is the result, what it throws the error. */
  request(
    method: string,
    params: Record<string, unknown>,
    id: string | number,
  ): Promise<Record<string, unknown>>
  skipped(reason: string, line: string): void
}

export class RpcPeer {
  private nextId = 1
  private readonly waiting = new Map<
    number,
    { method: string; resolve(v: Record<string, unknown>): void; reject(e: Error): void }
  >()
  private readonly reader: NdjsonReader<Message>
  private closed: Error | null = null

  constructor(
    private readonly write: (line: string) => Promise<void>,
    private readonly handlers: RpcHandlers,
  ) {
    this.reader = new NdjsonReader(checkMessage, (m) => this.take(m), handlers.skipped)
  }

  push(chunk: Buffer): void {
    this.reader.push(chunk)
  }

  /** Sends a request and resolves with its result (an object; anything else reads as {}). */
  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.closed) throw this.closed
    const id = this.nextId++
    const answer = new Promise<Record<string, unknown>>((resolve, reject) =>
      this.waiting.set(id, { method, resolve, reject }),
    )
    try {
      await this.write(JSON.stringify({ id, method, params }))
    } catch (err) {
      this.waiting.delete(id)
      throw err
    }
    return answer
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.write(JSON.stringify({ method, ...(params ? { params } : {}) }))
  }

  /** The process is gone: every request still waiting fails now. */
  close(reason: string): void {
    this.reader.end()
    this.closed = unavailable(reason)
    for (const waiter of this.waiting.values()) waiter.reject(this.closed)
    this.waiting.clear()
  }

  private take(message: Message): void {
    if ('method' in message && 'id' in message) {
      void this.answer(message.id, message.method, message.params ?? {})
    } else if ('method' in message) {
      this.handlers.notification(message.method, message.params ?? {})
    } else if (typeof message.id === 'number') {
      const waiter = this.waiting.get(message.id)
      if (!waiter) return
      this.waiting.delete(message.id)
      if ('error' in message) waiter.reject(new RpcError(waiter.method, message.error.message))
      else waiter.resolve(asObject(message.result))
    }
  }

  private async answer(id: string | number, method: string, params: Record<string, unknown>): Promise<void> {
    let reply: Record<string, unknown>
    try {
      reply = { id, result: await this.handlers.request(method, params, id) }
    } catch (err) {
      reply = { id, error: { code: -32000, message: (err as Error).message } }
    }
    if (!this.closed) await this.write(JSON.stringify(reply)).catch(() => {})
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}
