// "New session": the agent that runs it, a folder and a prompt (and, folded away, a model and a
// permission mode). The agents offered are the ones the hub says it drives (GET /api/agents), so a
// hub that drives one more offers it with no change here. The hub checks the fields
// (createSessionSchema) and says what is wrong, an option the agent cannot honour among them.
import { type FormEvent, useEffect, useState } from 'react'
import { AGENT_LABELS, type DrivenAgent, speakerOf } from '../../../src/core/agents.ts'
import type { NewSession } from '../../../src/core/api/rows.ts'
import { call, errorText, PERMISSION_MODES } from '../api/client.ts'
import { ErrorLine } from '../ui/error-line.tsx'

/** The agents the hub drives; null until it has said (the form starts Claude Code's meanwhile). */
function useAgents(): DrivenAgent[] | null {
  const [agents, setAgents] = useState<DrivenAgent[] | null>(null)
  useEffect(() => {
    let gone = false
    call('agents').then(
      (answer) => {
        if (!gone) setAgents(answer.agents)
      },
      () => {},
    )
    return () => {
      gone = true
    }
  }, [])
  return agents
}

export function NewSessionForm({ onStarted }: { onStarted: (id: string) => void }) {
  const agents = useAgents()
  const [agent, setAgent] = useState<DrivenAgent | null>(null)
  const chosen = agent ?? agents?.[0] ?? null
  const [cwd, setCwd] = useState('')
  const [prompt, setPrompt] = useState('')
  const [model, setModel] = useState('')
  const [mode, setMode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const body: NewSession = {
      ...(chosen ? { agent: chosen } : {}),
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
      {agents && agents.length > 1 ? (
        <>
          <label htmlFor="new-agent">Agent</label>
          <select
            id="new-agent"
            value={chosen ?? ''}
            onChange={(e) => setAgent(e.target.value as DrivenAgent)}
          >
            {agents.map((a) => (
              <option key={a} value={a}>
                {AGENT_LABELS[a]}
              </option>
            ))}
          </select>
        </>
      ) : null}
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
        placeholder={`What should ${speakerOf(chosen)} do?`}
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
