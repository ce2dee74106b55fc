// `#/rules`: the rules (GET /api/rules) — what each allows or denies, where, until when, who made it
// and how many prompts it answered — each with Revoke (DELETE /api/rules/:id), and the form for a
// new rule by pattern, previewed before it is saved. Loaded when the page is shown, when the tab
// comes back into view, every few seconds, and after a revoke or a save.
import { useState } from 'react'
import type { RuleRow } from '../../../src/core/api/rows.ts'
import { ApiError, call, errorText } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { href } from '../lib/router.ts'
import { ago, fullTime } from '../lib/time.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { PatternRuleForm } from './pattern-rule-form.tsx'
import { expiryText, SCOPE_NAME, usesText, whatText } from './rule-text.ts'

const POLL_MS = 10_000

function Where({ rule }: { rule: RuleRow }) {
  if (rule.scope === 'everywhere' || rule.scopeValue === null) return <>{SCOPE_NAME[rule.scope]}</>
  return (
    <>
      {SCOPE_NAME[rule.scope]}{' '}
      {rule.scope === 'session' && rule.scopeValue.startsWith('ses_') ? (
        <a className="mono scope-link" href={href.session(rule.scopeValue)}>
          {rule.scopeValue}
        </a>
      ) : (
        <span className="mono">{rule.scopeValue}</span>
      )}
    </>
  )
}

function RuleCard({ rule, revoking, onRevoke }: { rule: RuleRow; revoking: boolean; onRevoke: () => void }) {
  const headingId = `rule-${rule.id}`
  const expired = rule.expiresAt !== null && rule.expiresAt <= Date.now()
  return (
    <li>
      <article className={`card rule${expired ? ' expired' : ''}`} aria-labelledby={headingId}>
        <header className="rule-head">
          <h2 id={headingId} className="tool-name">
            {rule.toolName}
          </h2>
          <span className="muted mono">{rule.id}</span>
        </header>
        {whatText(rule) === null ? (
          <pre className="code">{JSON.stringify(rule.input, null, 2)}</pre>
        ) : (
          <p className={`rule-what ${rule.effect}`}>{whatText(rule)}</p>
        )}
        <dl className="facts rule-facts">
          <div>
            <dt>Where</dt>
            <dd>
              <Where rule={rule} />
            </dd>
          </div>
          <div>
            <dt>Expires</dt>
            <dd>{expiryText(rule.expiresAt)}</dd>
          </div>
          <div>
            <dt>Made</dt>
            <dd>
              by {rule.createdBy},{' '}
              <time dateTime={new Date(rule.createdAt).toISOString()} title={fullTime(rule.createdAt)}>
                {ago(rule.createdAt)}
              </time>
            </dd>
          </div>
          <div>
            <dt>Answered</dt>
            <dd>{usesText(rule.uses)}</dd>
          </div>
        </dl>
        <div className="row">
          <button
            type="button"
            className="danger revoke"
            disabled={revoking}
            aria-label={`Revoke rule ${rule.id}`}
            onClick={onRevoke}
          >
            Revoke
          </button>
        </div>
      </article>
    </li>
  )
}

export function RulesPage() {
  const [revoking, setRevoking] = useState<ReadonlySet<string>>(new Set())
  const polled = usePoll(async () => (await call('rules')).rules, POLL_MS)
  const rules = polled.data
  const refresh = polled.refresh
  /** A revoke that failed, said until the next one; otherwise the load's own error. */
  const [revokeError, setRevokeError] = useState<string | null>(null)
  const error = revokeError ?? polled.error

  const revoke = async (id: string) => {
    if (revoking.has(id)) return
    setRevoking((s) => new Set(s).add(id))
    let problem: string | null = null
    setRevokeError(null)
    try {
      await call('revokeRule', { params: { id: id } })
    } catch (err) {
      // Already gone (revoked elsewhere) is what was wanted; the refresh drops it.
      if (!(err instanceof ApiError && err.status === 404)) problem = `Could not revoke: ${errorText(err)}`
    }
    await refresh()
    if (problem) setRevokeError(problem)
    setRevoking((s) => {
      const next = new Set(s)
      next.delete(id)
      return next
    })
  }

  return (
    <main>
      <h1>Rules</h1>
      <p className="muted">
        Tool calls the hub answers without asking: the same tool with exactly this input ("Always allow" on a
        prompt), or a command or path by pattern, allowed or denied, where and until when it says.
      </p>
      <PatternRuleForm onSaved={() => void refresh()} />
      <ErrorLine error={error} />
      {rules === null ? (
        error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : rules.length === 0 ? (
        <p role="status">No rules. Use "Always allow" on a prompt in the Inbox, or the form above.</p>
      ) : (
        <ul className="rules" aria-label="Rules">
          {rules.map((rule) => (
            <RuleCard
              key={rule.id}
              rule={rule}
              revoking={revoking.has(rule.id)}
              onRevoke={() => void revoke(rule.id)}
            />
          ))}
        </ul>
      )}
    </main>
  )
}
