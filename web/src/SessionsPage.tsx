// `#/`: every session (refreshed every few seconds) and the form to start one.
import { useCallback, useEffect, useState } from 'react'
import type { SessionRow } from '../../src/core/dashboard-api.ts'
import { api, errorText } from './api.ts'
import { NewSessionForm } from './NewSessionForm.tsx'
import { href, navigate } from './router.ts'
import { SessionList } from './SessionList.tsx'

const POLL_MS = 5_000

export function SessionsPage() {
  const [sessions, setSessions] = useState<SessionRow[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(async () => {
    try {
      const { sessions } = await api.sessions()
      setSessions([...sessions].sort((a, b) => b.updatedAt - a.updatedAt))
      setError(null)
    } catch (err) {
      setError(errorText(err))
    }
  }, [])

  useEffect(() => {
    void refresh()
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [refresh])

  return (
    <main>
      <h1>Sessions</h1>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {sessions ? <SessionList sessions={sessions} /> : error ? null : <p className="muted">Loading…</p>}
      <NewSessionForm onStarted={(id) => navigate(href.session(id))} />
    </main>
  )
}
