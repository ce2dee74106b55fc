// The hub's TCP port when it speaks TLS: one port, TLS for whoever comes, plain HTTP only over
// loopback (local channels and CLIs, a Claude Code CLI on the --sdk-url transport, a proxy in front).
// A connection's first byte says which it is (22 opens a TLS handshake); plain HTTP from anywhere
// else is told to use HTTPS and closed, before anything is read from it.
import type { Server } from 'node:http'
import { createServer, type Server as NetServer, type Socket } from 'node:net'
import { isLoopback } from '../../core/network.js'

const TLS_HANDSHAKE = 0x16
/** A connection that says nothing for this long is dropped. */
const FIRST_BYTE_MS = 30_000
const USE_HTTPS = 'this hub speaks HTTPS beyond this machine\n'

function fromLoopback(socket: Socket): boolean {
  return isLoopback(socket.remoteAddress?.replace(/^::ffff:/i, '') ?? '')
}

/** The listener, and how to end every connection it took (the servers it handed them to cannot). */
export function frontDoor(plain: Server, secure: Server): { server: NetServer; closeAll(): void } {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    const dropped = () => socket.destroy()
    socket.on('error', dropped)
    socket.setTimeout(FIRST_BYTE_MS, dropped)
    socket.once('data', (first: Buffer) => {
      socket.setTimeout(0)
      socket.off('error', dropped)
      socket.pause()
      socket.unshift(first)
      if (first[0] === TLS_HANDSHAKE) secure.emit('connection', socket)
      else if (fromLoopback(socket)) plain.emit('connection', socket)
      else {
        socket.on('error', dropped)
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${USE_HTTPS.length}\r\n\r\n${USE_HTTPS}`,
        )
        return
      }
      // The server now reading it gets the first bytes again before anything newer.
      process.nextTick(() => socket.resume())
    })
  })
  return {
    server,
    closeAll: () => {
      for (const socket of sockets) socket.destroy()
    },
  }
}
