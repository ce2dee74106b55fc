// The hub end of the hub protocol: channels connect here over WebSocket with the admin token.
import type { WebSocket } from 'ws'
import { describeZod } from '../../core/errors.js'
import { heartbeat } from '../../core/heartbeat.js'
import { type ClientMessage, clientMessageSchema, type ServerMessage } from '../../core/hub-protocol.js'
import { VERSION } from '../../core/version.js'
import type { Hub } from '../core/hub.js'
import type { SubscriberConnection } from '../core/subscriber-connection.js'

function say(ws: WebSocket, message: ServerMessage): void {
  ws.send(JSON.stringify(message))
}

export function handleHubSocket(hub: Hub, ws: WebSocket, heartbeatMs: number): void {
  let connection: SubscriberConnection | null = null
  /** The session's working folder, as its channel said. */
  let folder: string | undefined
  let saidBye = false
  // Messages are handled one at a time, in arrival order: acks and replies keep their sequence.
  let queue = Promise.resolve()

  // A broken frame or a reset is this connection's end, never the hub's.
  ws.on('error', (err) => hub.log.debug({ err: err.message }, 'hub socket error'))
  // A channel behind a network that went silent: its connection ends here, and its lease with it.
  heartbeat(ws, heartbeatMs, () =>
    hub.log.warn({ subscriber: connection?.name }, 'channel silent for three heartbeats: connection ended'),
  )

  ws.on('message', (data) => {
    queue = queue
      .then(() => handle(String(data)))
      .catch((err) => hub.log.error({ err }, 'hub socket message failed'))
  })

  ws.on('close', () => {
    if (!connection) return
    connection.close()
    if (hub.connections.get(connection.name) === connection) {
      hub.connections.delete(connection.name)
      hub.leases.unseize(connection.name)
    }
    hub.log.info({ subscriber: connection.name, bye: saidBye }, 'channel disconnected')
    if (!saidBye) return
    void hub.decisions.subscriberLeft(connection.name)
    hub.sessionEnded(connection.name, null)
  })

  async function handle(text: string): Promise<void> {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      say(ws, { type: 'error', message: 'not JSON' })
      return
    }
    const parsed = clientMessageSchema.safeParse(json)
    if (!parsed.success) {
      say(ws, { type: 'error', message: describeZod(parsed.error) })
      return
    }
    const msg = parsed.data
    if (msg.type === 'hello') return hello(msg)
    if (!connection) {
      say(ws, { type: 'error', message: 'say hello first' })
      return
    }
    const name = connection.name
    switch (msg.type) {
      case 'ack':
        connection.ack(msg.seq)
        return
      case 'reply': {
        const result = await hub.reply(name, msg.chat_id, msg.text, {
          replyTo: msg.reply_to,
          files: msg.files,
          folder,
        })
        say(ws, { type: 'result', rid: msg.rid, ...result })
        return
      }
      case 'chat_action': {
        const result = await hub.chatAction(name, msg.request)
        say(ws, { type: 'result', rid: msg.rid, ...result })
        return
      }
      case 'permission_request': {
        const decision = await hub.decisions.requestPermission(name, msg.request, connection.claudeSession)
        say(ws, { type: 'result', rid: msg.rid, ok: true, message: decision.id })
        return
      }
      case 'peer': {
        const answer = await hub.peers.handle(name, msg.request).then(
          (message) => ({ ok: true, message }),
          (err: Error) => ({ ok: false, message: err.message }),
        )
        say(ws, { type: 'result', rid: msg.rid, ...answer })
        return
      }
      case 'receipt':
        await hub.receipt(name, msg)
        return
      case 'rung':
        connection.setRung(msg.rung, hub.hookFed.has(name))
        return
      case 'bye':
        saidBye = true
        return
    }
  }

  async function hello(msg: Extract<ClientMessage, { type: 'hello' }>): Promise<void> {
    if (connection) {
      say(ws, { type: 'error', message: 'hello was said already' })
      return
    }
    // A second session's channel with a taken name gets the next free one: two sessions never share a queue.
    const name = msg.reconnect ? msg.subscriber : await hub.names.free(msg.subscriber, msg.session ?? null)
    const sink = { send: (m: ServerMessage) => ws.send(JSON.stringify(m)), terminate: () => ws.terminate() }
    const attached = await hub.attach(name, sink, {
      // Its topics, `*` meaning what is about its project (the folder Claude Code started it in).
      interest: await hub.projects.interest(msg.folder, msg.topics),
      claim: true,
      claudeSession: msg.session,
      folder: msg.folder,
    })
    if (ws.readyState !== ws.OPEN) {
      // Gone while it registered: the close handler had no connection to drop yet.
      attached.close()
      if (hub.connections.get(name) === attached) hub.connections.delete(name)
      return
    }
    connection = attached
    folder = msg.folder
    if (msg.rung) connection.setRung(msg.rung, hub.hookFed.has(name))
    for (const alias of msg.aliases ?? []) if (alias !== name) await hub.store.setAlias(alias, name)
    say(ws, {
      type: 'welcome',
      subscriber: name,
      operators: await hub.store.countOperators(),
      hubVersion: VERSION,
    })
    hub.log.info({ subscriber: name, topics: msg.topics }, 'channel connected')
    await hub.decisions.relayPendingVerdicts(name)
    await connection.pump()
  }
}
