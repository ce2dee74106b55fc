// The hub's HTTP API as the CLI and `switchboard mcp` call it: by route name (core/api/client.ts),
// over the home's socket or TCP with the admin token, starting a hub first when none answers.

import { existsSync } from 'node:fs'
import { readAdminToken } from '../core/admin-token.js'
import { ApiError, apiClient, type Call } from '../core/api/client.js'
import { CLIENT_HEADER } from '../core/api/routes.js'
import { type HubAddress, type HubConfig, paths } from '../core/config.js'
import { hubTarget } from '../core/hub-dial.js'
import type { Logger } from '../core/log.js'
import type { SessionView } from '../core/session-api.js'
import { hubStarter, START_AGAIN, stoppedText } from './autostart.js'
import {
  call,
  describeTarget,
  type HubTarget,
  inClear,
  localSocket,
  reach,
  tcpTarget,
} from './hub-address.js'

/** A route answered with an error, or no hub could be reached (503) or trusted (502). */
export { ApiError as HubApiError }

/** No hub answered: nothing was sent. */
const noHub = (message: string) => new ApiError(503, 'unavailable', message)
/** What answered is not a hub this client trusts with the admin token: nothing was sent to it. */
const notTheHub = (message: string) => new ApiError(502, 'upstream', message)

export class HubApi {
  /** Null: this home has no admin token yet, so no hub of it ever ran (and none is started). */
  private readonly token: string | null
  private ready: Promise<HubTarget> | null = null
  /** Calls a route of the hub by name (core/api/routes.ts). */
  readonly call: Call

  constructor(
    private readonly config: HubConfig,
    /**
     * Where starting a hub is told. A function is asked only when one is started: a command that
     * never starts one (status) need not load the logger at all.
     */
    private readonly log: Logger | (() => Promise<Logger>),
    /** False for commands that report on the hub (status, doctor): they must not start one. */
    private readonly autostart = true,
    /** What this process calls itself at the hub: the name its answers are recorded under. */
    client = 'cli',
  ) {
    // Reading the token makes the home and the token when they are missing: a command that only
    // reports on the hub leaves a home that does not exist as it is.
    const tokenless = !autostart && config.adminToken === null && !existsSync(paths.adminToken(config.home))
    this.token = tokenless ? null : readAdminToken(config)
    this.call = apiClient(
      async (request) => {
        const target = await this.ensureHub()
        if (inClear(target))
          throw notTheHub(
            `${describeTarget(target)} is beyond loopback and speaks no TLS: the admin token is not sent there`,
          )
        const body =
          request.body instanceof Blob ? Buffer.from(await request.body.arrayBuffer()) : request.body
        return call(target, request.method, request.path, request.headers, body)
      },
      () => ({ authorization: `Bearer ${this.token ?? ''}`, [CLIENT_HEADER]: client }),
    )
  }

  /** Waits until the session is no longer running (a result, a question, an end), or the time is up. */
  async settle(id: string, waitSeconds: number): Promise<SessionView> {
    const deadline = Date.now() + waitSeconds * 1000
    let view = await this.call('session', { params: { id } })
    while (view.status === 'running' && Date.now() < deadline) {
      const wait = Math.max(1, Math.ceil((deadline - Date.now()) / 1000))
      view = await this.call('session', { params: { id }, query: { wait } })
    }
    return view
  }

  private firstHubAnswering(token: string): Promise<HubTarget> {
    this.ready ??= firstProven(this.config.hubs, token).catch((err) => {
      this.ready = null
      throw err
    })
    return this.ready
  }

  private async logger(): Promise<Logger> {
    return typeof this.log === 'function' ? this.log() : this.log
  }

  /**
   * Where this home's hub answers: its Unix socket, else TCP once the hub there proved it holds the
   * admin token. A server on the port that cannot prove it never gets the token. None: one is started.
   */
  private ensureHub(): Promise<HubTarget> {
    const token = this.token
    if (token === null) return Promise.reject(noHub(this.notRunning()))
    if (this.config.hubs.length) return this.firstHubAnswering(token)
    this.ready ??= (async () => {
      const start = this.autostart ? hubStarter(this.config, await this.logger()) : () => {}
      const socketPath = localSocket(this.config)
      const tcp = tcpTarget(this.config)
      const deadline = Date.now() + 20_000
      while (Date.now() < deadline) {
        if (socketPath && (await reach({ socketPath }, token)).answered) return { socketPath }
        const overTcp = await reach(tcp, token)
        if (overTcp.answered && overTcp.proven) return overTcp.target
        if (overTcp.answered)
          throw notTheHub(
            overTcp.problem ??
              `the server on ${describeTarget(tcp)} is not this home's hub (it could not prove it holds ${this.config.home}/admin-token); nothing was sent to it`,
          )
        if (!this.autostart) break
        const stopped = stoppedText(this.config.home)
        if (stopped) {
          this.ready = null
          throw noHub(`${stopped}; ${START_AGAIN}`)
        }
        start()
        await new Promise((r) => setTimeout(r, 100))
      }
      this.ready = null
      throw noHub(
        this.autostart
          ? `no hub of ${this.config.home} answered on ${describeTarget(tcp)} within 20 s`
          : this.notRunning(),
      )
    })()
    return this.ready
  }

  private notRunning(): string {
    const stopped = stoppedText(this.config.home)
    return stopped
      ? `${stopped}; ${START_AGAIN}`
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
  throw problems.length
    ? notTheHub(
        `no hub in SWITCHBOARD_HUBS proved it holds this admin token, so nothing was sent: ${problems.join('; ')}`,
      )
    : noHub(
        `none of the hubs in SWITCHBOARD_HUBS answered: ${hubs.map((h) => describeTarget(hubTarget(h))).join(', ')}`,
      )
}
