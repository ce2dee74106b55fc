// Browser notifications for new decisions and finished turns, only once the person has allowed them.
import type { DecisionRow, TurnRow } from '../../../src/core/api/rows.ts'
import { formatUsd } from '../../../src/core/money.ts'
import { toolOf } from '../decisions/decision-text.ts'
import { href, navigate, parseHash } from '../lib/router.ts'

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
 * A driven session finished its turn (from the hub's feed, on any page). Not while the person is
 * looking at that very session: the transcript already says so.
 */
export function notifyTurnEnd(turn: TurnRow) {
  if (!granted()) return
  if (document.visibilityState === 'visible') {
    const route = parseHash(window.location.hash)
    if (route.page === 'session' && route.id === turn.session) return
  }
  const said = turn.error ?? turn.text
  const text = said && said.length > BODY_MAX ? `${said.slice(0, BODY_MAX - 1)}…` : said
  const body = [text, turn.costUsd !== null ? formatUsd(turn.costUsd) : null].filter(Boolean).join('\n')
  show(
    turn.error ? `${turn.session} ended its turn early` : `${turn.session} finished its turn`,
    { tag: `turn:${turn.session}`, ...(body ? { body } : {}) },
    href.session(turn.session),
  )
}
