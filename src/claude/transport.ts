// The two ways stream-json travels between the host and a CLI process: its stdin/stdout (the
// default), or a WebSocket the CLI opens to the hub with `--sdk-url` (seed 001; CLIs up to 2.1.120).
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import type { WebSocket } from 'ws'

export interface LineTransport {
  /** Writes one line (the newline is added here). */
  write(line: string): Promise<void>
  /** Feeds what arrives to `onData`, and `onEnd` once nothing more will. */
  start(onData: (chunk: Buffer) => void, onEnd: () => void): void
  /** No more input: the CLI ends its session. */
  end(): void
}

export function stdioTransport(child: ChildProcessWithoutNullStreams): LineTransport {
  child.stdin.on('error', () => {}) // EPIPE when the CLI died; its exit reports that
  return {
    write: (line) =>
      new Promise((resolve, reject) =>
        child.stdin.write(`${line}\n`, (err) => (err ? reject(err) : resolve())),
      ),
    start(onData, onEnd) {
      child.stdout.on('data', onData)
      child.stdout.on('end', onEnd)
    },
    end: () => child.stdin.end(),
  }
}

/** The CLI connects later: writes wait for the connection. Each message holds one or more lines. */
export function webSocketTransport(connection: Promise<WebSocket>): LineTransport {
  return {
    async write(line) {
      const ws = await connection
      await new Promise<void>((resolve, reject) =>
        ws.send(`${line}\n`, (err) => (err ? reject(err) : resolve())),
      )
    },
    start(onData, onEnd) {
      void connection.then((ws) => {
        ws.on('message', (data: Buffer) => {
          onData(data)
          if (data[data.length - 1] !== 0x0a) onData(Buffer.from('\n'))
        })
        ws.on('close', onEnd)
        ws.on('error', () => {}) // a broken frame closes the socket, and close ends the session
      })
    },
    end: () => void connection.then((ws) => ws.close()),
  }
}
