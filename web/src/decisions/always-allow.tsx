// "Always allow" on a permission prompt: where (this session, this folder, everywhere) and for how
// long, then POST /api/rules. The hub makes the rule and approves the prompt, whose card then closes
// from the decisions stream like any answered one.
import { useId, useState } from 'react'
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import { readableCall } from '../../../src/core/readable-call.ts'
import { ApiError, call, errorText } from '../api/client.ts'
import { DurationOptions, minutesOf } from '../rules/duration-options.tsx'
import { PatternRuleForm, type PatternStart } from '../rules/pattern-rule-form.tsx'
import { DURATION_CHOICES, type RuleScope, SCOPE_CHOICES } from '../rules/rule-text.ts'
import { ruleInputOf, toolOf } from './decision-text.ts'

export type RuleState = 'idle' | 'making' | 'made'

/** Making a rule from one decision; errors go to the card's error line. */
export function useMakeRule(decision: DecisionRow, setError: (message: string | null) => void) {
  const [state, setState] = useState<RuleState>('idle')

  const make = async (scope: RuleScope, expiresInMinutes: number | null) => {
    if (state !== 'idle') return
    setState('making')
    setError(null)
    try {
      await call('makeRule', { body: { decision: decision.id, scope, expiresInMinutes } })
      setState('made')
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 409
          ? `Someone else answered first: ${err.message}`
          : `Could not always allow: ${errorText(err)}`,
      )
      setState('idle')
    }
  }

  return { state, make }
}

export function AlwaysAllow({
  id,
  decision,
  state,
  busy,
  blocked,
  make,
}: {
  /** The panel's id, for the toggle's aria-controls. */
  id: string
  decision: DecisionRow
  state: RuleState
  /** An answer is being sent. */
  busy: boolean
  /** Why a rule cannot be made right now (shown instead of submitting), or null. */
  blocked: string | null
  make: (scope: RuleScope, expiresInMinutes: number | null) => void
}) {
  const [scope, setScope] = useState<RuleScope>('session')
  const [duration, setDuration] = useState(String(DURATION_CHOICES[0]?.minutes ?? ''))
  const scopeId = useId()
  const durationId = useId()
  const hintId = useId()
  // A folder is known only for a session the hub drives.
  const hasFolder = decision.owner.startsWith('ses_')

  return (
    <fieldset id={id} className="always-allow" aria-describedby={hintId}>
      <legend>Always allow this exact call</legend>
      <div className="always-fields">
        <div>
          <label htmlFor={scopeId}>Allow for</label>
          <select
            id={scopeId}
            value={scope}
            disabled={state !== 'idle'}
            onChange={(e) => setScope(e.target.value as RuleScope)}
          >
            {SCOPE_CHOICES.map((c) => (
              <option key={c.value} value={c.value} disabled={c.value === 'folder' && !hasFolder}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={durationId}>For how long</label>
          <select
            id={durationId}
            value={duration}
            disabled={state !== 'idle'}
            onChange={(e) => setDuration(e.target.value)}
          >
            <DurationOptions />
          </select>
        </div>
      </div>
      <p id={hintId} className="muted hint">
        {blocked ?? 'Approves this prompt, and from now on the same tool with exactly this input, unasked.'}
      </p>
      {state === 'made' ? (
        <p className="closing-line" role="status">
          Rule made; the prompt is approved.
        </p>
      ) : null}
      <button
        type="button"
        className="primary always-submit"
        disabled={busy || state !== 'idle' || blocked !== null}
        onClick={() => make(scope, minutesOf(duration))}
      >
        Always allow
      </button>
      {/* Saving a pattern rule answers no prompt: this one is still approved or denied above. */}
      {patternStart(decision) ? <PatternRuleForm start={patternStart(decision) ?? undefined} /> : null}
    </fieldset>
  )
}

/** A pattern rule's form filled from the prompt: its command as a prefix, or its path as a glob. */
function patternStart(decision: DecisionRow): PatternStart | null {
  const input = ruleInputOf(decision)
  const tool = toolOf(decision)
  const call = input ? readableCall(tool, input) : null
  if (!call) return null
  const session = decision.owner.startsWith('ses_')
  return {
    toolName: tool,
    match: call.kind === 'shell' ? 'prefix' : 'glob',
    pattern: call.kind === 'shell' ? call.command : call.path,
    scope: session ? 'session' : 'everywhere',
    scopeValue: session ? decision.owner : '',
  }
}
