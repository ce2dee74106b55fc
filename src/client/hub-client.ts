// The channel end of the hub protocol: one WebSocket to the hub that survives the hub going away.
// Deliveries are handed over one at a time, in order, and acknowledged only once handled: at once, or,
// for one the caller keeps (a session that reads its events with a tool), when it says so.
import { createRequire } from 'node:module'
import type WebSocket from 'ws'
import type { HubAddress } from '../core/config.js'
import { invalid } from '../core/errors.js'
import type { StoredEvent } from '../core/event.js'
import { DEFAULT_HEARTBEAT_MS, heartbeat, MISSES } from '../core/heartbeat.js'
import { connector, describeTarget, hubTarget, inClear, reach, type TcpHub } from '../core/hub-dial.js'
import {
  type Behavior,
  type ChatAction,
  type ClientMessage,
  HUB_PATH,
  type PeerRequest,
  type PermissionRequest,
  type ServerMessage,
  serverMessageSchema,
} from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import { hostPort } from '../core/network.js'

// Required, not imported: ws's ES module entry loads each of its files as a module of its own, which
// added about 15 ms to every channel's start (bench/startup).
const WS = createRequire(import.meta.url)('ws') as typeof WebSocket

export interface Welcome {
  subscriber: string
  operators: number
  hubVersion: string
}

export interface HubClientOptions {
  /** The home's hub over TCP (client/hub-address.ts tcpTarget). */
  target: TcpHub
  /** The hub's Unix socket, preferred over TCP when given. */
  socketPath?: string
  /**
   * Hubs sharing one database (SWITCHBOARD_HUBS), used instead of host and port: when the one in
   * use dies, the next is dialled, and it delivers what this channel had not acknowledged.
   */
  hubs?: HubAddress[]
  token: string
  /** How often the hub is pinged; silent for three of these, it is left for the next (heartbeatMs). */
  heartbeatMs?: number
  subscriber: string
  topics: string[]
  aliases?: string[]
  /** The session's working folder, which the files its replies attach may come from. */
  folder?: string
  /** The Claude Code session this channel serves, when Claude Code said (CLAUDE_CODE_SESSION_ID). */
  session?: string
  /** What this channel tells the hub about how it delivers (see channel/rung.ts). */
  rung?: () => 'channel' | 'message' | null
  log: Logger
  /** `kept`: not handled yet; acknowledged once the caller calls handled(event.id). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a caller that keeps nothing returns nothing
  onDeliver(event: StoredEvent): Promise<void | 'kept'>
  onVerdict(requestId: string, behavior: Behavior): Promise<void>
  /** Called when nothing listens on the hub's port, so the caller can start a hub. */
  onHubMissing?(): void
}

type Result = { ok: boolean; message: string }
type Pending = { message: ClientMessage & { rid: number }; resolve(r: Result): void; sent: boolean }

const MAX_BACKOFF_MS = 1_000
const REQUEST_TIMEOUT_MS = 15_000
const ACK_EVERY_MS = 5

export class HubClient {
  private ws: WebSocket | null = null
  private welcome: Welcome | null = null
  /** The rung the last hello carried (none before the session initialized the channel). */
  private helloRung: 'channel' | 'message' | null = null
  private nextRid = 1
  private readonly pending = new Map<number, Pending>()
  private inbound: Promise<void> = Promise.resolve()
  private backoff = 50
  private ackSeq = 0
  /** What this connection delivered, in order: acks reach up to the first one not handled yet. */
  private outstanding: { id: string; seq: number; done: boolean }[] = []
  private ackTimer: NodeJS.Timeout | null = null
  private closing = false
  private firstWelcome: { resolve(w: Welcome): void; reject(e: Error): void } | null = null
  private readonly hubs: TcpHub[]
  /** Which of `hubs` this client dials now. */
  private current = 0

  constructor(private readonly options: HubClientOptions) {
    this.hubs = options.hubs?.length ? options.hubs.map(hubTarget) : [options.target]
  }

  /** The hub dialled now. */
  get hub(): TcpHub {
    return this.hubs[this.current] as TcpHub
  }

  private get heartbeatMs(): number {
    return this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
  }

  private get failover(): boolean {
    return this.hubs.length > 1
  }

  get subscriber(): string {
    return this.welcome?.subscriber ?? this.options.subscriber
  }

  /** Resolves on the hub's first welcome; keeps reconnecting afterwards until close(). */
  connect(timeoutMs: number): Promise<Welcome> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.firstWelcome = null
        const where = this.hubs.map(describeTarget).join(' or ')
        reject(new Error(`no hub answered on ${where} within ${timeoutMs} ms`))
      }, timeoutMs)
      this.firstWelcome = {
        resolve: (w) => {
          clearTimeout(timer)
          resolve(w)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      }
      this.open()
    })
  }

  reply(chatId: string, text: string, extra: { reply_to?: string; files?: string[] } = {}): Promise<Result> {
    return this.request({ type: 'reply', rid: this.nextRid++, chat_id: chatId, text, ...extra })
  }

  chatAction(request: ChatAction): Promise<Result> {
    return this.request({ type: 'chat_action', rid: this.nextRid++, request })
  }

  /** Tells the hub how this channel delivers now (also said again on every reconnect). */
  announceRung(rung: 'channel' | 'message'): void {
    if (this.isReady()) this.sendNow({ type: 'rung', rung })
  }

  /**
   * A delivery receipt (core/receipts.ts). Not queued while the hub is away: the hub sends what this
   * channel had not acknowledged again, and the channel, reading the transcript, says it again.
   */
  receipt(message: Omit<Extract<ClientMessage, { type: 'receipt' }>, 'type'>): void {
    if (this.isReady()) this.sendNow({ type: 'receipt', ...message })
  }

  peer(request: PeerRequest): Promise<Result> {
    return this.request({ type: 'peer', rid: this.nextRid++, request })
  }

  requestPermission(request: PermissionRequest): Promise<Result> {
    return this.request({ type: 'permission_request', rid: this.nextRid++, request })
  }

  /** `bye` tells the hub this session is over, so its open permission requests are cancelled. */
  async close(): Promise<void> {
    this.closing = true
    const ws = this.ws
    if (!ws) return
    if (ws.readyState === WS.OPEN && this.welcome) this.sendNow({ type: 'bye' })
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve())
      ws.close()
      setTimeout(resolve, 500).unref()
    })
  }

  private request(message: ClientMessage & { rid: number }): Promise<Result> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(message.rid)
        resolve({ ok: false, message: `the hub did not answer within ${REQUEST_TIMEOUT_MS / 1000} s` })
      }, REQUEST_TIMEOUT_MS)
      const done = (r: Result) => {
        clearTimeout(timer)
        resolve(r)
      }
      const pending: Pending = { message, resolve: done, sent: false }
      this.pending.set(message.rid, pending)
      if (this.isReady()) this.sendPending(pending)
    })
  }

  private sendPending(p: Pending): void {
    p.sent = true
    this.sendNow(p.message)
  }

  private isReady(): boolean {
    return this.ws?.readyState === WS.OPEN && this.welcome !== null
  }

  private sendNow(message: ClientMessage): void {
    this.ws?.send(JSON.stringify(message))
  }

  private open(): void {
    const { token, socketPath } = this.options
    if (socketPath && !this.options.hubs?.length) {
      this.dial(`ws+unix://${socketPath}:${HUB_PATH}`)
      return
    }
    // Over TCP the token goes only to a hub that proved it holds it, on a connection like the one
    // it is sent on (core/hub-dial.ts), and never in clear beyond loopback.
    const target = this.hub
    if (inClear(target)) {
      const reason = `${describeTarget(target)} is beyond loopback and speaks no TLS: the admin token is not sent there`
      if (!this.refuse(reason)) this.options.log.error({ hub: describeTarget(target) }, reason)
      return
    }
    void reach(target, token).then((r) => {
      if (r.answered && r.proven) {
        this.dial(`ws://${hostPort(target.host, target.port)}${HUB_PATH}`, r.target as TcpHub)
        return
      }
      if (r.answered) this.strangerOnPort(r.problem)
      else if (!this.failover) this.options.onHubMissing?.()
      this.retryLater()
    })
  }

  /** Nothing on the socket: a hub is started, unless a stranger holds the port one would need. */
  private hubMissing(): void {
    if (this.failover) return // the next hub is dialled instead: nothing is started
    const { token } = this.options
    void reach(this.hub, token).then((r) => {
      if (r.answered && !r.proven) this.strangerOnPort(r.problem)
      else this.options.onHubMissing?.()
    })
  }

  private strangerOnPort(problem: string | null): void {
    const where = describeTarget(this.hub)
    const reason =
      problem ??
      `the server on ${where} is not this home's hub (it could not prove it holds the admin token); not connecting`
    if (!this.refuse(reason)) this.options.log.error({ hub: where }, reason)
  }

  /** With several hubs, the next one is tried at once; a full round without one waits, longer each time. */
  private retryLater(): void {
    if (this.closing) return
    if (this.failover) {
      this.current = (this.current + 1) % this.hubs.length
      if (this.current !== 0) {
        setImmediate(() => this.open())
        return
      }
    }
    const delay = this.backoff
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS)
    setTimeout(() => this.open(), delay)
  }

  private dial(url: string, target?: TcpHub): void {
    // Acks cover only what this connection delivered: a hub that died between showing an event and
    // committing it gives that seq to another event once it is back (see Hub.publish).
    this.ackSeq = 0
    this.outstanding = []
    if (this.ackTimer) clearTimeout(this.ackTimer)
    this.ackTimer = null
    const { token } = this.options
    const ws = new WS(url, {
      headers: { authorization: `Bearer ${token}` },
      // A handshake into a silent network would wait as long as TCP does: as long as the heartbeat.
      handshakeTimeout: MISSES * this.heartbeatMs,
      // The certificate the hub proved itself with, checked again before the token goes out.
      ...(target ? { createConnection: connector(target) as never } : {}),
    })
    this.ws = ws
    // A hub behind a network that went silent: ended here, so the close below dials the next one.
    heartbeat(ws, this.heartbeatMs, () =>
      this.options.log.warn({ hub: url }, 'the hub was silent for three heartbeats; dialling again'),
    )
    const reconnect = this.welcome !== null
    ws.on('open', () => {
      const rung = this.options.rung?.()
      this.helloRung = rung ?? null
      this.sendNow({
        type: 'hello',
        subscriber: this.subscriber,
        topics: this.options.topics,
        reconnect,
        ...(rung ? { rung } : {}),
        aliases: this.options.aliases ?? [],
        ...(this.options.folder ? { folder: this.options.folder } : {}),
        ...(this.options.session ? { session: this.options.session } : {}),
      })
    })
    ws.on('message', (data) => this.onMessage(String(data)))
    ws.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') this.hubMissing()
      else this.options.log.warn({ err: err.message }, 'hub connection error')
    })
    ws.on('unexpected-response', (_req, res) => {
      const reason = `the hub refused the connection (HTTP ${res.statusCode}; is the admin token the hub's?)`
      ws.terminate()
      if (!this.refuse(reason)) this.options.log.error({ status: res.statusCode }, reason)
    })
    ws.on('close', () => {
      if (this.ws !== ws) return
      this.ws = null
      this.failInFlightReplies()
      this.retryLater()
    })
  }

  /**
   * A reply sent before the link broke may or may not have gone out: say so rather than send it twice.
   * Permission requests are sent again; the hub recognises a repeat.
   */
  private failInFlightReplies(): void {
    for (const [rid, p] of this.pending) {
      if (!p.sent) continue
      if (p.message.type !== 'reply') {
        p.sent = false
        continue
      }
      this.pending.delete(rid)
      p.resolve({ ok: false, message: 'the hub connection broke while sending; check before sending again' })
    }
  }

  private onMessage(text: string): void {
    let message: ServerMessage
    try {
      message = serverMessageSchema.parse(JSON.parse(text))
    } catch (err) {
      this.options.log.error({ err: (err as Error).message }, 'hub sent an unreadable message')
      return
    }
    switch (message.type) {
      case 'welcome':
        this.onWelcome(message)
        return
      case 'deliver': {
        // Closing: the session is gone, and nothing taken now could reach it. The hub keeps the event.
        if (this.closing) return
        const event = message.event
        this.outstanding.push({ id: event.id, seq: event.seq, done: false })
        this.inbound = this.inbound
          .then(async () => {
            if ((await this.options.onDeliver(event)) !== 'kept') this.handled(event.id)
          })
          .catch((err) => this.options.log.error({ err, event: event.id }, 'delivery failed'))
        return
      }
      case 'verdict':
        this.inbound = this.inbound
          .then(() => this.options.onVerdict(message.request_id, message.behavior))
          .catch((err) => this.options.log.error({ err }, 'verdict relay failed'))
        return
      case 'result': {
        const p = this.pending.get(message.rid)
        this.pending.delete(message.rid)
        p?.resolve({ ok: message.ok, message: message.message })
        return
      }
      case 'error':
        if (this.refuse(`the hub refused this channel: ${message.message}`)) return
        this.options.log.error({ message: message.message }, 'hub reported an error')
        return
    }
  }

  /**
   * A delivery is done with. By id, not seq: a hub that died may give a seq it never committed to
   * another event once it is back, and an event kept from before must not acknowledge that one.
   */
  handled(eventId: string): void {
    if (this.closing) return // not acknowledged: the hub gives it to the session's next channel
    // Nearly always the oldest one: deliveries are handled in order unless one is kept.
    const first = this.outstanding[0]
    const entry =
      first?.id === eventId && !first.done ? first : this.outstanding.find((e) => e.id === eventId && !e.done)
    if (!entry) return
    entry.done = true
    let upTo = 0
    while (this.outstanding[0]?.done) upTo = (this.outstanding.shift() as { seq: number }).seq
    if (upTo) this.ackLater(upTo)
  }

  /** Acks are cumulative: one every ACK_EVERY_MS covers every delivery handled meanwhile. */
  private ackLater(seq: number): void {
    this.ackSeq = Math.max(this.ackSeq, seq)
    this.ackTimer ??= setTimeout(() => {
      this.ackTimer = null
      if (this.isReady()) this.sendNow({ type: 'ack', seq: this.ackSeq })
    }, ACK_EVERY_MS)
  }

  /**
   * Before the first welcome, a refusal ends connect() with the reason, and the client stops trying:
   * waiting would only hang the session that started it. Later refusals are retried (a hub restarting).
   */
  private refuse(reason: string): boolean {
    if (!this.firstWelcome || this.welcome) return false
    this.firstWelcome.reject(invalid(reason))
    this.firstWelcome = null
    this.closing = true
    this.ws?.terminate()
    return true
  }

  private onWelcome(w: Welcome): void {
    this.welcome = { subscriber: w.subscriber, operators: w.operators, hubVersion: w.hubVersion }
    this.backoff = 50
    this.options.log.info({ subscriber: w.subscriber }, 'connected to hub')
    // Chosen after the hello went out, and not sayable before this welcome: said now.
    const rung = this.options.rung?.()
    if (rung && rung !== this.helloRung) this.sendNow({ type: 'rung', rung })
    for (const p of this.pending.values()) if (!p.sent) this.sendPending(p)
    this.firstWelcome?.resolve(this.welcome)
    this.firstWelcome = null
  }
}
