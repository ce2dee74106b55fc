// A man in the middle, for tests: a port on loopback that passes every connection on to a hub and
// keeps every byte the client sent. As it is, it passes the bytes unread (what it sees of TLS is
// ciphertext); given a certificate, it ends the client's TLS with it and dials the hub itself (TLS
// or not), reading everything in between, as an attacker with a certificate of their own would.
//
// It is also a link the test can cut, either way a network fails: `silent` (a split: every connection
// stays open and hangs, new ones are taken and hang too, bytes both ways are held as TCP would keep
// retransmitting them) or `refused` (every connection ends, new ones are refused). `heal` brings the
// link back: held bytes of connections both ends still have open go through then, as retransmitted
// segments would; a connection its client closed during the split sends nothing more (its socket,
// and what it had not sent, are gone).
import { createServer as createTcpServer, type Server, type Socket, connect as tcpConnect } from 'node:net'
import { createServer as createTlsServer, connect as tlsConnect } from 'node:tls'
import { freePort } from './home.js'

export interface RelayOptions {
  /** End the client's TLS with this certificate and key (PEM). */
  tls?: { cert: string; key: string }
  /** Dial the hub over TLS (whatever its certificate). */
  hubTls?: boolean
  /** Where it listens (default 127.0.0.1). */
  host?: string
}

export type Cut = 'silent' | 'refused'

/** One client's connection and its way on, with what a split held back each way. */
interface Pair {
  client: Socket
  upstream: Socket | null
  toUpstream: Buffer[]
  toClient: Buffer[]
  clientClosed: boolean
}

export class Relay {
  private readonly received: Buffer[] = []
  private readonly sockets = new Set<Socket>()
  private readonly pairs = new Set<Pair>()
  private cut: Cut | null = null

  private constructor(
    private server: Server,
    private readonly listen: () => Server,
    private readonly dial: () => Socket,
    /** host:port it listens on. */
    readonly address: string,
  ) {}

  static async start(hub: { host: string; port: number }, options: RelayOptions = {}): Promise<Relay> {
    let relay: Relay | null = null
    const dial = () =>
      options.hubTls
        ? tlsConnect({ host: hub.host, port: hub.port, rejectUnauthorized: false })
        : tcpConnect({ host: hub.host, port: hub.port })
    const onClient = (client: Socket) => relay?.accept(client)
    const port = await freePort()
    const host = options.host ?? '127.0.0.1'
    const listen = () => {
      const server = options.tls ? createTlsServer(options.tls, onClient) : createTcpServer(onClient)
      server.listen(port, host)
      return server
    }
    const server = listen()
    await new Promise<void>((resolve) => server.once('listening', resolve))
    relay = new Relay(server, listen, dial, `${host}:${port}`)
    return relay
  }

  /** Everything clients sent through it, as text (binary bytes kept one character each). */
  get seen(): string {
    return Buffer.concat(this.received).toString('latin1')
  }

  /** Cuts the link: `silent`, every connection hangs; `refused`, every connection ends and none is taken. */
  async cutOff(how: Cut): Promise<void> {
    this.cut = how
    if (how === 'silent') return
    for (const s of this.sockets) s.destroy()
    this.pairs.clear()
    await new Promise((resolve) => this.server.close(resolve))
  }

  /** The link is back: new connections pass, and what a split held goes through (see the top). */
  async heal(): Promise<void> {
    const was = this.cut
    this.cut = null
    if (was === 'refused') {
      this.server = this.listen()
      await new Promise<void>((resolve) => this.server.once('listening', resolve))
      return
    }
    for (const pair of this.pairs) {
      if (pair.clientClosed) {
        pair.upstream?.destroy()
        this.pairs.delete(pair)
        continue
      }
      pair.upstream ??= this.connectUpstream(pair)
      for (const chunk of pair.toUpstream.splice(0)) pair.upstream.write(chunk)
      for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk)
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    if (this.cut !== 'refused') await new Promise((resolve) => this.server.close(resolve))
  }

  private accept(client: Socket): void {
    const pair: Pair = { client, upstream: null, toUpstream: [], toClient: [], clientClosed: false }
    this.pairs.add(pair)
    this.track(client, pair)
    client.on('close', () => {
      pair.clientClosed = true
      // Closed in the open: its way on ends with it. Closed during a split: nothing reaches the far end.
      if (!this.cut) {
        pair.upstream?.destroy()
        this.pairs.delete(pair)
      }
    })
    client.on('data', (chunk: Buffer) => {
      this.received.push(chunk)
      if (this.cut || !pair.upstream) pair.toUpstream.push(chunk)
      else pair.upstream.write(chunk)
    })
    client.on('end', () => {
      if (!this.cut) pair.upstream?.end()
    })
    // Dialled at once in the open; during a split, once it heals.
    if (!this.cut) pair.upstream = this.connectUpstream(pair)
  }

  private connectUpstream(pair: Pair): Socket {
    const upstream = this.dial()
    this.track(upstream, pair)
    upstream.on('data', (chunk: Buffer) => {
      if (this.cut) pair.toClient.push(chunk)
      else pair.client.write(chunk)
    })
    upstream.on('end', () => {
      if (!this.cut) pair.client.end()
    })
    for (const chunk of pair.toUpstream.splice(0)) upstream.write(chunk)
    return upstream
  }

  private track(socket: Socket, pair: Pair): void {
    this.sockets.add(socket)
    socket.on('error', () => {
      pair.client.destroy()
      pair.upstream?.destroy()
    })
    socket.on('close', () => this.sockets.delete(socket))
  }
}
