// A scripted fake of the Gemini API on 127.0.0.1, for running the real Gemini CLI offline
// (shared/AGENTS.md §2a–2b). Gemini CLI posts `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
// for the session's turns and `:generateContent` for its side calls (a session's summary, JSON-mode
// checks); the fake answers each with GenerateContentResponse objects, streamed as SSE `data:` lines or
// as one JSON body. Each test gives it a responder that decides the model's next answer from the
// request; the side calls get a short text, or JSON shaped by the request's schema. Every request is
// recorded, with its model and method, so tests can assert on what the model was shown.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LocalServer } from './local-server.js'

/** One part of a content: text, a call of a tool, or a tool's response. */
export interface Part {
  text?: string
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> }
  functionResponse?: { id?: string; name: string; response?: Record<string, unknown> }
  [key: string]: unknown
}

export interface Content {
  role?: string
  parts?: Part[]
}

export interface GenerateRequest {
  contents: Content[]
  tools?: { functionDeclarations?: { name: string }[] }[]
  generationConfig?: {
    responseMimeType?: string
    responseJsonSchema?: unknown
    responseSchema?: unknown
    [key: string]: unknown
  }
  systemInstruction?: unknown
  [key: string]: unknown
}

/** A request as the fake saw it: the model and method from its path, and its body. */
export interface SeenRequest {
  model: string
  method: string
  body: GenerateRequest
}

/**
 * What the fake model does next: say something, or run a shell command through run_shell_command.
 * `pieceMs`: the text streams a word at a time, this long apart (for interrupt tests).
 */
export type Reply = { text: string; pieceMs?: number } | { shell: string }

export type Responder = (request: GenerateRequest, index: number) => Reply | Promise<Reply>

export class FakeGemini extends LocalServer {
  readonly requests: SeenRequest[] = []
  private responder: Responder = () => ({ text: 'ok' })
  private calls = 0

  respond(responder: Responder): void {
    this.responder = responder
  }

  /** What GOOGLE_GEMINI_BASE_URL is set to (the SDK adds `/v1beta/models/…`). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** The session's own turns: the streamed requests that offer the model tools. */
  get turns(): GenerateRequest[] {
    return this.requests
      .filter((r) => r.method === 'streamGenerateContent' && r.body.tools)
      .map((r) => r.body)
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const route = /^\/v1beta\/models\/([^/:?]+):(\w+)/.exec(req.url ?? '')
    const model = route?.[1] ?? ''
    const method = route?.[2] ?? ''
    if (req.method !== 'POST' || !route) return fail(res, 404, `no route ${req.method} ${req.url}`)
    if (method === 'countTokens') return json(res, { totalTokens: 20 })
    if (method !== 'streamGenerateContent' && method !== 'generateContent')
      return fail(res, 404, `no method ${method}`)
    let body: GenerateRequest
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as GenerateRequest
    } catch {
      return fail(res, 400, 'body is not JSON')
    }
    const index = this.requests.push({ model, method, body }) - 1
    let reply: Reply | null = null
    let parts: Part[]
    try {
      reply = body.tools ? await this.responder(body, index) : null
      parts = reply ? [this.partOf(reply)] : [sideAnswer(body)]
    } catch (err) {
      return fail(res, 500, (err as Error).message)
    }
    const responseOf = (of: Part[], last: boolean) => ({
      candidates: [
        { content: { role: 'model', parts: of }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 },
      ],
      ...(last
        ? { usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 10, totalTokenCount: 30 } }
        : {}),
      modelVersion: model,
    })
    if (method === 'generateContent') return json(res, responseOf(parts, true))
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    if (reply && 'text' in reply && reply.pieceMs) {
      // A slow stream stops where the client went away (an interrupt), as a real API's does.
      let gone = false
      res.on('close', () => (gone = true))
      const words = reply.text.split(/(?<= )/)
      for (const [i, word] of words.entries()) {
        await new Promise((resolve) => setTimeout(resolve, reply.pieceMs))
        if (gone) return
        res.write(`data: ${JSON.stringify(responseOf([{ text: word }], i === words.length - 1))}\r\n\r\n`)
      }
      return void res.end()
    }
    res.end(`data: ${JSON.stringify(responseOf(parts, true))}\r\n\r\n`)
  }

  private partOf(reply: Reply): Part {
    if ('text' in reply) return { text: reply.text }
    return {
      functionCall: {
        id: `call_fake_${++this.calls}`,
        name: 'run_shell_command',
        args: { command: reply.shell, description: 'the fake runs it' },
      },
    }
  }
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function fail(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: { code: status, message, status: 'INVALID_ARGUMENT' } }))
}

/**
 * A side call's answer (no tools offered): JSON shaped by the request's schema when it asks for
 * JSON (a check whose answer Gemini parses), else a line of text (a session's summary).
 */
function sideAnswer(body: GenerateRequest): Part {
  const config = body.generationConfig ?? {}
  if (config.responseMimeType !== 'application/json') return { text: 'The fake model ran a command.' }
  return { text: JSON.stringify(shaped(config.responseJsonSchema ?? config.responseSchema)) }
}

/** A value of a JSON schema's shape: its first enum value (the person's turn, where it is one), or an empty one. */
function shaped(schema: unknown): unknown {
  const s = (schema ?? {}) as Record<string, unknown>
  const type = String(s.type ?? '').toLowerCase()
  if (Array.isArray(s.enum)) return s.enum.includes('user') ? 'user' : s.enum[0]
  if (type === 'object' || s.properties) {
    const props = (s.properties ?? {}) as Record<string, unknown>
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, shaped(v)]))
  }
  if (type === 'array') return []
  if (type === 'number' || type === 'integer') return 0
  if (type === 'boolean') return false
  return ''
}

/** The text of the last part a person (not a tool) gave: the prompt of the turn. */
export function lastUserText(request: GenerateRequest): string {
  for (const content of [...request.contents].reverse()) {
    if (content.role !== 'user') continue
    const text = (content.parts ?? []).map((p) => p.text ?? '').join('')
    if (text) return text
  }
  return ''
}

/** What the latest tool gave back, when the request's last content is a tool's response. */
export function lastToolResponse(request: GenerateRequest): string | null {
  const parts = request.contents.at(-1)?.parts ?? []
  const responses = parts.filter((p) => p.functionResponse)
  if (!responses.length) return null
  return responses.map((p) => JSON.stringify(p.functionResponse?.response ?? {})).join('\n')
}

/**
 * The script the tests use: a prompt `RUN:<cmd>` asks for the command through run_shell_command, and
 * the tool's response ends the turn with `DONE: <response>`.
 */
export const shellThenDone: Responder = (request) => {
  const output = lastToolResponse(request)
  if (output !== null) return { text: `DONE: ${output}` }
  const asked = /RUN:(.*)$/s.exec(lastUserText(request))
  if (asked?.[1]) return { shell: asked[1].trim() }
  return { text: 'nothing to do' }
}

/**
 * The text of every part a person (not a tool) gave, in order: what the model was shown of them
 * (Gemini puts its own `<session_context>` in a part of its own before the first prompt).
 */
export function userTexts(request: GenerateRequest): string[] {
  return request.contents
    .filter((c) => c.role === 'user')
    .flatMap((c) => (c.parts ?? []).map((p) => p.text ?? ''))
    .filter((text) => text !== '')
}

/** shellThenDone's script, and a prompt `SLOW` streams a long answer a word at a time, to interrupt. */
export const shellThenDoneOrSlow: Responder = (request, index) =>
  lastUserText(request) === 'SLOW' && lastToolResponse(request) === null
    ? { text: 'one two three four five six seven eight nine ten '.repeat(20), pieceMs: 300 }
    : shellThenDone(request, index)
