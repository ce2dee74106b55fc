// A WebSocket whose other end went silent is ended. A network that drops what passes (a cut cable, a
// lost route, a partition) says nothing: TCP retransmits for a quarter of an hour before it gives up,
// and a WebSocket without pings waits that long for a message that cannot come. Each end pings every
// `everyMs` (the heartbeatMs setting) and ends the link once it heard nothing, not even a pong, for
// MISSES of them: one ping lost or answered late on a busy machine is not a dead link.

/** The part of a `ws` WebSocket this needs. */
export interface Beating {
  ping(): void
  terminate(): void
  on(event: 'pong' | 'ping' | 'message', listener: () => void): unknown
  once(event: 'close', listener: () => void): unknown
}

/** The heartbeatMs setting's default: a silent link is found within 15 s, at the cost of a small frame each way per 5 s. */
export const DEFAULT_HEARTBEAT_MS = 5_000

/** How many intervals of silence end the link. */
export const MISSES = 3

/**
 * Pings `ws` every `everyMs`; terminates it (its close runs) when MISSES pings in a row went out with
 * nothing heard since. Counted in this end's own ticks, not in time since the last word: a process
 * that stalled (a busy event loop, SIGSTOP) wakes to its timer before it reads what waited in its
 * socket, and would take its own pause for the other end's silence.
 */
export function heartbeat(ws: Beating, everyMs: number, dead: () => void = () => {}): void {
  let heard = true
  let misses = 0
  const alive = () => {
    heard = true
  }
  ws.on('pong', alive)
  ws.on('ping', alive)
  ws.on('message', alive)
  const timer = setInterval(() => {
    misses = heard ? 0 : misses + 1
    heard = false
    if (misses >= MISSES) {
      clearInterval(timer)
      dead()
      ws.terminate()
      return
    }
    try {
      ws.ping()
    } catch {
      // Not open yet, or closing: its close stops this.
    }
  }, everyMs)
  timer.unref()
  ws.once('close', () => clearInterval(timer))
}
