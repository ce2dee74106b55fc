// The app: signs the browser in with a link's token (at /signin) or checks its key, keeps the open
// decisions live (for the Inbox, its count and notifications on every page), notifies finished turns
// from every page, and shows the page the hash names. A browser demoted from operator sees only that.
import { type ReactNode, useEffect, useState } from 'react'
import { AccessPage } from './access/access-page.tsx'
import { ApiError, call, errorText, onSignedOut, onStanding, signIn, storedKey } from './api/client.ts'
import { ChatPage } from './chat/chat-page.tsx'
import { useDecisions } from './decisions/use-decisions.ts'
import { EventsPage } from './events/events-page.tsx'
import { HubPage } from './hub/hub-page.tsx'
import { InboxPage } from './inbox/inbox-page.tsx'
import { useRoute } from './lib/router.ts'
import { Nav } from './nav.tsx'
import { shareKeyWithWorker } from './notifications/push.ts'
import { useTurnNotifications } from './notifications/use-turn-notifications.ts'
import { RoutinesPage } from './routines/routines-page.tsx'
import { RulesPage } from './rules/rules-page.tsx'
import { SessionNames, useSessionNamesPoll } from './sessions/session-names.ts'
import { SessionPage } from './sessions/session-page.tsx'
import { SessionsPage } from './sessions/sessions-page.tsx'
import { NotOperator, SignedOut } from './signed-out.tsx'
import { UsagePage } from './usage/usage-page.tsx'

type Auth =
  | { state: 'checking' }
  | { state: 'in'; name: string | null; operator: boolean }
  | { state: 'out'; reason?: string }

/** At /signin?token=…: spends the token, and leaves the address bar with nothing to spend again. */
async function signInFromLink(): Promise<void> {
  if (window.location.pathname !== '/signin') return
  const token = new URLSearchParams(window.location.search).get('token') ?? ''
  // A link for a phone ends in the certificate's fingerprint (#/?sha256=…), for the person to compare.
  const hash = window.location.hash.includes('sha256=') ? '' : window.location.hash
  window.history.replaceState(null, '', `/${hash}`)
  await signIn(token)
}

export function App() {
  const route = useRoute()
  const [auth, setAuth] = useState<Auth>({ state: 'checking' })
  const [problem, setProblem] = useState<string | null>(null)
  const operating = auth.state === 'in' && auth.operator
  const decisions = useDecisions(operating)
  useTurnNotifications(operating)

  useEffect(() => {
    const offOut = onSignedOut(() => {
      setAuth((was) => (was.state === 'out' ? was : { state: 'out' }))
      void shareKeyWithWorker(null)
    })
    const offStanding = onStanding((me) => setAuth({ state: 'in', name: me.name, operator: me.operator }))
    signInFromLink()
      .then(() => call('me'))
      .then((me) => {
        setAuth({ state: 'in', name: me.name, operator: me.operator })
        // The service worker answers a notification's Allow with the key of the latest sign-in.
        void shareKeyWithWorker(storedKey())
      })
      .catch((err) => {
        if (err instanceof ApiError && err.status === 401)
          return setAuth({ state: 'out', reason: err.message })
        if (err instanceof ApiError && err.status === 403)
          return setAuth({ state: 'out', reason: err.message })
        // The hub answered oddly or not at all: show the pages, which say what fails.
        setProblem(errorText(err))
        setAuth({ state: 'in', name: null, operator: true })
      })
    return () => {
      offOut()
      offStanding()
    }
  }, [])

  useEffect(() => {
    document.title = decisions.openCount > 0 ? `(${decisions.openCount}) Switchboard` : 'Switchboard'
  }, [decisions.openCount])

  if (auth.state === 'out') return <SignedOut reason={auth.reason} />
  if (auth.state === 'checking') return <p className="muted loading">Loading…</p>
  if (!auth.operator) return <NotOperator name={auth.name ?? ''} />

  return (
    <Operating>
      <Nav route={route} openCount={decisions.openCount} me={auth.name} />
      {problem ? (
        <p className="error banner" role="alert">
          {problem}
        </p>
      ) : null}
      {route.page === 'sessions' ? (
        <SessionsPage />
      ) : route.page === 'session' ? (
        <SessionPage key={route.id} id={route.id} decisions={decisions} />
      ) : route.page === 'inbox' ? (
        <InboxPage decisions={decisions} />
      ) : route.page === 'chat' ? (
        <ChatPage />
      ) : route.page === 'rules' ? (
        <RulesPage />
      ) : route.page === 'routines' ? (
        <RoutinesPage />
      ) : route.page === 'usage' ? (
        <UsagePage />
      ) : route.page === 'access' ? (
        <AccessPage />
      ) : route.page === 'hub' ? (
        <HubPage />
      ) : route.page === 'events' ? (
        <EventsPage q={route.q} source={route.source} />
      ) : (
        <main>
          <h1>Not found</h1>
          <p>
            Nothing at <span className="mono">{route.path}</span>. <a href="#/">Back to the sessions</a>
          </p>
        </main>
      )}
    </Operating>
  )
}

/** What every page of an operator shares: the sessions' names. */
function Operating({ children }: { children: ReactNode }) {
  return <SessionNames value={useSessionNamesPoll()}>{children}</SessionNames>
}
