// The app: checks the browser is signed in, keeps the open decisions live (for the Inbox, its count
// and notifications on every page), notifies finished turns from every page, and shows the page the
// hash names.
import { useEffect, useState } from 'react'
import { AccessPage } from './AccessPage.tsx'
import { ApiError, api, errorText, onSignedOut } from './api.ts'
import { ChatPage } from './ChatPage.tsx'
import { EventsPage } from './EventsPage.tsx'
import { HubPage } from './HubPage.tsx'
import { InboxPage } from './InboxPage.tsx'
import { Nav } from './Nav.tsx'
import { RulesPage } from './RulesPage.tsx'
import { useRoute } from './router.ts'
import { SessionPage } from './SessionPage.tsx'
import { SessionsPage } from './SessionsPage.tsx'
import { SignedOut } from './SignedOut.tsx'
import { useDecisions } from './useDecisions.ts'
import { useTurnNotifications } from './useTurnNotifications.ts'

type Auth = { state: 'checking' } | { state: 'in'; name: string | null } | { state: 'out' }

export function App() {
  const route = useRoute()
  const [auth, setAuth] = useState<Auth>({ state: 'checking' })
  const [problem, setProblem] = useState<string | null>(null)
  const decisions = useDecisions(auth.state === 'in')
  useTurnNotifications(auth.state === 'in')

  useEffect(() => {
    const off = onSignedOut(() => setAuth({ state: 'out' }))
    api
      .me()
      .then((me) => setAuth({ state: 'in', name: me.name }))
      .catch((err) => {
        if (err instanceof ApiError && err.status === 401) return
        // The hub answered oddly or not at all: show the pages, which say what fails.
        setProblem(errorText(err))
        setAuth({ state: 'in', name: null })
      })
    return off
  }, [])

  useEffect(() => {
    document.title = decisions.openCount > 0 ? `(${decisions.openCount}) Switchboard` : 'Switchboard'
  }, [decisions.openCount])

  if (auth.state === 'out') return <SignedOut />
  if (auth.state === 'checking') return <p className="muted loading">Loading…</p>

  return (
    <>
      <Nav route={route} openCount={decisions.openCount} me={auth.name} />
      {problem ? (
        <p className="error banner" role="alert">
          {problem}
        </p>
      ) : null}
      {route.page === 'sessions' ? (
        <SessionsPage />
      ) : route.page === 'session' ? (
        <SessionPage key={route.id} id={route.id} />
      ) : route.page === 'inbox' ? (
        <InboxPage decisions={decisions} />
      ) : route.page === 'chat' ? (
        <ChatPage />
      ) : route.page === 'rules' ? (
        <RulesPage />
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
    </>
  )
}
