// Keeps the Socket Mode connection up. @slack/socket-mode's own reconnect is off: when Slack answers
// apps.connections.open with an HTTP error it gives up with an unhandled rejection (which ends a Node
// process) and never tries again. Here every drop is reported once and retried with backoff until
// stop(), and stop() leaves no socket or timer behind.
import type { SocketModeReceiver } from '@slack/bolt'
import type { Logger } from '../../core/log.js'
import type { PlatformHandlers } from '../chat/platform.js'

type SocketClient = SocketModeReceiver['client']

const FIRST_RETRY_MS = 500
const LAST_RETRY_MS = 30_000
/** How long stop() waits for a connect under way before closing; the connect closes what it opens later. */
const STOP_WAIT_MS = 5_000

export class SocketKeeper {
  /** start() has resolved: from then on a drop is the hub's news and is retried. */
  private live = false
  /** A socket said hello and has not closed since. */
  private up = false
  private stopped = false
  /** A failure was reported for the current drop (one report per drop, not per attempt). */
  private reported = false
  private attempts = 0
  private timer: NodeJS.Timeout | undefined
  /** A connect under way (the first one or a reconnect), settled either way. */
  private connecting: Promise<void> | null = null
  /** Slack asked for this drop (a `disconnect` envelope, sent before it recycles a server). */
  private refreshing = false

  constructor(
    private readonly client: SocketClient,
    private readonly handlers: PlatformHandlers,
    private readonly log: Logger,
  ) {
    client.on('connected', () => this.onConnected())
    client.on('disconnected', () => this.onDisconnected())
    client.on('error', (error: unknown) => this.onError(error))
    client.on('ws_message', (data: unknown) => this.onFrame(data))
  }

  /** Runs the first connect (bolt's app.start()); rejects when it does not end in Slack's hello. */
  async start(connect: () => Promise<unknown>): Promise<void> {
    const attempt = connect()
    this.connecting = attempt.then(
      () => undefined,
      () => undefined,
    )
    try {
      await attempt
    } finally {
      this.connecting = null
    }
    if (this.stopped) {
      // stop() came while this was connecting: what it opened is closed here.
      await this.client.disconnect().catch(() => undefined)
      throw new Error('the Slack adapter was stopped while it started')
    }
    this.live = true
  }

  /** Ends retrying, waits (a little) for a connect under way, then closes (bolt's app.stop()). */
  async stop(disconnect: () => Promise<unknown>): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    this.timer = undefined
    if (this.connecting) {
      let wait: NodeJS.Timeout | undefined
      await Promise.race([
        this.connecting,
        new Promise((resolve) => (wait = setTimeout(resolve, STOP_WAIT_MS))),
      ])
      clearTimeout(wait)
    }
    await disconnect().catch((error: unknown) => this.log.debug({ err: error }, 'Slack socket close failed'))
  }

  private onConnected(): void {
    this.up = true
    this.refreshing = false
    this.reported = false
    this.attempts = 0
    if (this.stopped) return
    this.log.debug('Slack socket connected')
    this.call(() => this.handlers.connected())
  }

  private onDisconnected(): void {
    this.up = false
    if (this.stopped || !this.live) return
    if (this.refreshing) {
      // A routine refresh, not an outage: connect again at once and tell no one.
      this.refreshing = false
      this.attempts = 0
      this.scheduleReconnect(0)
      return
    }
    this.fail(new Error('the Slack Socket Mode connection closed'))
    this.scheduleReconnect()
  }

  /** The library closes the socket on Slack's `disconnect` envelope; this notes that Slack asked. */
  private onFrame(data: unknown): void {
    if (typeof data !== 'string' || !data.includes('"disconnect"')) return
    try {
      if ((JSON.parse(data) as { type?: unknown }).type === 'disconnect') this.refreshing = true
    } catch {
      // Not JSON: the library ignores it too.
    }
  }

  private onError(error: unknown): void {
    this.log.debug({ err: error }, 'Slack socket error')
    if (this.stopped || !this.live) return
    const reason = error instanceof Error ? error.message.replace(/^[\s:]+|[\s:]+$/g, '') : ''
    this.fail(new Error(`the Slack Socket Mode connection failed${reason ? `: ${reason}` : ''}`))
  }

  private fail(error: Error): void {
    if (this.reported) return
    this.reported = true
    this.log.warn({ err: error }, 'Slack connection lost; reconnecting')
    this.call(() => this.handlers.failed(error))
  }

  private scheduleReconnect(delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** this.attempts)): void {
    if (this.stopped || this.timer || this.connecting) return
    this.attempts = Math.min(this.attempts + 1, 16)
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.connecting = this.reconnect().finally(() => {
        this.connecting = null
        if (!this.up) this.scheduleReconnect()
      })
    }, delay)
  }

  private async reconnect(): Promise<void> {
    try {
      // Asks apps.connections.open for a fresh URL, then waits for hello (or the socket's close).
      await this.client.start()
    } catch (error) {
      this.log.debug({ err: error }, 'Slack reconnect failed')
      const reason =
        error instanceof Error && error.message ? error.message : 'the socket closed before hello'
      this.fail(new Error(`reconnecting to Slack failed: ${reason}`))
    }
    // stop() came while this attempt was connecting: what it opened is closed here.
    if (this.stopped) await this.client.disconnect().catch(() => undefined)
  }

  /** The hub's handlers must not take the connection down with them. */
  private call(handler: () => void): void {
    try {
      handler()
    } catch (error) {
      this.log.error({ err: error }, 'the Slack bridge handler threw')
    }
  }
}
