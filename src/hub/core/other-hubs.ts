// What this hub does when it shares its database with other hubs: it shows what they stored for the
// subscribers, senders and waiters connected here. Notices are wake-ups that anyone allowed to connect
// to the database can send: each one only says which rows to read, and what is done follows from
// those rows. A slow poll covers a notice that never came. (A SQLite home has one writer, its hub.)
import type { Logger } from '../../core/log.js'
import type { OtherChange } from '../../store/store.js'
import type { Hub } from './hub.js'

/** How often every connection reads the store anyway. */
const BACKSTOP_MS = 5_000

export function followOtherHubs(hub: Hub, log: Logger): { stop(): void } {
  const { store } = hub
  const follow = async (change: OtherChange): Promise<unknown> => {
    switch (change.area) {
      case 'events':
        return hub.wake(change.subscribers)
      case 'outbox':
        return hub.outbox.storedElsewhere(change.senderId, change.itemId)
      case 'decisions':
        return hub.decisions.answeredElsewhere(change.id)
      case 'lease':
        return hub.leases.takenElsewhere(change.name)
      case 'sources':
        return hub.events.sourceChanged.emit(change.name)
      case 'unknown':
        hub.wake(null)
        return Promise.all([
          hub.decisions.answeredElsewhere(null),
          hub.outbox.catchUp(),
          hub.events.sourceChanged.emit(null),
        ])
    }
  }
  const heard = (change: OtherChange) => {
    follow(change).catch((err) =>
      log.error({ err, change: change.area }, 'a change on another hub was not followed'),
    )
  }
  if (!store.onOtherChanges) return { stop: () => {} }
  store.onOtherChanges(heard)
  const backstop = setInterval(() => heard({ area: 'unknown' }), BACKSTOP_MS)
  backstop.unref()
  return { stop: () => clearInterval(backstop) }
}
