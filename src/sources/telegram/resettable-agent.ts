// An HTTP(S) agent whose connections can be reset rather than closed. A socket closed while the link
// hangs (a network split) keeps what it had queued in the kernel, which sends it when the link comes
// back: a message the hub gave up on would then reach Telegram beside the copy the hub that took the
// bridge sends. A reset drops the queue. Node resets only a socket whose handle is plain TCP, so a
// TLS connection is laid over a TCP socket of our own, kept here.
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import { type NetConnectOpts, type Socket, connect as tcpConnect } from 'node:net'

type CreateConnection = (options: Record<string, unknown>, callback?: unknown) => Socket

export interface ResettableAgent {
  agent: HttpAgent
  /** Resets every connection it opened and closes the agent: nothing it was sending goes out later. */
  reset(): void
}

export function resettableAgent(tls: boolean): ResettableAgent {
  const agent = tls ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const opened = new Set<Socket>()
  const track = (socket: Socket) => {
    opened.add(socket)
    socket.once('close', () => opened.delete(socket))
    return socket
  }
  const agentWithCreate = agent as unknown as { createConnection: CreateConnection }
  const create = agentWithCreate.createConnection.bind(agent)
  agentWithCreate.createConnection = (options, callback) => {
    if (!tls) return track(create(options, callback))
    const tcp = track(tcpConnect({ host: options.host, port: options.port } as NetConnectOpts))
    return create({ ...options, socket: tcp }, callback)
  }
  return {
    agent,
    reset() {
      for (const socket of opened) {
        try {
          socket.resetAndDestroy()
        } catch {
          socket.destroy()
        }
      }
      agent.destroy()
    },
  }
}
