// The hub's HTTP API as the CLI and `switchboard mcp` call it: local HTTP with the admin token,
// starting a hub first when none answers.

import type { ClaudeOptions } from '../claude/process.js'
import type { ListedSession, RespondInput, SessionView } from '../claude/session-manager.js'
import { dialHost, type HubConfig } from '../core/config.js'
import type { StoredEvent } from '../core/event.js'
import type { Logger } from '../core/log.js'
import type { DeadLetter, OutboundAttempt } from '../store/store.js'
import { readAdminToken } from './admin-token.js'
import { hubStarter } from './autostart.js'
import type { PeerInfo } from './peers.js'

export class HubApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export class HubApi {
  private readonly base: string
  private readonly token: string
  private ready: Promise<void> | null = null

  constructor(
    private readonly config: HubConfig,
    private readonly log: Logger,
  ) {
    this.base = `http://${dialHost(config.host)}:${config.port}`
    this.token = readAdminToken(config.home)
  }

  create(prompt: string, options: ClaudeOptions): Promise<SessionView> {
    return this.call('POST', '/sessions', { prompt, options })
  }

  send(id: string, text: string, fork?: boolean): Promise<SessionView> {
    return this.call('POST', `/sessions/${encodeURIComponent(id)}/messages`, {
      text,
      ...(fork ? { fork } : {}),
    })
  }

  status(id: string, waitSeconds = 0): Promise<SessionView> {
    return this.call('GET', `/sessions/${encodeURIComponent(id)}?wait=${waitSeconds}`)
  }

  respond(id: string, decision: string, answer: RespondInput): Promise<SessionView> {
    return this.call('POST', `/sessions/${encodeURIComponent(id)}/respond`, { decision, answer })
  }

  interrupt(id: string): Promise<SessionView> {
    return this.call('POST', `/sessions/${encodeURIComponent(id)}/interrupt`)
  }

  /** The session's stored lines after `afterSeq`. */
  async lines(id: string, afterSeq: number): Promise<{ seq: number; line: Record<string, unknown> }[]> {
    return (
      await this.call<{ lines: { seq: number; line: Record<string, unknown> }[] }>(
        'GET',
        `/sessions/${encodeURIComponent(id)}/lines?after=${afterSeq}`,
      )
    ).lines
  }

  peers(): Promise<{ peers: PeerInfo[] }> {
    return this.call('GET', '/peers')
  }

  sendToPeer(to: string, text: string, from = 'cli'): Promise<{ message: string }> {
    return this.call('POST', '/peers/messages', { from, to, text })
  }

  subscribe(input: { url: string; topics?: string[]; maxAttempts?: number; backoffMs?: number }) {
    return this.call<{ name: string; url: string; secret: string; topics: string[] }>(
      'POST',
      '/subscriptions',
      input,
    )
  }

  outboundLog(name: string) {
    return this.call<{ log: OutboundAttempt[] }>('GET', `/subscriptions/log?name=${encodeURIComponent(name)}`)
  }

  takeForHook(subscriber: string): Promise<{ events: StoredEvent[] }> {
    return this.call('POST', '/hook/take', { subscriber })
  }

  deadLetters(): Promise<{ deadLetters: DeadLetter[] }> {
    return this.call('GET', '/dead-letters')
  }

  async list(cwd?: string): Promise<ListedSession[]> {
    const q = cwd ? `?cwd=${encodeURIComponent(cwd)}` : ''
    return (await this.call<{ sessions: ListedSession[] }>('GET', `/sessions${q}`)).sessions
  }

  /** Waits until the session is no longer running (a result, a question, an end), or the time is up. */
  async settle(id: string, waitSeconds: number): Promise<SessionView> {
    const deadline = Date.now() + waitSeconds * 1000
    let view = await this.status(id)
    while (view.status === 'running' && Date.now() < deadline) {
      view = await this.status(id, Math.max(1, Math.ceil((deadline - Date.now()) / 1000)))
    }
    return view
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    await this.ensureHub()
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await res.json().catch(() => ({}))) as T & { error?: string }
    if (!res.ok) throw new HubApiError(res.status, json.error ?? `hub answered ${res.status}`)
    return json
  }

  private ensureHub(): Promise<void> {
    this.ready ??= (async () => {
      const start = hubStarter(this.config, this.log)
      const deadline = Date.now() + 20_000
      while (Date.now() < deadline) {
        const ok = await fetch(`${this.base}/health`)
          .then((r) => r.ok)
          .catch(() => false)
        if (ok) return
        start()
        await new Promise((r) => setTimeout(r, 100))
      }
      this.ready = null
      throw new HubApiError(503, `no hub answered on ${this.base} within 20 s`)
    })()
    return this.ready
  }
}
