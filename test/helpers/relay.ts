// A man in the middle, for tests: a port on loopback that passes every connection on to a hub and
// keeps every byte the client sent. As it is, it passes the bytes unread (what it sees of TLS is
// ciphertext); given a certificate, it ends the client's TLS with it and dials the hub itself (TLS
// or not), reading everything in between, as an attacker with a certificate of their own would.
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

export class Relay {
  private readonly received: Buffer[] = []
  private readonly sockets = new Set<Socket>()

  private constructor(
    private readonly server: Server,
    /** host:port it listens on. */
    readonly address: string,
  ) {}

  static async start(hub: { host: string; port: number }, options: RelayOptions = {}): Promise<Relay> {
    let relay: Relay | null = null
    const onClient = (client: Socket) => {
      const upstream = options.hubTls
        ? tlsConnect({ host: hub.host, port: hub.port, rejectUnauthorized: false })
        : tcpConnect({ host: hub.host, port: hub.port })
      for (const s of [client, upstream]) {
        relay?.sockets.add(s)
        s.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
        s.on('close', () => relay?.sockets.delete(s))
      }
      client.on('data', (chunk: Buffer) => {
        relay?.received.push(chunk)
        upstream.write(chunk)
      })
      client.on('end', () => upstream.end())
      upstream.pipe(client)
    }
    const server = options.tls ? createTlsServer(options.tls, onClient) : createTcpServer(onClient)
    const port = await freePort()
    const host = options.host ?? '127.0.0.1'
    await new Promise<void>((resolve) => server.listen(port, host, resolve))
    relay = new Relay(server, `${host}:${port}`)
    return relay
  }

  /** Everything clients sent through it, as text (binary bytes kept one character each). */
  get seen(): string {
    return Buffer.concat(this.received).toString('latin1')
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise((resolve) => this.server.close(resolve))
  }
}
