// One session: its status, its model and permission mode (while it runs), its transcript streaming
// live, and a box to write to it.
import { useCallback, useEffect, useState } from 'react'
import type { SessionView } from '../../src/core/api/rows.ts'
import { ApiError, call, errorText } from './api.ts'
import { Composer } from './Composer.tsx'
import { ErrorLine } from './ErrorLine.tsx'
import { SessionHeader } from './SessionHeader.tsx'
import { SessionSettings } from './SessionSettings.tsx'
import { Transcript } from './Transcript.tsx'
import { useTranscript } from './useTranscript.ts'

const POLL_MS = 4_000

export function SessionPage({ id }: { id: string }) {
  const [session, setSession] = useState<SessionView | null>(null)
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(async () => {
    try {
      setSession(await call('session', { params: { id } }))
      setError(null)
    } catch (err) {
      setError(err instanceof ApiError && err.status === 404 ? `There is no session ${id}.` : errorText(err))
    }
  }, [id])

  useEffect(() => {
    setSession(null)
    void refresh()
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [refresh])

  const { entries, partial, state } = useTranscript(id, refresh)

  return (
    <main className="session-page">
      <SessionHeader id={id} session={session} />
      {session?.live ? <SessionSettings sessionId={id} /> : null}
      <ErrorLine error={error} />
      <Transcript key={id} entries={entries} partial={partial} state={state} />
      <Composer sessionId={id} canInterrupt={session === null || session.live} onSent={refresh} />
    </main>
  )
}
