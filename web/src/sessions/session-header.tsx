// The top of a session's page: its name (the title someone gave it, else its project and first
// prompt) and its agent when that is not Claude Code, with a way to rename it, its id, status and folder, and how many of its prompts wait below.
import { useId, useState } from 'react'
import type { SessionView } from '../../../src/core/api/rows.ts'
import { sessionName } from '../../../src/core/session-name.ts'
import { call, errorText } from '../api/client.ts'
import { ago, fullTime } from '../lib/time.ts'
import { AgentBadge } from '../ui/agent-badge.tsx'
import { ErrorLine } from '../ui/error-line.tsx'
import { FolderPath } from '../ui/folder-path.tsx'
import { StatusBadge } from '../ui/status-badge.tsx'

function Rename({ session, onRenamed }: { session: SessionView; onRenamed: (view: SessionView) => void }) {
  const [title, setTitle] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const fieldId = useId()
  if (title === null)
    return (
      <button type="button" className="link" onClick={() => setTitle(session.title ?? sessionName(session))}>
        Rename
      </button>
    )
  const save = async (value: string | null) => {
    setBusy(true)
    setError(null)
    try {
      onRenamed(await call('nameSession', { params: { id: session.id }, body: { title: value } }))
      setTitle(null)
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form
      className="rename"
      onSubmit={(e) => {
        e.preventDefault()
        void save(title)
      }}
    >
      <label htmlFor={fieldId}>Session title</label>
      <input
        id={fieldId}
        className="rename-field"
        value={title}
        maxLength={120}
        onChange={(e) => setTitle(e.target.value)}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Save
        </button>
        {session.title ? (
          <button type="button" disabled={busy} onClick={() => void save(null)}>
            Name by folder and prompt
          </button>
        ) : null}
        <button type="button" disabled={busy} onClick={() => setTitle(null)}>
          Cancel
        </button>
      </div>
      <ErrorLine error={error} />
    </form>
  )
}

export function SessionHeader({
  id,
  session,
  onRenamed,
}: {
  id: string
  session: SessionView | null
  onRenamed: (view: SessionView) => void
}) {
  return (
    <header className="session-header">
      <h1>
        <span>{session ? sessionName(session) : id}</span>{' '}
        {session ? <AgentBadge agent={session.agent} /> : null}{' '}
        {session ? <StatusBadge status={session.status} /> : null}
      </h1>
      {session ? (
        <>
          <p className="meta">
            <span className="mono">{session.id}</span>
            <Rename session={session} onRenamed={onRenamed} />
          </p>
          <p className="meta">
            {session.cwd ? <FolderPath path={session.cwd} /> : <span>(no folder)</span>}
            <span>{session.live ? 'live' : 'not running'}</span>
            <span title={fullTime(session.updatedAt)}>updated {ago(session.updatedAt)}</span>
            {session.pendingInputs.length > 0 ? (
              <strong>{session.pendingInputs.length} waiting for your answer, below</strong>
            ) : null}
          </p>
        </>
      ) : null}
      {session?.reason ? <p className="muted">{session.reason}</p> : null}
    </header>
  )
}
