// One operator of the soak: a browser signed in to the dashboard (its key, as the page sends it),
// holding the streams every page holds open — the decision feed and the web chat's replies — and
// writing chat lines and answers through the routes the page uses.
import { API_HEADER } from '../../src/core/api/routes.js'
import { signInWith } from '../../test/helpers/dashboard.js'

export interface FeedRow {
  id: string
  kind: string
  status: string
  request: { request_id?: string } & Record<string, unknown>
}

/** A server-sent event stream read as the browser's EventSource reads it, each message handed on. */
class Stream {
  private readonly controller = new AbortController()
  /** The hub ended it (not close()). */
  ended = false
  /** Resolves once the hub answered 200: from then on it tells this stream of each change. */
  readonly opened: Promise<void>
  private open: () => void = () => {}

  constructor(
    url: string,
    headers: Record<string, string>,
    onMessage: (event: string, data: string) => void,
  ) {
    this.opened = new Promise((resolve) => {
      this.open = resolve
    })
    void this.read(url, headers, onMessage)
  }

  private async read(
    url: string,
    headers: Record<string, string>,
    onMessage: (e: string, d: string) => void,
  ) {
    try {
      const res = await fetch(url, { headers, signal: this.controller.signal })
      if (res.status !== 200 || !res.body) throw new Error(`GET ${url} answered ${res.status}`)
      this.open()
      const decoder = new TextDecoder()
      let buffer = ''
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true })
        let end = buffer.indexOf('\n\n')
        while (end !== -1) {
          let event = 'message'
          const data: string[] = []
          for (const line of buffer.slice(0, end).split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim()
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
          }
          if (data.length) onMessage(event, data.join('\n'))
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
        }
      }
      this.ended = true
    } catch {
      if (!this.controller.signal.aborted) this.ended = true
      // A stream that never opened is counted as ended, not waited for.
      this.open()
    }
  }

  close(): void {
    this.controller.abort()
  }
}

export class Operator {
  private streams: Stream[] = []

  private constructor(
    readonly index: number,
    /** The hub this operator's browser talks to. */
    readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** Signs in with a one-time link (POST /api/web-links with the admin token) at the hub `url`. */
  static async signIn(index: number, url: string, adminToken: string): Promise<Operator> {
    const res = await fetch(`${url}/api/web-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
    })
    if (res.status !== 201) throw new Error(`a sign-in link answered ${res.status}: ${await res.text()}`)
    const link = new URL(((await res.json()) as { url: string }).url)
    const key = await signInWith(`${url}${link.pathname}${link.search}`)
    return new Operator(index, url, { ...key, [API_HEADER]: '1', 'content-type': 'application/json' })
  }

  /**
   * Opens the decision feed and the chat replies; `onRow` gets each decision the feed tells of.
   * Resolves once the hub answered both: a prompt opened before that is told to nobody on the feed
   * (the page reads GET /api/decisions as it loads, which these operators need not).
   */
  async follow(onRow: (row: FeedRow) => void): Promise<void> {
    const { authorization } = this.headers as { authorization: string }
    this.streams.push(
      new Stream(`${this.url}/api/feed`, { authorization }, (event, data) => {
        if (event === 'changed') onRow(JSON.parse(data) as FeedRow)
      }),
      new Stream(`${this.url}/api/chat/stream`, { authorization }, () => {}),
    )
    await Promise.all(this.streams.map((s) => s.opened))
  }

  /** Streams the hub ended while they were meant to stay open. */
  get streamsEnded(): number {
    return this.streams.filter((s) => s.ended).length
  }

  /** A line in the web chat to one session; the event's id once the hub stored it (202). */
  async chat(to: string, text: string, key: string): Promise<{ status: number; id: string | null }> {
    const res = await fetch(`${this.url}/api/chat`, {
      method: 'POST',
      headers: { ...this.headers, 'idempotency-key': key },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(10_000),
    })
    const body = (await res.json().catch(() => ({}))) as { id?: string }
    return { status: res.status, id: body.id ?? null }
  }

  /** Allow on a decision by its id: 200 answered, 409 someone answered it first. */
  async answer(decisionId: string): Promise<number> {
    const res = await fetch(`${this.url}/api/decisions/${decisionId}/answer`, {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify({ behavior: 'allow' }),
      // As long as a person would wait on a pressed button: the 10 s of a chat line left 34 answers
      // of a 10-minute soak unheard on a machine at load 20, each taken by the hub all the same.
      signal: AbortSignal.timeout(60_000),
    })
    await res.body?.cancel()
    return res.status
  }

  close(): void {
    for (const s of this.streams.splice(0)) s.close()
  }
}
