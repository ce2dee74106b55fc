// Sessions talking to each other (seed 002, c2c): every channel and every driven session is a peer,
// named by its subscriber name. Messages are direct, durable events: one to a peer that is offline
// waits for it; one to a name nobody holds is refused and kept as a dead letter.
import { forbidden, notFound } from '../../core/errors.js'
import type { NewEvent } from '../../core/event.js'
import type { PeerInfo, PeerRequest } from '../../core/hub-protocol.js'
import type { PublishResult, Store } from '../../store/store.js'

/** What peers need of the hub: its store, its publishing, and who is connected right now. */
export interface PeerHub {
  readonly store: Store
  publish(event: NewEvent): Promise<PublishResult>
  isConnected(name: string): boolean
}

export class Peers {
  constructor(private readonly hub: PeerHub) {}

  /** Carries out one request from `from`; answers with a line for the asking tool. */
  async handle(from: string, request: PeerRequest): Promise<string> {
    switch (request.action) {
      case 'list':
        return JSON.stringify(await this.list(), null, 2)
      case 'send': {
        const id = await this.send(from, request.to, request.text)
        return `sent to ${request.to} (${id})`
      }
      case 'broadcast': {
        const n = await this.toMany(
          from,
          (await this.names()).filter((n) => n !== from),
          request.text,
        )
        return `sent to ${n} peer${n === 1 ? '' : 's'}`
      }
      case 'join':
        await this.hub.store.joinRoom(request.room, from)
        return `joined ${request.room}`
      case 'leave':
        await this.hub.store.leaveRoom(request.room, from)
        return `left ${request.room}`
      case 'send_room': {
        const members = await this.hub.store.roomMembers(request.room)
        if (!members.includes(from)) throw forbidden(`join ${request.room} before sending to it`)
        const n = await this.toMany(
          from,
          members.filter((m) => m !== from),
          request.text,
          request.room,
        )
        return `sent to ${n} member${n === 1 ? '' : 's'} of ${request.room}`
      }
    }
  }

  async list(): Promise<PeerInfo[]> {
    const subscribers = await this.hub.store.listSubscribers()
    return Promise.all(
      subscribers
        .filter((s) => s.peer && s.name !== '')
        .map(async (s) => ({
          name: s.name,
          aliases: await this.hub.store.aliasesOf(s.name),
          live: this.hub.isConnected(s.name),
          rooms: await this.hub.store.roomsOf(s.name),
          pending: s.pending,
        })),
    )
  }

  async send(from: string, toName: string, text: string, room?: string): Promise<string> {
    const to = await this.peerNamed(toName)
    if (!to) {
      await this.hub.store.addDeadLetter({
        kind: 'peer',
        target: toName,
        payload: { from, to: toName, text, ...(room ? { room } : {}) },
        reason: 'no peer by that name',
      })
      throw notFound(`no peer named "${toName}"; the peers tool lists who is there`)
    }
    const meta: Record<string, string> = { from, to }
    if (room) meta.room = room
    const result = await this.hub.publish({
      topic: `peer:${to}`,
      source: 'peer',
      sender: from,
      chat_id: null,
      target: to,
      content: text,
      meta,
      idempotencyKey: null,
    })
    return result.event.id
  }

  /**
   * The peer a name or alias points at. Subscribers that are not peers (driven sessions not created
   * as one, outbound webhooks) are out of reach: a session a prompt injection took over could
   * otherwise type into every session the hub drives.
   */
  private async peerNamed(name: string): Promise<string | null> {
    const direct = await this.hub.store.getSubscriber(name)
    if (direct) return direct.peer ? direct.name : null
    const aliased = await this.hub.store.resolveAlias(name)
    return aliased && (await this.hub.store.getSubscriber(aliased))?.peer ? aliased : null
  }

  private async names(): Promise<string[]> {
    return (await this.hub.store.listSubscribers()).filter((s) => s.peer && s.name !== '').map((s) => s.name)
  }

  private async toMany(from: string, targets: string[], text: string, room?: string): Promise<number> {
    for (const to of targets) await this.send(from, to, text, room)
    return targets.length
  }
}
