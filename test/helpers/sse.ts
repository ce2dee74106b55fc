// Reads a sender's GET /events stream (or another of the hub's SSE routes, `path`) the way a browser's
// EventSource would; `ended` says the hub closed it.
export interface SseMessage {
  id: string | null
  event: string
  data: unknown
}

export class SseReader {
  readonly messages: SseMessage[] = []
  /** The hub ended the stream (not this reader's close()). */
  ended = false

  private constructor(
    readonly status: number,
    private readonly controller: AbortController,
  ) {}

  static async open(url: string, token: string, path = '/events'): Promise<SseReader> {
    const reader = await SseReader.connect(url, token, path)
    if (reader.status !== 200) throw new Error(`GET ${path} answered ${reader.status}`)
    return reader
  }

  static async connect(url: string, token: string, path = '/events'): Promise<SseReader> {
    const controller = new AbortController()
    const res = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    })
    const reader = new SseReader(res.status, controller)
    if (res.status === 200 && res.body) void reader.consume(res.body)
    return reader
  }

  private async consume(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true })
        let end = buffer.indexOf('\n\n')
        while (end !== -1) {
          this.parse(buffer.slice(0, end))
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
        }
      }
      this.ended = true
    } catch {
      // aborted by close()
    }
  }

  private parse(block: string): void {
    let id: string | null = null
    let event = 'message'
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue
      const [field, ...rest] = line.split(':')
      const value = rest.join(':').replace(/^ /, '')
      if (field === 'id') id = value
      else if (field === 'event') event = value
      else if (field === 'data') data.push(value)
    }
    if (data.length) this.messages.push({ id, event, data: JSON.parse(data.join('\n')) })
  }

  async waitFor(event: string, ms = 10_000): Promise<SseMessage> {
    const deadline = Date.now() + ms
    while (Date.now() < deadline) {
      const found = this.messages.find((m) => m.event === event)
      if (found) return found
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error(`no "${event}" on the stream within ${ms} ms (got ${JSON.stringify(this.messages)})`)
  }

  close(): void {
    this.controller.abort()
  }
}
