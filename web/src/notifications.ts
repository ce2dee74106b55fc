// Browser notifications for new decisions, only once the person has allowed them.
import type { DecisionRow } from '../../src/core/dashboard-api.ts'
import { toolOf } from './decision-text.ts'
import { href, navigate } from './router.ts'

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window
}

export function notifyDecision(d: DecisionRow) {
  if (!notificationsSupported() || Notification.permission !== 'granted') return
  try {
    const n = new Notification(`${d.owner} asks: ${toolOf(d)}`, { tag: d.id })
    n.onclick = () => {
      window.focus()
      navigate(href.inbox())
      n.close()
    }
  } catch {
    // Some mobile browsers only notify from a service worker: the Inbox still shows it.
  }
}
