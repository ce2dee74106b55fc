// A scripted fake of the Anthropic Messages API on 127.0.0.1, for running the real Claude Code CLI
// offline (PROTOCOLS.md §1). Each test gives it a responder that decides the model's next answer
// from the request; every request is recorded so tests can assert on what the model was shown.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LocalServer } from './local-server.js'

export interface ContentBlock {
  type: string
  text?: string
  name?: string
  id?: string
  input?: unknown
  tool_use_id?: string
  content?: unknown
  is_error?: boolean
}

export interface Message {
  role: 'user' | 'assistant' | 'system'
  content: string | ContentBlock[]
}

export interface MessagesRequest {
  model: string
  stream?: boolean
  system?: string | { type: string; text: string }[]
  messages: Message[]
  tools?: { name: string }[]
  [key: string]: unknown
}

/** What the fake model does next. */
export type Reply =
  /** With `pause`, streams the text up to `at`, then waits for `until` before the rest. */
  | { text: string; pause?: { at: number; until: Promise<unknown> } }
  | { tool: string; input: Record<string, unknown>; id?: string; text?: string }
  /** Streams text slowly, so a test can interrupt mid-stream. */
  | { slowText: string; delayMs: number }

export type Responder = (request: MessagesRequest, index: number) => Reply | Promise<Reply>

/**
 * Auto mode's safety check as the server gives it (2.1.330 asks the API for it): each streamed
 * answer's tool calls get a verdict in `message_delta.delta.safeguard_results`. A string blocks the
 * call and is the reason the CLI reads (a PermissionDenied hook's `reason`); null lets it through.
 */
export type Verdict = (
  call: { name: string; input: unknown; id: string },
  request: MessagesRequest,
) => string | null

export class FakeAnthropic extends LocalServer {
  readonly requests: MessagesRequest[] = []
  private responder: Responder = () => ({ text: 'ok' })
  /** The tokens each answer says it used: what the CLI prices a turn by (its result's total_cost_usd). */
  tokens = { input: 10, output: 5 }
  private toolIds = 0
  /** Unset: answers carry no verdict (the CLI then judges locally, or not at all in `-p`). */
  private verdict: Verdict | undefined

  respond(responder: Responder): void {
    this.responder = responder
  }

  /** Auto mode's safety check from now on (see Verdict). */
  judge(verdict: Verdict): void {
    this.verdict = verdict
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** The requests whose conversation holds this text anywhere (system prompt included). */
  requestsMentioning(text: string): MessagesRequest[] {
    return this.requests.filter((r) => JSON.stringify(r).includes(text))
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no ${req.url}` } }))
      return
    }
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MessagesRequest
    const index = this.requests.push(request) - 1
    let reply: Reply
    try {
      reply = await this.responder(request, index)
    } catch (err) {
      reply = { text: `fake responder failed: ${(err as Error).message}` }
    }
    if (request.stream) await this.stream(res, request, reply)
    else this.json(res, request, reply)
  }

  private blocks(reply: Reply): ContentBlock[] {
    if ('tool' in reply) {
      const tool: ContentBlock = {
        type: 'tool_use',
        id: reply.id ?? `toolu_fake${++this.toolIds}`,
        name: reply.tool,
        input: reply.input,
      }
      return reply.text ? [{ type: 'text', text: reply.text }, tool] : [tool]
    }
    if ('slowText' in reply) return [{ type: 'text', text: reply.slowText }]
    return [{ type: 'text', text: reply.text }]
  }

  /** The server's verdicts on this answer's tool calls, as 2.1.330 reads them; none without a judge. */
  private safeguards(request: MessagesRequest, content: ContentBlock[]): Record<string, unknown> {
    const verdict = this.verdict
    if (!verdict) return {}
    const tool_uses: Record<string, unknown> = {}
    for (const b of content) {
      if (b.type !== 'tool_use') continue
      const blocked = verdict({ name: b.name ?? '', input: b.input, id: b.id ?? '' }, request)
      tool_uses[b.id ?? ''] =
        blocked === null
          ? { type: 'evaluated', outcome: 'not_flagged' }
          : { type: 'evaluated', outcome: 'flagged', explanation: blocked }
    }
    return {
      safeguard_results: [{ type: 'dangerous_tool_use', status: { type: 'available', tool_uses } }],
    }
  }

  private json(res: ServerResponse, request: MessagesRequest, reply: Reply): void {
    const content = this.blocks(reply)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        id: `msg_fake${this.requests.length}`,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content,
        stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: this.tokens.input, output_tokens: this.tokens.output },
      }),
    )
  }

  private async stream(res: ServerResponse, request: MessagesRequest, reply: Reply): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (event: string, data: unknown) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    const content = this.blocks(reply)
    send('message_start', {
      type: 'message_start',
      message: {
        id: `msg_fake${this.requests.length}`,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: this.tokens.input, output_tokens: 1 },
      },
    })
    for (const [index, block] of content.entries()) {
      if (block.type === 'tool_use') {
        send('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { ...block, input: {} },
        })
        send('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        })
      } else {
        send('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        })
        const text = block.text ?? ''
        const pause = 'pause' in reply ? reply.pause : undefined
        const pieces =
          'slowText' in reply
            ? text.split(/(?<= )/)
            : pause
              ? [text.slice(0, pause.at), text.slice(pause.at)]
              : [text]
        for (const [i, piece] of pieces.entries()) {
          if (res.destroyed) return
          if (i === 1 && pause) await pause.until
          send('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text: piece },
          })
          if ('slowText' in reply) await new Promise((r) => setTimeout(r, reply.delayMs))
        }
      }
      send('content_block_stop', { type: 'content_block_stop', index })
    }
    const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null, ...this.safeguards(request, content) },
      usage: { output_tokens: this.tokens.output },
    })
    send('message_stop', { type: 'message_stop' })
    res.end()
  }
}

/** What was said since the model last spoke (the CLI may add reminder messages of its own). */
function sinceModelSpoke(request: MessagesRequest): Message[] {
  const lastAssistant = request.messages.map((m) => m.role).lastIndexOf('assistant')
  return request.messages.slice(lastAssistant + 1)
}

export function toolResults(request: MessagesRequest): ContentBlock[] {
  return sinceModelSpoke(request)
    .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
    .filter((b) => b.type === 'tool_result')
}

/** The text of the turn the model is answering now. */
export function latestTurn(request: MessagesRequest): string {
  return textOf(sinceModelSpoke(request))
}

export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(textOf).join('\n')
  if (value && typeof value === 'object' && 'text' in value) return String((value as { text: unknown }).text)
  if (value && typeof value === 'object' && 'content' in value)
    return textOf((value as { content: unknown }).content)
  return ''
}

/** The AskUserQuestion input the tests have Claude send: one question, two options. */
export const COLOUR_QUESTION = {
  questions: [
    {
      question: 'Which colour?',
      header: 'Colour',
      multiSelect: false,
      options: [
        { label: 'red', description: 'warm' },
        { label: 'blue', description: 'cool' },
      ],
    },
  ],
}
