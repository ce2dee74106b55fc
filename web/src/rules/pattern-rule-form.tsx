// A rule by pattern: the tool, prefix or glob, the pattern, allow or deny, where and for how long;
// Preview lists which of the latest answered prompts it would have matched (POST /api/rules/preview),
// and Save (POST /api/rules/patterns) is offered only for the rule as previewed, so nobody saves a
// pattern without having seen what it covers.
import { useId, useState } from 'react'
import type { DecisionRow, NewPatternRule } from '../../../src/core/api/rows.ts'
import { call, errorText } from '../api/client.ts'
import { ruleInputOf, toolOf } from '../decisions/decision-text.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { DurationOptions, minutesOf } from './duration-options.tsx'
import { callText, type RuleScope, SCOPE_CHOICES, SCOPE_VALUE_LABEL } from './rule-text.ts'

export interface PatternStart {
  toolName: string
  match: 'prefix' | 'glob'
  pattern: string
  scope: RuleScope
  scopeValue: string
}

const BLANK: PatternStart = {
  toolName: 'Bash',
  match: 'prefix',
  pattern: '',
  scope: 'everywhere',
  scopeValue: '',
}

export function PatternRuleForm({ start = BLANK, onSaved }: { start?: PatternStart; onSaved?: () => void }) {
  const [fields, setFields] = useState({ ...start, effect: 'allow' as 'allow' | 'deny', duration: '' })
  const [previewed, setPreviewed] = useState<{ key: string; matched: DecisionRow[]; read: number } | null>(
    null,
  )
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const ids = {
    tool: useId(),
    match: useId(),
    pattern: useId(),
    effect: useId(),
    scope: useId(),
    value: useId(),
    duration: useId(),
  }

  const rule: NewPatternRule = {
    toolName: fields.toolName,
    match: fields.match,
    pattern: fields.pattern,
    effect: fields.effect,
    scope: fields.scope,
    scopeValue: fields.scope === 'everywhere' ? null : fields.scopeValue || null,
    expiresInMinutes: minutesOf(fields.duration),
  }
  const key = JSON.stringify(rule)
  const current = previewed?.key === key ? previewed : null
  const set = (patch: Partial<typeof fields>) => {
    setFields((f) => ({ ...f, ...patch }))
    setSaved(null)
  }

  const run = async (what: () => Promise<void>) => {
    if (busy) return
    setBusy(true)
    setError(null)
    try {
      await what()
    } catch (err) {
      setError(errorText(err))
    }
    setBusy(false)
  }
  const preview = () =>
    run(async () => {
      const answer = await call('previewRule', { body: rule })
      setPreviewed({ key, matched: answer.matched, read: answer.read })
    })
  const save = () =>
    run(async () => {
      const { rule: made } = await call('makePatternRule', { body: rule })
      setSaved(`Rule ${made.id} saved.`)
      setPreviewed(null)
      onSaved?.()
    })

  return (
    <fieldset className="pattern-rule">
      <legend>A rule by pattern</legend>
      <div className="always-fields pattern-fields">
        <div>
          <label htmlFor={ids.tool}>Tool</label>
          <input
            id={ids.tool}
            className="pattern-input"
            value={fields.toolName}
            onChange={(e) => set({ toolName: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor={ids.match}>Match</label>
          <select
            id={ids.match}
            value={fields.match}
            onChange={(e) => set({ match: e.target.value as PatternStart['match'] })}
          >
            <option value="prefix">command starts with</option>
            <option value="glob">glob (* is anything)</option>
          </select>
        </div>
        <div>
          <label htmlFor={ids.pattern}>Pattern</label>
          <input
            id={ids.pattern}
            className="mono pattern-input"
            value={fields.pattern}
            onChange={(e) => set({ pattern: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor={ids.effect}>Then</label>
          <select
            id={ids.effect}
            value={fields.effect}
            onChange={(e) => set({ effect: e.target.value as 'allow' | 'deny' })}
          >
            <option value="allow">allow</option>
            <option value="deny">deny</option>
          </select>
        </div>
        <div>
          <label htmlFor={ids.scope}>Where</label>
          <select
            id={ids.scope}
            value={fields.scope}
            onChange={(e) => set({ scope: e.target.value as RuleScope })}
          >
            {[...SCOPE_CHOICES].reverse().map((c) => (
              <option key={c.value} value={c.value}>
                {c.value === 'everywhere'
                  ? c.label
                  : c.value === 'folder'
                    ? 'a project’s folder'
                    : 'one session'}
              </option>
            ))}
          </select>
        </div>
        {fields.scope === 'everywhere' ? null : (
          <div>
            <label htmlFor={ids.value}>{SCOPE_VALUE_LABEL[fields.scope]}</label>
            <input
              id={ids.value}
              className="mono pattern-input"
              value={fields.scopeValue}
              placeholder={fields.scope === 'operator' ? 'you' : undefined}
              onChange={(e) => set({ scopeValue: e.target.value })}
            />
          </div>
        )}
        <div>
          <label htmlFor={ids.duration}>For how long</label>
          <select
            id={ids.duration}
            value={fields.duration}
            onChange={(e) => set({ duration: e.target.value })}
          >
            <DurationOptions />
          </select>
        </div>
      </div>
      <p className="muted hint">
        An allow rule never covers a command joined to another by ; &amp;&amp; || | or $( ) unless its own
        pattern has them. Deny rules are checked first.
      </p>
      <ErrorLine error={error} />
      {current ? (
        <section aria-label="Preview">
          <p role="status">
            Would have matched {current.matched.length} of the last {current.read} answered prompts.
          </p>
          <ul className="preview-list">
            {current.matched.map((d) => (
              <li key={d.id} className="mono">
                {callText(toolOf(d), ruleInputOf(d))}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {saved ? (
        <p className="closing-line" role="status">
          {saved}
        </p>
      ) : null}
      <div className="row">
        <button type="button" disabled={busy} onClick={() => void preview()}>
          Preview
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || current === null}
          title={current === null ? 'Preview the rule as it is first' : undefined}
          onClick={() => void save()}
        >
          Save rule
        </button>
      </div>
    </fieldset>
  )
}
