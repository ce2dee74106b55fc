// One session: its name, status, model and permission mode (while it runs), its transcript streaming
// live, the prompts it waits on answered right here (no trip to the Inbox), the verdict of each once
// answered, and a box to write to it.
import { useCallback, useEffect, useState } from 'react'
import { speakerOf } from '../../../src/core/agents.ts'
import type { SessionView } from '../../../src/core/api/rows.ts'
import { ApiError, call, errorText } from '../api/client.ts'
import { DecisionCard } from '../decisions/decision-card.tsx'
import { toolOf } from '../decisions/decision-text.ts'
import type { Decisions } from '../decisions/use-decisions.ts'
import { Transcript } from '../transcript/transcript.tsx'
import { useTranscript } from '../transcript/use-transcript.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { Composer } from './composer.tsx'
import { SessionHeader } from './session-header.tsx'
import { SessionSettings } from './session-settings.tsx'

const POLL_MS = 4_000
/** Verdicts shown under the prompts, newest first. */
const VERDICTS_SHOWN = 5

interface Verdict {
  id: string
  text: string
}

/** The session's prompts, open ones as cards; each one closed is remembered with its verdict. */
function Waiting({ id, decisions }: { id: string; decisions: Decisions }) {
  const mine = decisions.entries.filter((e) => e.decision.owner === id)
  const [verdicts, setVerdicts] = useState<Verdict[]>([])
  useEffect(() => {
    const closed = decisions.entries.filter((e) => e.decision.owner === id && e.closing)
    if (!closed.length) return
    setVerdicts((had) => {
      const fresh = closed
        .filter((e) => !had.some((v) => v.id === e.decision.id))
        .map((e) => ({ id: e.decision.id, text: `${toolOf(e.decision)}: ${e.closing}` }))
      return fresh.length ? [...fresh, ...had].slice(0, VERDICTS_SHOWN) : had
    })
  }, [decisions.entries, id])
  const open = mine.filter((e) => !e.closing)
  if (!open.length && !verdicts.length) return null
  return (
    <section className="waiting" aria-label="Waiting for you">
      {open.map((entry) => (
        <DecisionCard
          key={entry.decision.id}
          entry={entry}
          selected={false}
          onSelect={() => {}}
          onAnswered={decisions.apply}
          ref={null}
        />
      ))}
      {verdicts.length ? (
        <ul className="plain verdicts" aria-label="Answered">
          {verdicts.map((v) => (
            <li key={v.id} role="status">
              {v.text}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

export function SessionPage({ id, decisions }: { id: string; decisions: Decisions }) {
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
  const speaker = speakerOf(session?.agent)

  return (
    <main className="session-page">
      <SessionHeader id={id} session={session} onRenamed={setSession} />
      {session?.live ? <SessionSettings sessionId={id} /> : null}
      <ErrorLine error={error} />
      <Transcript key={id} entries={entries} partial={partial} state={state} speaker={speaker} />
      <Waiting id={id} decisions={decisions} />
      <Composer
        sessionId={id}
        speaker={speaker}
        canInterrupt={session === null || session.live}
        onSent={refresh}
      />
    </main>
  )
}
