// The top bar: Sessions, Inbox (with how many decisions are open), Chat, Rules, Routines, Usage, Access, Hub,
// Events, who is signed in, and signing out. On a phone the links wrap onto a second line rather than scroll sideways.
import { signOut } from './api/client.ts'
import type { Route } from './lib/router.ts'
import { href } from './lib/router.ts'

export function Nav({ route, openCount, me }: { route: Route; openCount: number; me: string | null }) {
  const onSessions = route.page === 'sessions' || route.page === 'session'
  const current = (on: boolean) => (on ? ('page' as const) : undefined)
  return (
    <nav className="top" aria-label="Main">
      <span className="brand">Switchboard</span>
      <div className="links">
        <a href={href.sessions()} aria-current={current(onSessions)}>
          Sessions
        </a>
        <a
          href={href.inbox()}
          aria-current={current(route.page === 'inbox')}
          aria-label={openCount > 0 ? `Inbox, ${openCount} open` : 'Inbox'}
        >
          Inbox
          {openCount > 0 ? <span className="count">{openCount}</span> : null}
        </a>
        <a href={href.chat()} aria-current={current(route.page === 'chat')}>
          Chat
        </a>
        <a href={href.rules()} aria-current={current(route.page === 'rules')}>
          Rules
        </a>
        <a href={href.routines()} aria-current={current(route.page === 'routines')}>
          Routines
        </a>
        <a href={href.usage()} aria-current={current(route.page === 'usage')}>
          Usage
        </a>
        <a href={href.access()} aria-current={current(route.page === 'access')}>
          Access
        </a>
        <a href={href.hub()} aria-current={current(route.page === 'hub')}>
          Hub
        </a>
        <a href={href.events()} aria-current={current(route.page === 'events')}>
          Events
        </a>
      </div>
      {me ? <span className="me">{me}</span> : null}
      <button type="button" className="link signout" onClick={() => void signOut().catch(() => {})}>
        Sign out
      </button>
    </nav>
  )
}
