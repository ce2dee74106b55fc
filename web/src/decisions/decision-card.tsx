// One decision in the Inbox: kind, owner (and its agent, when not Claude Code), when; then the request by kind, or — once closed — who
// answered it, for a few seconds.
import type { Ref } from 'react'
import { namedWithAgent } from '../../../src/core/agents.ts'
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import { href } from '../lib/router.ts'
import { ago, fullTime } from '../lib/time.ts'
import { useSessionName } from '../sessions/session-names.ts'
import { AgentBadge } from '../ui/agent-badge.tsx'
import { ErrorLine } from '../ui/error-line.tsx'
import type { DecisionHandle } from './decision-handle.ts'
import { endText, KIND_LABEL, toolOf } from './decision-text.ts'
import { DeniedDecision } from './denied-decision.tsx'
import { PairingDecision } from './pairing-decision.tsx'
import { PermissionDecision } from './permission-decision.tsx'
import { PlanDecision } from './plan-decision.tsx'
import { QuestionDecision } from './question-decision.tsx'
import { useAnswer } from './use-answer.ts'
import type { InboxEntry } from './use-decisions.ts'
import { useSettled } from './use-settled.ts'

/** What the hub named the decision's session when it opened ("api · fix the flaky test"), if it did. */
function givenName(d: DecisionRow): string | null {
  return typeof d.request.session_name === 'string' ? d.request.session_name : null
}

/** The session a decision is about, by its name: a driven one links to its page. */
function Owner({ decision }: { decision: DecisionRow }) {
  const { owner } = decision
  const named = useSessionName(owner)
  const name = (named !== owner ? named : null) ?? givenName(decision) ?? owner
  return owner.startsWith('ses_') ? (
    <a className={name === owner ? 'mono' : undefined} href={href.session(owner)}>
      {name}
    </a>
  ) : (
    <span className={name === owner ? 'mono' : undefined} title={owner}>
      {name}
    </span>
  )
}

/** What happens to a prompt nobody answers, and when: "Denied at 14:05 unless answered". */
function EndLine({ decision }: { decision: DecisionRow }) {
  const text = endText(decision)
  return text && decision.expiresAt !== null ? (
    <p className="muted decision-end" title={fullTime(decision.expiresAt)}>
      {text}
    </p>
  ) : null
}

export function DecisionCard({
  entry,
  selected,
  onSelect,
  onAnswered,
  ref,
}: {
  entry: InboxEntry
  selected: boolean
  onSelect: () => void
  onAnswered: (d: DecisionRow) => void
  ref: Ref<DecisionHandle>
}) {
  const { decision: d, closing } = entry
  const { busy, error, setError, send } = useAnswer(d, onAnswered)
  const settled = useSettled()
  const body = {
    decision: d,
    busy: busy || !settled,
    send: (a: Parameters<typeof send>[0]) => {
      if (settled) void send(a)
    },
    ref,
  }

  return (
    <article
      className={`card decision${selected ? ' selected' : ''}${closing ? ' closing' : ''}`}
      aria-label={`${KIND_LABEL[d.kind]} from ${namedWithAgent(givenName(d) ?? d.owner, d.request.agent)}`}
      aria-current={selected ? 'true' : undefined}
      onFocus={onSelect}
      data-id={d.id}
    >
      <header className="decision-head">
        <span className="badge">{KIND_LABEL[d.kind]}</span>
        <Owner decision={d} />
        <AgentBadge agent={d.request.agent} />
        {closing ? <span className="tool-name">{toolOf(d)}</span> : null}
        <span className="muted" title={fullTime(d.createdAt)}>
          {ago(d.createdAt)}
        </span>
      </header>
      {closing ? null : <EndLine decision={d} />}
      {closing ? (
        <p className="closing-line" role="status">
          {closing}
        </p>
      ) : d.kind === 'permission' ? (
        <PermissionDecision {...body} setError={setError} />
      ) : d.kind === 'question' ? (
        <QuestionDecision {...body} />
      ) : d.kind === 'plan' ? (
        <PlanDecision {...body} />
      ) : d.kind === 'denied' ? (
        <DeniedDecision {...body} />
      ) : (
        <PairingDecision {...body} />
      )}
      <ErrorLine error={error} />
    </article>
  )
}
