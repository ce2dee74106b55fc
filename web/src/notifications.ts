// Browser notifications for new decisions and finished turns, only once the person has allowed them.
import type { DecisionRow } from '../../src/core/dashboard-api.ts'
import { toolOf } from './decision-text.ts'
import { href, navigate, parseHash } from './router.ts'
import { formatCost } from './transcript.ts'

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window
}

function granted(): boolean {
  return notificationsSupported() && Notification.permission === 'granted'
}

/** Shows a notification that, clicked, brings the window forward on `to`. */
function show(title: string, options: NotificationOptions, to: string) {
  try {
    const n = new Notification(title, options)
    n.onclick = () => {
      window.focus()
      navigate(to)
      n.close()
    }
  } catch {
    // Some mobile browsers only notify from a service worker: the page still shows it.
  }
}

export function notifyDecision(d: DecisionRow) {
  if (!granted()) return
  show(`${d.owner} asks: ${toolOf(d)}`, { tag: d.id }, href.inbox())
}

const BODY_MAX = 200

/**
 * A session finished its turn (a `result` line arrived live). Not while the person is looking at that
 * very session: the transcript already says so.
 */
export function notifyTurnEnd(sessionId: string, result: { text: string | null; cost: number | null }) {
  if (!granted()) return
  if (document.visibilityState === 'visible') {
    const route = parseHash(window.location.hash)
    if (route.page === 'session' && route.id === sessionId) return
  }
  const text =
    result.text && result.text.length > BODY_MAX ? `${result.text.slice(0, BODY_MAX - 1)}…` : result.text
  const body = [text, result.cost !== null ? formatCost(result.cost) : null].filter(Boolean).join('\n')
  show(
    `${sessionId} finished its turn`,
    { tag: `turn:${sessionId}`, ...(body ? { body } : {}) },
    href.session(sessionId),
  )
}
