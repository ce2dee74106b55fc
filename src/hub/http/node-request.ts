// A request as the app sees it, made from Node's on demand: the method and the path at once (all a
// route's dispatch reads), the headers and the body only when a route asks for them. Building a full
// web Request (a Headers copy, a body stream) for every webhook is what an adapter would cost on the
// hub's hot path (bench:router); the webhook reads Node's own request instead.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'

/** The origin every request's URL is given: routes read its path and query, never its host. */
const ORIGIN = 'http://hub'

export class NodeRequest {
  readonly method: string
  readonly url: string
  #headers: Headers | undefined
  #whole: Request | undefined
  #aborts: AbortController | undefined

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
  ) {
    this.method = incoming.method ?? 'GET'
    // The guard has checked that the target is a path (request-guard.ts checkTarget).
    this.url = ORIGIN + (incoming.url ?? '/')
  }

  get headers(): Headers {
    if (!this.#headers) {
      const headers = new Headers()
      const raw = this.incoming.rawHeaders
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
      this.#headers = headers
    }
    return this.#headers
  }

  /** Aborted when the client goes away before its answer was written. */
  get signal(): AbortSignal {
    if (!this.#aborts) {
      const aborts = new AbortController()
      this.outgoing.once('close', () => {
        if (!this.outgoing.writableFinished) aborts.abort(new Error('the client closed the connection'))
      })
      this.#aborts = aborts
    }
    return this.#aborts.signal
  }

  /** The web Request, for whatever reads the body. */
  private whole(): Request {
    if (!this.#whole) {
      const bodyless = this.method === 'GET' || this.method === 'HEAD'
      this.#whole = new Request(this.url, {
        method: this.method,
        headers: this.headers,
        signal: this.signal,
        ...(bodyless
          ? {}
          : { body: Readable.toWeb(this.incoming) as ReadableStream<Uint8Array>, duplex: 'half' }),
      } as RequestInit)
    }
    return this.#whole
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.whole().body
  }
  get bodyUsed(): boolean {
    return this.#whole?.bodyUsed ?? false
  }
  text(): Promise<string> {
    return this.whole().text()
  }
  json(): Promise<unknown> {
    return this.whole().json()
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.whole().arrayBuffer()
  }
  blob(): Promise<Blob> {
    return this.whole().blob()
  }
  formData(): Promise<FormData> {
    return this.whole().formData()
  }
}

/** Hands the app a NodeRequest where it expects a web Request: it reads no more than the above. */
export function requestFrom(incoming: IncomingMessage, outgoing: ServerResponse): Request {
  return new NodeRequest(incoming, outgoing) as unknown as Request
}
