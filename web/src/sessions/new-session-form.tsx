// "New session": a folder and a prompt (and, folded away, a model and a permission mode). The hub
// checks the fields (newSessionSchema) and says what is wrong; the schema is not bundled here, as
// zod alone would add a third to the page's size.
import { type FormEvent, useState } from 'react'
import type { NewSession } from '../../../src/core/api/rows.ts'
import { call, errorText, PERMISSION_MODES } from '../api/client.ts'
import { ErrorLine } from '../ui/error-line.tsx'

export function NewSessionForm({ onStarted }: { onStarted: (id: string) => void }) {
  const [cwd, setCwd] = useState('')
  const [prompt, setPrompt] = useState('')
  const [model, setModel] = useState('')
  const [mode, setMode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const body: NewSession = {
      prompt,
      options: {
        cwd: cwd.trim(),
        ...(model.trim() ? { model: model.trim() } : {}),
        ...(mode ? { permissionMode: mode as NonNullable<NewSession['options']['permissionMode']> } : {}),
      },
    }
    setBusy(true)
    setError(null)
    try {
      const { id } = await call('createSession', { body })
      onStarted(id)
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }

  return (
    <form className="card new-session" onSubmit={submit} noValidate>
      <h2>New session</h2>
      <label htmlFor="new-cwd">Folder</label>
      <input
        id="new-cwd"
        value={cwd}
        onChange={(e) => setCwd(e.target.value)}
        placeholder="/home/me/project"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
      />
      <label htmlFor="new-prompt">Prompt</label>
      <textarea
        id="new-prompt"
        rows={3}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        placeholder="What should Claude do?"
      />
      <details>
        <summary>Options</summary>
        <label htmlFor="new-model">Model</label>
        <input
          id="new-model"
          value={model}
          onChange={(e) => setModel(e.target.value)}
          placeholder="the CLI's default"
          autoCapitalize="off"
          spellCheck={false}
        />
        <label htmlFor="new-mode">Permission mode</label>
        <select id="new-mode" value={mode} onChange={(e) => setMode(e.target.value)}>
          <option value="">the hub's default</option>
          {PERMISSION_MODES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </details>
      <ErrorLine error={error} />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Starting…' : 'Start session'}
      </button>
    </form>
  )
}
