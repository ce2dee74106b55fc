// A scripted fake of the OpenAI Responses API on 127.0.0.1, for running the real Codex CLI offline
// (shared/AGENTS.md §1b). Codex posts `POST /v1/responses` with `stream: true`; the fake answers with
// the few SSE events Codex needs: response.created, output_item.added/done (a message or a
// function_call) and response.completed. Each test gives it a responder that decides the model's next
// answer from the request; every request is recorded so tests can assert on what the model was shown.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LocalServer } from './local-server.js'

/** One item of a Responses request's `input` (a message, a function call, its output). */
export interface InputItem {
  type?: string
  role?: string
  content?: unknown
  call_id?: string
  output?: unknown
  [key: string]: unknown
}

export interface ResponsesRequest {
  model: string
  stream?: boolean
  input: InputItem[]
  tools?: { name?: string; type?: string }[]
  [key: string]: unknown
}

/** What the fake model does next: say something, or run a shell command through `exec_command`. */
export type Reply =
  /** `pieceMs`: the text streams a word at a time, this long apart (for interrupt tests). */
  | { text: string; pieceMs?: number }
  /** `escalate`: asks to run outside the sandbox, which makes Codex ask for approval. */
  | { shell: string; escalate?: boolean; justification?: string }

export type Responder = (request: ResponsesRequest, index: number) => Reply | Promise<Reply>

export class FakeOpenAI extends LocalServer {
  readonly requests: ResponsesRequest[] = []
  private responder: Responder = () => ({ text: 'ok' })
  private ids = 0

  respond(responder: Responder): void {
    this.responder = responder
  }

  /** What Codex's `base_url` is set to. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }))
      return
    }
    let request: ResponsesRequest
    try {
      request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ResponsesRequest
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: 'body is not JSON' } }))
      return
    }
    const index = this.requests.push(request) - 1
    let reply: Reply
    try {
      reply = await this.responder(request, index)
    } catch (err) {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: (err as Error).message } }))
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const id = `resp_fake_${++this.ids}`
    const send = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    send('response.created', { response: { id } })
    const item = this.itemOf(reply)
    send('response.output_item.added', { output_index: 0, item })
    if ('text' in reply && reply.pieceMs) {
      // A slow stream stops where the client went away (an interrupt), as a real API's does.
      let gone = false
      res.on('close', () => (gone = true))
      for (const word of reply.text.split(/(?<= )/)) {
        await new Promise((resolve) => setTimeout(resolve, reply.pieceMs))
        if (gone) return
        send('response.output_text.delta', { output_index: 0, item_id: item.id, delta: word })
      }
    } else if ('text' in reply)
      send('response.output_text.delta', { output_index: 0, item_id: item.id, delta: reply.text })
    send('response.output_item.done', { output_index: 0, item })
    send('response.completed', {
      response: {
        id,
        usage: { input_tokens: 20, output_tokens: 10, total_tokens: 30 },
      },
    })
    res.end()
  }

  private itemOf(reply: Reply): Record<string, unknown> {
    const n = ++this.ids
    if ('text' in reply)
      return {
        type: 'message',
        id: `msg_fake_${n}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      }
    const args = {
      cmd: reply.shell,
      ...(reply.escalate
        ? { sandbox_permissions: 'require_escalated', justification: reply.justification ?? 'the fake asks' }
        : {}),
    }
    return {
      type: 'function_call',
      id: `fc_fake_${n}`,
      call_id: `call_fake_${n}`,
      name: 'exec_command',
      arguments: JSON.stringify(args),
      status: 'completed',
    }
  }
}

/** The output of the latest tool call Codex sent back, if the request's last item is one. */
export function lastToolOutput(request: ResponsesRequest): string | null {
  const last = request.input.at(-1)
  if (last?.type !== 'function_call_output') return null
  return typeof last.output === 'string' ? last.output : JSON.stringify(last.output)
}

/** The text of the last user message of the request. */
export function lastUserText(request: ResponsesRequest): string {
  const users = request.input.filter((i) => i.type === 'message' && i.role === 'user')
  const content = users.at(-1)?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('')
}

/**
 * The script the tests use: a user message `RUN:<cmd>` asks for the command outside the sandbox
 * (Codex asks for approval), and the tool's result ends the turn with `DONE: <result>`.
 */
export const shellThenDone: Responder = (request) => {
  const output = lastToolOutput(request)
  if (output !== null) return { text: `DONE: ${output}` }
  const asked = /RUN:(.*)$/s.exec(lastUserText(request))
  if (asked?.[1]) return { shell: asked[1].trim(), escalate: true }
  return { text: 'nothing to do' }
}

/** Every user text the model was shown in `request`, in order. */
export function userTexts(request: ResponsesRequest): string[] {
  return request.input
    .filter((i) => i.type === 'message' && i.role === 'user' && Array.isArray(i.content))
    .map((i) => (i.content as { text?: string }[]).map((c) => c.text ?? '').join(''))
}

/** shellThenDone's script, and a prompt `SLOW` streams a long answer a word at a time, to interrupt. */
export const shellThenDoneOrSlow: Responder = (request, index) =>
  lastUserText(request) === 'SLOW' && lastToolOutput(request) === null
    ? { text: 'one two three four five six seven eight nine ten '.repeat(20), pieceMs: 300 }
    : shellThenDone(request, index)
