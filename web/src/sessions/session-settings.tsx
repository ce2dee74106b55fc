// A live session's model and permission mode, each applied as soon as it is chosen
// (POST /api/sessions/:id/model, /permission-mode). "keep current" sends nothing: the page does not
// know what the session runs with until it is changed here.
import { useId, useState } from 'react'
import { call, errorText, PERMISSION_MODES, type PermissionMode } from '../api/client.ts'
import { ErrorLine } from '../ui/error-line.tsx'

const MODELS = ['sonnet', 'opus', 'haiku'] as const

export function SessionSettings({ sessionId }: { sessionId: string }) {
  const [model, setModel] = useState('')
  const [mode, setMode] = useState('')
  const [busy, setBusy] = useState<'model' | 'mode' | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const modelId = useId()
  const modeId = useId()

  const apply = async (
    which: 'model' | 'mode',
    value: string,
    set: (v: string) => void,
    previous: string,
    call: () => Promise<unknown>,
    done: string,
  ) => {
    set(value)
    setError(null)
    setNote(null)
    if (value === '') return
    setBusy(which)
    try {
      await call()
      setNote(done)
    } catch (err) {
      set(previous)
      setError(`Could not change the ${which === 'model' ? 'model' : 'permission mode'}: ${errorText(err)}`)
    } finally {
      setBusy(null)
    }
  }

  return (
    <section className="session-settings" aria-label="Session settings">
      <div className="settings-fields">
        <div>
          <label htmlFor={modelId}>Model</label>
          <select
            id={modelId}
            value={model}
            disabled={busy !== null}
            onChange={(e) =>
              void apply(
                'model',
                e.target.value,
                setModel,
                model,
                () => call('setModel', { params: { id: sessionId }, body: { model: e.target.value } }),
                `Model set to ${e.target.value}.`,
              )
            }
          >
            <option value="">keep current</option>
            {MODELS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={modeId}>Permission mode</label>
          <select
            id={modeId}
            value={mode}
            disabled={busy !== null}
            onChange={(e) =>
              void apply(
                'mode',
                e.target.value,
                setMode,
                mode,
                () =>
                  call('setPermissionMode', {
                    params: { id: sessionId },
                    body: { mode: e.target.value as PermissionMode },
                  }),
                `Permission mode set to ${e.target.value}.`,
              )
            }
          >
            <option value="">keep current</option>
            {PERMISSION_MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorLine error={error} />
      <p className="muted settings-note" role="status">
        {busy ? 'Applying…' : note}
      </p>
    </section>
  )
}
