// Resume or fork a Claude Code session from the history: a prompt (and a folder, when the history
// does not say which), then POST /api/history/:claudeSessionId/resume; the hub answers with the new
// driven session, whose page opens.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { ListedSession } from '../../../src/core/api/rows.ts'
import { call, errorText } from '../api/client.ts'
import { ErrorLine } from '../ui/error-line.tsx'

export function ResumeForm({
  id,
  row,
  claudeSessionId,
  fork,
  onStarted,
}: {
  /** The form's id, for the buttons' aria-controls. */
  id: string
  row: ListedSession
  claudeSessionId: string
  fork: boolean
  onStarted: (sessionId: string) => void
}) {
  const [cwd, setCwd] = useState(row.cwd ?? '')
  const [prompt, setPrompt] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const promptId = useId()
  const cwdId = useId()
  const promptRef = useRef<HTMLTextAreaElement>(null)
  const cwdRef = useRef<HTMLInputElement>(null)
  const askFolder = row.cwd === null

  // Opening the form is asking to type: bring it into view with the cursor in it.
  useEffect(() => {
    ;(askFolder ? cwdRef : promptRef).current?.focus()
  }, [askFolder])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (busy) return
    setBusy(true)
    setError(null)
    try {
      const { id: started } = await call('createSession', {
        body: { prompt, options: { cwd: cwd.trim(), resume: claudeSessionId, forkSession: fork } },
      })
      onStarted(started)
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }

  const what = fork ? 'Fork' : 'Resume'
  return (
    <form id={id} className="resume-form" onSubmit={submit} noValidate aria-label={`${what} session`}>
      <p className="muted hint">
        {fork
          ? 'A new session starts from a copy of this conversation; the original stays as it is.'
          : 'The hub drives this conversation from here on, starting with your prompt.'}
      </p>
      {askFolder ? (
        <>
          <label htmlFor={cwdId}>Folder</label>
          <input
            id={cwdId}
            ref={cwdRef}
            value={cwd}
            onChange={(e) => setCwd(e.target.value)}
            placeholder="/home/me/project"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
          />
        </>
      ) : null}
      <label htmlFor={promptId}>Prompt</label>
      <textarea
        id={promptId}
        ref={promptRef}
        rows={3}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        placeholder="What should Claude do next?"
      />
      <ErrorLine error={error} />
      <button type="submit" className="primary resume-submit" disabled={busy}>
        {busy ? 'Starting…' : 'Start'}
      </button>
    </form>
  )
}
