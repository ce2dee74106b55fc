// The channel's end of the hub protocol against a fake hub in this process, on a Unix socket: what
// the hub is told it may forget (acks), and what happens to requests when the link breaks. The ack
// timer runs on vitest's clock, so "no ack went out" is a fact, not a wait: after the clock moves,
// the client announces its rung, and every ack it sent is in before that frame.
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type WebSocket, WebSocketServer } from 'ws'
import type { StoredEvent } from '../core/event.js'
import { type ClientMessage, HUB_PATH, type ServerMessage } from '../core/hub-protocol.js'
import { HubClient } from './hub-client.js'

type Received = { connection: number; message: ClientMessage }

class FakeHub {
  readonly received: Received[] = []
  readonly connections: WebSocket[] = []
  private waiters: (() => void)[] = []

  private constructor(
    readonly socketPath: string,
    private readonly server: Server,
    private readonly wss: WebSocketServer,
  ) {
    wss.on('connection', (ws) => {
      const connection = this.connections.push(ws) - 1
      ws.on('message', (data) => {
        this.received.push({ connection, message: JSON.parse(String(data)) as ClientMessage })
        for (const wake of this.waiters.splice(0)) wake()
      })
    })
  }

  /** `autoPong: false`: a hub behind a network that went silent, whose pongs never come. */
  static async start(options: { autoPong?: boolean } = {}): Promise<FakeHub> {
    const socketPath = join(mkdtempSync(join(tmpdir(), 'sb-fake-hub-')), 'hub.sock')
    const server = createServer()
    const wss = new WebSocketServer({ server, path: HUB_PATH, autoPong: options.autoPong ?? true })
    await new Promise<void>((resolve) => server.listen(socketPath, resolve))
    return new FakeHub(socketPath, server, wss)
  }

  /** Resolves with the first message on `connection` of `type` after the first `skip` of them. */
  async next(connection: number, type: ClientMessage['type'], skip = 0): Promise<ClientMessage> {
    for (;;) {
      const found = this.received.filter((r) => r.connection === connection && r.message.type === type)[skip]
      if (found) return found.message
      await new Promise<void>((wake) => this.waiters.push(wake))
    }
  }

  send(connection: number, message: ServerMessage): void {
    this.connections[connection]?.send(JSON.stringify(message))
  }

  /** What a connection was sent of `type`, in order. */
  sent<T extends ClientMessage['type']>(connection: number, type: T): Extract<ClientMessage, { type: T }>[] {
    return this.received
      .filter((r) => r.connection === connection && r.message.type === type)
      .map((r) => r.message as Extract<ClientMessage, { type: T }>)
  }

  async close(): Promise<void> {
    for (const ws of this.connections) ws.terminate()
    this.wss.close()
    await new Promise((resolve) => this.server.close(resolve))
  }
}

const welcome: ServerMessage = { type: 'welcome', subscriber: 'ann', operators: 1, hubVersion: 'test' }

function stored(id: string, seq: number): StoredEvent {
  return {
    id,
    seq,
    topic: 'ci',
    source: 'test',
    sender: null,
    chat_id: null,
    content: id,
    meta: {},
    created_at: 0,
  }
}

let hub: FakeHub
let client: HubClient
/** Event ids the session was handed, in order. */
let delivered: string[]
/** Ids the session keeps to handle later, as one reading events with a tool does. */
let keep: Set<string>

beforeEach(async () => {
  // Only timers: sockets and promises run as they do.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  hub = await FakeHub.start()
  delivered = []
  keep = new Set()
  client = new HubClient({
    target: { host: '127.0.0.1', port: 1 },
    socketPath: hub.socketPath,
    token: 'token',
    subscriber: 'ann',
    topics: ['*'],
    log: pino({ level: 'silent' }),
    onDeliver: async (event) => {
      delivered.push(event.id)
      return keep.has(event.id) ? 'kept' : undefined
    },
    onVerdict: async () => {},
  })
})

afterEach(async () => {
  vi.useRealTimers()
  await client.close()
  await hub.close()
})

/** Connects, and has the fake hub welcome the client. */
async function connected(): Promise<void> {
  const welcomed = client.connect(5_000)
  await hub.next(0, 'hello')
  hub.send(0, welcome)
  await welcomed
}

/** Waits until the session was handed `count` events, and the client is done with each. */
async function handedOver(count: number): Promise<void> {
  await vi.waitUntil(() => delivered.length >= count, { interval: 1 })
  await new Promise((resolve) => setImmediate(resolve))
}

/** Every ack connection `n` was sent up to now: the ack timer's moment passes, then a barrier frame. */
async function acksSoFar(n: number): Promise<number[]> {
  vi.advanceTimersByTime(100)
  const rungs = hub.sent(n, 'rung').length
  client.announceRung('channel')
  await hub.next(n, 'rung', rungs)
  return hub.sent(n, 'ack').map((a) => a.seq)
}

/** The hub drops connection `n`; the client dials again and is welcomed on `n + 1`. */
async function linkBreaks(n: number): Promise<void> {
  hub.connections[n]?.terminate()
  const hello = hub.next(n + 1, 'hello')
  await vi.waitUntil(
    () => {
      vi.advanceTimersByTime(1_000)
      return hub.connections.length > n + 1
    },
    { interval: 1 },
  )
  await hello
  hub.send(n + 1, welcome)
}

describe('what the hub is told it may forget', () => {
  it('acknowledges what the session handled, and nothing past an event it keeps until it is handled', async () => {
    await connected()
    keep.add('e2')
    for (const [id, seq] of [
      ['e1', 1],
      ['e2', 2],
      ['e3', 3],
    ] as const)
      hub.send(0, { type: 'deliver', event: stored(id, seq) })
    await handedOver(3)
    expect(delivered).toEqual(['e1', 'e2', 'e3'])
    expect(await acksSoFar(0)).toEqual([1])

    client.handled('e2')
    expect(await acksSoFar(0)).toEqual([1, 3])
  })

  it('acknowledges many handled at once with one ack', async () => {
    await connected()
    for (let seq = 1; seq <= 50; seq++) hub.send(0, { type: 'deliver', event: stored(`e${seq}`, seq) })
    await handedOver(50)
    expect(await acksSoFar(0)).toEqual([50])
  })

  it('after a reconnect, acknowledges the new hub’s deliveries though one from before is still kept', async () => {
    await connected()
    keep.add('old')
    hub.send(0, { type: 'deliver', event: stored('old', 7) })
    await handedOver(1)

    await linkBreaks(0)
    expect(hub.sent(1, 'hello')).toEqual([expect.objectContaining({ subscriber: 'ann', reconnect: true })])
    // A hub that died before committing seq 7 gives it to another event once it is back.
    hub.send(1, { type: 'deliver', event: stored('new', 7) })
    await handedOver(2)
    expect(await acksSoFar(1)).toEqual([7])

    // The old event, handled late, is nothing this connection delivered: no ack for it.
    client.handled('old')
    expect(await acksSoFar(1)).toEqual([7])
  })
})

describe('requests when the link breaks', () => {
  it('says a reply may have gone out rather than send it twice, and sends a permission request again', async () => {
    await connected()
    const reply = client.reply('chat-1', 'deploying now')
    const permission = client.requestPermission({
      request_id: 'abcde',
      tool_name: 'Bash',
      description: 'Deploy',
      input_preview: '{"command":"make deploy"}',
    })
    await hub.next(0, 'reply')
    await hub.next(0, 'permission_request')

    await linkBreaks(0)
    expect(await reply).toEqual({
      ok: false,
      message: 'the hub connection broke while sending; check before sending again',
    })
    const again = await hub.next(1, 'permission_request')
    expect(again).toEqual(hub.sent(0, 'permission_request')[0])
    hub.send(1, { type: 'result', rid: (again as { rid: number }).rid, ok: true, message: 'asked' })
    expect(await permission).toEqual({ ok: true, message: 'asked' })

    await acksSoFar(1)
    expect(hub.sent(1, 'reply')).toEqual([])
  })

  it('holds a request made before the hub welcomed it, and sends it once it has', async () => {
    const welcomed = client.connect(5_000)
    await hub.next(0, 'hello')
    const reply = client.reply('chat-1', 'early')
    hub.send(0, welcome)
    await welcomed
    const sent = await hub.next(0, 'reply')
    expect(sent).toMatchObject({ chat_id: 'chat-1', text: 'early' })
    hub.send(0, { type: 'result', rid: (sent as { rid: number }).rid, ok: true, message: 'sent' })
    expect(await reply).toEqual({ ok: true, message: 'sent' })
  })

  it('gives up with the hub’s reason when the hub refuses the channel before welcoming it', async () => {
    const welcomed = client.connect(5_000)
    await hub.next(0, 'hello')
    hub.send(0, { type: 'error', message: 'the name ann is taken' })
    await expect(welcomed).rejects.toThrow('the hub refused this channel: the name ann is taken')
  })
})

describe('the rung', () => {
  it('tells the hub a rung chosen between its hello and the welcome, once welcomed', async () => {
    await client.close()
    let rung: 'channel' | 'message' | null = null
    client = new HubClient({
      target: { host: '127.0.0.1', port: 1 },
      socketPath: hub.socketPath,
      token: 'token',
      subscriber: 'ann',
      topics: ['*'],
      rung: () => rung,
      log: pino({ level: 'silent' }),
      onDeliver: async () => undefined,
      onVerdict: async () => {},
    })
    const welcomed = client.connect(5_000)
    const hello = await hub.next(0, 'hello')
    expect(hello).not.toHaveProperty('rung')
    // The session initialized the channel meanwhile: too early to tell a hub that has not welcomed it.
    rung = 'message'
    client.announceRung(rung)
    hub.send(0, welcome)
    await welcomed
    expect(await hub.next(0, 'rung')).toEqual({ type: 'rung', rung: 'message' })
  })
})

describe('a hub that goes silent', () => {
  /** A client on `on` that pings every `heartbeatMs`; the clock is the real one (the heartbeat's interval). */
  const heartbeatClient = (on: FakeHub, heartbeatMs: number) =>
    new HubClient({
      target: { host: '127.0.0.1', port: 1 },
      socketPath: on.socketPath,
      token: 'token',
      heartbeatMs,
      subscriber: 'ann',
      topics: ['*'],
      log: pino({ level: 'silent' }),
      onDeliver: async () => {},
      onVerdict: async () => {},
    })

  it('is left after three heartbeats without a pong, and dialled again as a reconnect', async () => {
    vi.useRealTimers()
    const silent = await FakeHub.start({ autoPong: false })
    const beating = heartbeatClient(silent, 100)
    try {
      const welcomed = beating.connect(5_000)
      await silent.next(0, 'hello')
      silent.send(0, welcome)
      await welcomed
      expect(await silent.next(1, 'hello')).toMatchObject({
        type: 'hello',
        subscriber: 'ann',
        reconnect: true,
      })
    } finally {
      await beating.close()
      await silent.close()
    }
  })

  it('is not left while it answers the pings', async () => {
    vi.useRealTimers()
    const answering = await FakeHub.start()
    // Four heartbeats of 300 ms: time enough to be left were the pongs not heard, and a slow worker's
    // pause of a few hundred ms is not taken for silence.
    const beating = heartbeatClient(answering, 300)
    try {
      const welcomed = beating.connect(5_000)
      await answering.next(0, 'hello')
      answering.send(0, welcome)
      await welcomed
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      expect(answering.connections).toHaveLength(1)
    } finally {
      await beating.close()
      await answering.close()
    }
  })
})
