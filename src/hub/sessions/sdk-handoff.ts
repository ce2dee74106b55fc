// The `--sdk-url` transport (PROTOCOLS.md §4): a CLI started with it connects back to the hub over a
// WebSocket instead of speaking on stdin/stdout. Each such CLI gets the address of its own session
// and a token made for it; the hub's upgrade handler hands the connection over only for that token.
import type { WebSocket } from 'ws'
import type { SpawnEnv } from '../../claude/process.js'
import { dialHost } from '../../core/config.js'
import { unavailable } from '../../core/errors.js'
import { newSecret, safeEqual } from '../../core/ids.js'

export class SdkHandoff {
  /** Sessions whose CLI has not connected yet: its token, and where its connection goes. */
  private readonly waiting = new Map<string, { token: string; connect(ws: WebSocket): void }>()
  private address = ''

  /** Where the CLIs connect: the hub's own address, known once it listens. */
  listeningOn(host: string, port: number): void {
    this.address = `ws://${dialHost(host)}:${port}`
  }

  /** What a CLI about to start for this session is told, and the connection it will make. */
  prepare(sessionId: string): NonNullable<SpawnEnv['sdkUrl']> {
    if (!this.address) throw unavailable('the hub is not listening yet')
    const token = newSecret('sbk')
    const connection = new Promise<WebSocket>((connect) => this.waiting.set(sessionId, { token, connect }))
    return { url: `${this.address}/sdk/${sessionId}`, token, connection }
  }

  /** A connection for this session with this token gets its hand-over, once; anything else, null. */
  connection(sessionId: string, token: string | null): ((ws: WebSocket) => void) | null {
    const waiting = this.waiting.get(sessionId)
    if (!waiting || !token || !safeEqual(token, waiting.token)) return null
    this.waiting.delete(sessionId)
    return waiting.connect
  }

  /** The session's CLI ended: a connection that comes now is refused. */
  forget(sessionId: string): void {
    this.waiting.delete(sessionId)
  }
}
