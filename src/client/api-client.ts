// The hub's HTTP API as the CLI and `switchboard mcp` call it: local HTTP with the admin token,
// starting a hub first when none answers.

import { existsSync } from 'node:fs'
import type { ClaudeOptions } from '../claude/process.js'
import { readAdminToken } from '../core/admin-token.js'
import { type HubAddress, type HubConfig, paths } from '../core/config.js'
import type { StoredEvent } from '../core/event.js'
import { hubTarget } from '../core/hub-dial.js'
import type { HubStatus, OutboundWebhookInfo, PeerInfo } from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import type { LinesPage, ListedSession, RespondInput, SessionView } from '../core/session-api.js'
import type { DeadLetter, OutboundAttempt } from '../store/store.js'
import { hubStarter, START_AGAIN, stoppedOnPurpose } from './autostart.js'
import {
  call,
  describeTarget,
  type HubTarget,
  inClear,
  localSocket,
  reach,
  tcpTarget,
} from './hub-address.js'

export class HubApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export class HubApi {
  /** Null: this home has no admin token yet, so no hub of it ever ran (and none is started). */
  private readonly token: string | null
  private ready: Promise<HubTarget> | null = null

  constructor(
    private readonly config: HubConfig,
    private readonly log: Logger,
    /** False for commands that report on the hub (status, doctor): they must not start one. */
    private readonly autostart = true,
  ) {
    // Reading the token makes the home and the token when they are missing: a command that only
    // reports on the hub leaves a home that does not exist as it is.
    const tokenless = !autostart && config.adminToken === null && !existsSync(paths.adminToken(config.home))
    this.token = tokenless ? null : readAdminToken(config)
  }

  /** A one-time dashboard sign-in link (a few minutes). */
  signinLink(): Promise<{ url: string; expiresAt: number }> {
    return this.call('POST', '/web-links')
  }

  hubStatus(): Promise<HubStatus> {
    return this.call('GET', '/status')
  }

  /** `topics`: hub events on them are written into the session as messages. */
  create(prompt: string, options: ClaudeOptions, extra: { topics?: string[] } = {}): Promise<SessionView> {
    return this.call('POST', '/sessions', { prompt, options, ...extra })
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

  /** Binds the session's CLI to an IDE (port or name); null unbinds. */
  bindIde(id: string, ide: string | null): Promise<SessionView> {
    const path = `/sessions/${encodeURIComponent(id)}/ide`
    return ide === null ? this.call('DELETE', path) : this.call('POST', path, { ide })
  }

  stop(id: string): Promise<SessionView> {
    return this.call('POST', `/sessions/${encodeURIComponent(id)}/stop`)
  }

  resume(id: string): Promise<SessionView> {
    return this.call('POST', `/sessions/${encodeURIComponent(id)}/resume`)
  }

  /** Forgets sessions whose CLI is not running: the one named, or all of them. */
  prune(id?: string): Promise<{ removed: string[] }> {
    return this.call('DELETE', id ? `/sessions/${encodeURIComponent(id)}` : '/sessions')
  }

  /** A page of the session's stored lines after `afterSeq`; `next` is where the next page starts. */
  lines(id: string, afterSeq: number): Promise<LinesPage> {
    return this.call('GET', `/sessions/${encodeURIComponent(id)}/lines?after=${afterSeq}`)
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

  /** Answers an open prompt by its code (`yes abcde` at the terminal). */
  answer(
    code: string,
    behavior: 'allow' | 'deny',
    message?: string,
  ): Promise<{ code: string; owner: string }> {
    return this.call('POST', '/decisions/answer', { code, behavior, ...(message ? { message } : {}) })
  }

  subscriptions(): Promise<{ webhooks: OutboundWebhookInfo[] }> {
    return this.call('GET', '/subscriptions')
  }

  unsubscribe(name: string): Promise<{ removed: string }> {
    return this.call('DELETE', `/subscriptions/${encodeURIComponent(name)}`)
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
    const target = await this.ensureHub()
    if (inClear(target))
      throw new HubApiError(
        502,
        `${describeTarget(target)} is beyond loopback and speaks no TLS: the admin token is not sent there`,
      )
    const answer = await call(
      target,
      method,
      path,
      { authorization: `Bearer ${this.token ?? ''}`, 'content-type': 'application/json' },
      body === undefined ? undefined : JSON.stringify(body),
    )
    let json: T & { error?: string }
    try {
      json = JSON.parse(answer.body) as T & { error?: string }
    } catch {
      json = {} as T & { error?: string }
    }
    if (answer.status < 200 || answer.status >= 300)
      throw new HubApiError(answer.status, json.error ?? `hub answered ${answer.status}`)
    return json
  }

  private firstHubAnswering(token: string): Promise<HubTarget> {
    this.ready ??= firstProven(this.config.hubs, token).catch((err) => {
      this.ready = null
      throw err
    })
    return this.ready
  }

  /**
   * Where this home's hub answers: its Unix socket, else TCP once the hub there proved it holds the
   * admin token. A server on the port that cannot prove it never gets the token. None: one is started.
   */
  private ensureHub(): Promise<HubTarget> {
    const token = this.token
    if (token === null) return Promise.reject(new HubApiError(503, this.notRunning()))
    if (this.config.hubs.length) return this.firstHubAnswering(token)
    this.ready ??= (async () => {
      const start = this.autostart ? hubStarter(this.config, this.log) : () => {}
      const socketPath = localSocket(this.config)
      const tcp = tcpTarget(this.config)
      const deadline = Date.now() + 20_000
      while (Date.now() < deadline) {
        if (socketPath && (await reach({ socketPath }, token)).answered) return { socketPath }
        const overTcp = await reach(tcp, token)
        if (overTcp.answered && overTcp.proven) return overTcp.target
        if (overTcp.answered)
          throw new HubApiError(
            502,
            overTcp.problem ??
              `the server on ${describeTarget(tcp)} is not this home's hub (it could not prove it holds ${this.config.home}/admin-token); nothing was sent to it`,
          )
        if (!this.autostart) break
        if (stoppedOnPurpose(this.config.home)) {
          this.ready = null
          throw new HubApiError(
            503,
            `the hub of ${this.config.home} was stopped with switchboard stop; ${START_AGAIN}`,
          )
        }
        start()
        await new Promise((r) => setTimeout(r, 100))
      }
      this.ready = null
      throw new HubApiError(
        503,
        this.autostart
          ? `no hub of ${this.config.home} answered on ${describeTarget(tcp)} within 20 s`
          : this.notRunning(),
      )
    })()
    return this.ready
  }

  private notRunning(): string {
    return stoppedOnPurpose(this.config.home)
      ? `the hub of ${this.config.home} was stopped with switchboard stop; ${START_AGAIN}`
      : `no hub of ${this.config.home} is running (switchboard serve starts one)`
  }
}

/**
 * HubApi.firstHubAnswering: with SWITCHBOARD_HUBS, the first of them that proves it holds the admin
 * token; a hub that is down is passed over, and none is started.
 */
async function firstProven(hubs: HubAddress[], token: string): Promise<HubTarget> {
  const problems: string[] = []
  for (const hub of hubs) {
    const answer = await reach(hubTarget(hub), token)
    if (answer.answered && answer.proven) return answer.target
    if (answer.answered)
      problems.push(
        answer.problem ?? `${describeTarget(hubTarget(hub))} could not prove it holds the admin token`,
      )
  }
  // 503 when none answered; when one did and could not prove itself, that is no hub "not running".
  throw new HubApiError(
    problems.length ? 502 : 503,
    problems.length
      ? `no hub in SWITCHBOARD_HUBS proved it holds this admin token, so nothing was sent: ${problems.join('; ')}`
      : `none of the hubs in SWITCHBOARD_HUBS answered: ${hubs.map((h) => describeTarget(hubTarget(h))).join(', ')}`,
  )
}
