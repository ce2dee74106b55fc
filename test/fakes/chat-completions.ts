// A scripted fake of the OpenAI Chat Completions API on 127.0.0.1, for running the real OpenCode CLI
// offline (shared/AGENTS.md §3a–3b). OpenCode's provider `@ai-sdk/openai-compatible` posts
// `POST /v1/chat/completions` with `stream: true` and `stream_options: {include_usage: true}`; the fake
// answers with `chat.completion.chunk` SSE lines: the reply's text (or one call of the `bash` tool),
// the finish reason, a last chunk with the usage, then `[DONE]`. The session's turns offer tools; the
// title request OpenCode sends on its small_model before the first turn offers none and gets a short
// title. Each test gives the fake a responder that decides the model's next answer from the request;
// every request is recorded so tests can assert on what the model was shown.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LocalServer } from './local-server.js'

/** One message of a request: the system prompt, a person's text, the model's tool call, a tool's result. */
export interface ChatMessage {
  role: string
  content?: unknown
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
  [key: string]: unknown
}

export interface ChatRequest {
  model: string
  stream?: boolean
  messages: ChatMessage[]
  tools?: { type?: string; function?: { name: string; parameters?: Record<string, unknown> } }[]
  [key: string]: unknown
}

/** What the fake model does next: say something, or run a shell command through OpenCode's `bash` tool. */
export type Reply =
  /** `pieceMs`: the text streams a word at a time, this long apart (for interrupt tests). */
  { text: string; pieceMs?: number } | { shell: string }

export type Responder = (request: ChatRequest, index: number) => Reply | Promise<Reply>

export class FakeChatCompletions extends LocalServer {
  readonly requests: ChatRequest[] = []
  private responder: Responder = shellThenDone
  private ids = 0

  /** Replaces the script (by default shellThenDone's RUN: and SLOW). */
  respond(responder: Responder): void {
    this.responder = responder
  }

  /** What the provider's `options.baseURL` is set to in opencode.json. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`
  }

  /** The session's own turns: the requests that offer the model tools (not the title request). */
  get turns(): ChatRequest[] {
    return this.requests.filter((r) => r.tools?.length)
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method === 'GET' && req.url?.endsWith('/models'))
      return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }] })
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))
      return json(res, 404, { error: { message: `no route ${req.method} ${req.url}` } })
    let request: ChatRequest
    try {
      request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest
    } catch {
      return json(res, 400, { error: { message: 'body is not JSON' } })
    }
    const index = this.requests.push(request) - 1
    let reply: Reply
    try {
      reply = request.tools?.length ? await this.responder(request, index) : { text: 'A fake session' }
    } catch (err) {
      return json(res, 500, { error: { message: (err as Error).message } })
    }
    const id = `chatcmpl_fake_${++this.ids}`
    const usage = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 }
    if (!request.stream) return json(res, 200, this.completion(id, request.model, reply, usage))
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const chunk = (choices: unknown[], more: Record<string, unknown> = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: request.model, choices, ...more })}\n\n`,
      )
    const delta = (d: Record<string, unknown>, finish: string | null = null) =>
      chunk([{ index: 0, delta: d, finish_reason: finish }])
    if ('shell' in reply) {
      delta({ role: 'assistant', tool_calls: [this.toolCall(reply.shell, 0)] })
      delta({}, 'tool_calls')
    } else if (reply.pieceMs) {
      // A slow stream stops where the client went away (an interrupt), as a real API's does.
      let gone = false
      res.on('close', () => (gone = true))
      delta({ role: 'assistant', content: '' })
      for (const word of reply.text.split(/(?<= )/)) {
        await new Promise((resolve) => setTimeout(resolve, reply.pieceMs))
        if (gone) return
        delta({ content: word })
      }
      delta({}, 'stop')
    } else {
      delta({ role: 'assistant', content: reply.text })
      delta({}, 'stop')
    }
    if ((request.stream_options as { include_usage?: boolean } | undefined)?.include_usage)
      chunk([], { usage })
    res.end('data: [DONE]\n\n')
  }

  private toolCall(command: string, index: number): Record<string, unknown> {
    return {
      index,
      id: `call_fake_${++this.ids}`,
      type: 'function',
      function: { name: 'bash', arguments: JSON.stringify({ command }) },
    }
  }

  private completion(id: string, model: string, reply: Reply, usage: unknown): Record<string, unknown> {
    const message =
      'shell' in reply
        ? { role: 'assistant', content: null, tool_calls: [this.toolCall(reply.shell, 0)] }
        : { role: 'assistant', content: reply.text }
    const finish = 'shell' in reply ? 'tool_calls' : 'stop'
    return {
      id,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    }
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** A message's text, whether it came as a string or as parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('')
}

/**
 * The text of the last message a person sent. `opencode run "a b"` wraps an argument holding a space
 * in literal double quotes (AGENTS.md §3a), which are taken off here.
 */
export function lastUserText(request: ChatRequest): string {
  const users = request.messages.filter((m) => m.role === 'user')
  const text = textOf(users.at(-1)?.content).trim()
  return /^".*"$/s.test(text) ? text.slice(1, -1) : text
}

/** The output of the latest tool call OpenCode sent back, if the request's last message is one. */
export function lastToolOutput(request: ChatRequest): string | null {
  const last = request.messages.at(-1)
  if (last?.role !== 'tool') return null
  return textOf(last.content)
}

/**
 * The script the tests use: a prompt `RUN:<cmd>` asks for the command through `bash`, and the tool's
 * result ends the turn with `DONE: <result>`; a prompt `SLOW` streams a long answer a word at a time
 * (for interrupts); anything else gets one line.
 */
export const shellThenDone: Responder = (request) => {
  const output = lastToolOutput(request)
  if (output !== null) return { text: `DONE: ${output}` }
  const prompt = lastUserText(request)
  if (prompt === 'SLOW') return { text: 'a slow answer '.repeat(200).trim(), pieceMs: 50 }
  const asked = /RUN:(.*)$/s.exec(prompt)
  if (asked?.[1]) return { shell: asked[1].trim() }
  return { text: 'nothing to do' }
}
