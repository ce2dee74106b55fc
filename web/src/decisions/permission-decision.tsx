// A permission request: the tool and its full input (a command as `$ …`, an edit as its diff; editable
// as JSON before approving), Approve and Deny, and — folded behind a toggle — "Always allow" (see
// always-allow.tsx).
import { useId, useImperativeHandle, useState } from 'react'
import { readableCall } from '../../../src/core/readable-call.ts'
import { ToolCall } from '../ui/tool-call.tsx'
import { AlwaysAllow, useMakeRule } from './always-allow.tsx'
import type { DecisionProps } from './decision-handle.ts'
import { inputOf, requestText, ruleInputOf } from './decision-text.ts'

/** What a shell call may hold besides its command and still be shown as `$ <command>` alone. */
const SHELL_SHOWN = new Set(['command', 'description', 'timeout'])

/**
 * The call as a person reads it, whichever agent's tool it is: `$ <command>`, an edit's diff, a file
 * written; any other tool's input whole, as JSON.
 */
function Readable({ tool, input, json }: { tool: string; input: Record<string, unknown>; json: string }) {
  const call = readableCall(tool, input)
  // A shell call with more than a command (run in the background, outside the sandbox, in another
  // folder) is shown whole.
  if (call?.kind === 'shell' && Object.keys(input).every((k) => SHELL_SHOWN.has(k)))
    return <pre className="code">$ {call.command}</pre>
  if (call?.kind === 'edit' || call?.kind === 'write') return <ToolCall name={tool} input={input} />
  return <pre className="code">{json}</pre>
}

export function PermissionDecision({
  decision,
  busy,
  send,
  setError,
  ref,
}: DecisionProps & { setError: (message: string | null) => void }) {
  const input = inputOf(decision)
  const original = input ? JSON.stringify(input, null, 2) : ''
  const preview = requestText(decision, 'input_preview')
  const description = requestText(decision, 'description')
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(original)
  const fieldId = useId()
  const allowId = useId()
  const [allowOpen, setAllowOpen] = useState(false)
  const rule = useMakeRule(decision, setError)
  // A rule needs the tool and the call's whole input; a relay's preview cut short has none.
  const canRule = requestText(decision, 'tool_name') !== null && ruleInputOf(decision) !== null
  const ruleBusy = rule.state !== 'idle'
  const edited = editing && text !== original

  const approve = () => {
    if (ruleBusy) return
    if (!editing || text === original) return send({ behavior: 'allow' })
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (err) {
      setError(`Input JSON is not valid JSON: ${err instanceof Error ? err.message : String(err)}`)
      return
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      setError('Input JSON must be a JSON object ({ … }).')
      return
    }
    send({ behavior: 'allow', updatedInput: parsed as Record<string, unknown> })
  }
  const deny = () => {
    if (!ruleBusy) send({ behavior: 'deny', message: 'Denied' })
  }
  useImperativeHandle(ref, () => ({ approve, deny }))

  return (
    <>
      <p className="tool-name">{requestText(decision, 'tool_name') ?? 'A tool'}</p>
      {description ? <p>{description}</p> : null}
      {input ? (
        editing ? (
          <>
            <label htmlFor={fieldId}>Input JSON</label>
            <textarea
              id={fieldId}
              className="code"
              rows={Math.min(20, Math.max(4, text.split('\n').length + 1))}
              value={text}
              spellCheck={false}
              onChange={(e) => {
                setText(e.target.value)
                setError(null)
              }}
            />
          </>
        ) : (
          <Readable tool={requestText(decision, 'tool_name') ?? ''} input={input} json={original} />
        )
      ) : (
        <pre className="code">{preview ?? '(no input)'}</pre>
      )}
      <div className="row">
        <button type="button" className="primary" disabled={busy || ruleBusy} onClick={approve}>
          Approve
        </button>
        <button type="button" className="danger" disabled={busy || ruleBusy} onClick={deny}>
          Deny
        </button>
        {input ? (
          <button
            type="button"
            aria-pressed={editing}
            onClick={() => {
              if (!editing) setText(original)
              setEditing(!editing)
              setError(null)
            }}
          >
            Edit input
          </button>
        ) : null}
        {canRule ? (
          <button
            type="button"
            aria-expanded={allowOpen}
            aria-controls={allowOpen ? allowId : undefined}
            onClick={() => setAllowOpen(!allowOpen)}
          >
            Always allow…
          </button>
        ) : null}
      </div>
      {canRule && allowOpen ? (
        <AlwaysAllow
          id={allowId}
          decision={decision}
          state={rule.state}
          busy={busy}
          blocked={
            edited
              ? 'A rule allows the input as asked, not an edited one: undo the edit (Edit input) to use it.'
              : null
          }
          make={(scope, minutes) => void rule.make(scope, minutes)}
        />
      ) : null}
    </>
  )
}
