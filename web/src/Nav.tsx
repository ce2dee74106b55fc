// The top bar: Sessions, Inbox (with how many decisions are open), Rules, and who is signed in.
import type { Route } from './router.ts'
import { href } from './router.ts'

export function Nav({ route, openCount, me }: { route: Route; openCount: number; me: string | null }) {
  const onSessions = route.page === 'sessions' || route.page === 'session'
  return (
    <nav className="top" aria-label="Main">
      <span className="brand">Switchboard</span>
      <a href={href.sessions()} aria-current={onSessions ? 'page' : undefined}>
        Sessions
      </a>
      <a
        href={href.inbox()}
        aria-current={route.page === 'inbox' ? 'page' : undefined}
        aria-label={openCount > 0 ? `Inbox, ${openCount} open` : 'Inbox'}
      >
        Inbox
        {openCount > 0 ? <span className="count">{openCount}</span> : null}
      </a>
      <a href={href.rules()} aria-current={route.page === 'rules' ? 'page' : undefined}>
        Rules
      </a>
      {me ? <span className="me">{me}</span> : null}
    </nav>
  )
}
