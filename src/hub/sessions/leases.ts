// Of the hubs on one database, one at a time runs a session's CLI: the one holding the lease of the
// session's subscriber. Every session subscribed to the hub is work for that hub: what waits for it
// (a peer message, an event on its topics) is written to it there, resuming its CLI.

import { conflict } from '../../core/errors.js'
import type { StoredEvent } from '../../core/event.js'
import type { Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import { type ExclusiveWork, subscriberLease, type WorkSource } from '../core/lease-keeper.js'

/** The name a session subscribes to the hub under. */
export const subscriberOf = (sessionId: string) => `session:${sessionId}`

export class SessionLeases {
  constructor(
    private readonly store: Store,
    private readonly hub: Hub,
  ) {}

  /** Makes the session a durable subscriber of the hub, fed by the hub holding its lease (work()). */
  async subscribe(id: string, topics: string[], peer: boolean): Promise<void> {
    await this.store.registerSubscriber(subscriberOf(id), topics, { peer })
    await this.hub.leases.tickNow()
  }

  /** Takes the right to run the session's CLI on this hub; a conflict when another hub has it. */
  async claim(id: string): Promise<void> {
    if (!(await this.hub.leases.take(subscriberLease(subscriberOf(id)))))
      throw conflict(`session ${id} runs on another hub; ask that hub`)
  }

  /** The session is forgotten: nothing is delivered to it any more. */
  async forget(id: string): Promise<void> {
    await this.hub.forget(subscriberOf(id))
  }

  /**
   * The sessions this hub may be asked to run: `taken` once it holds one's lease (before anything is
   * delivered), `message` for each event that waits for it.
   */
  work(on: {
    taken(id: string): Promise<void>
    message(id: string, event: StoredEvent): Promise<void>
  }): WorkSource {
    return {
      wanted: async () => {
        const subscribed = new Set((await this.store.listSubscribers()).map((s) => s.name))
        const work = new Map<string, ExclusiveWork>()
        for (const session of await this.store.listSessions()) {
          const name = subscriberOf(session.id)
          if (!subscribed.has(name)) continue
          work.set(subscriberLease(name), {
            start: async (lease) => {
              await on.taken(session.id)
              await this.hub.attachConsumer(name, (event) => on.message(session.id, event), lease)
            },
            stop: async () => this.hub.detach(name),
          })
        }
        return work
      },
    }
  }
}
