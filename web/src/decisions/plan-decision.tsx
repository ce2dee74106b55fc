// Claude's plan (ExitPlanMode): the plan as written, "Approve plan", or "Send back" with a comment.
import { useId, useImperativeHandle, useState } from 'react'
import type { DecisionProps } from './decision-handle.ts'
import { inputOf } from './decision-text.ts'

const NO_COMMENT = 'The user sent the plan back: revise it.'

export function PlanDecision({ decision, busy, send, ref }: DecisionProps) {
  const plan = inputOf(decision)?.plan
  const [comment, setComment] = useState('')
  const commentId = useId()

  const approve = () => send({ behavior: 'allow' })
  const sendBack = () => send({ behavior: 'deny', message: comment.trim() || NO_COMMENT })
  useImperativeHandle(ref, () => ({ approve, deny: sendBack }))

  return (
    <>
      <pre className="plan">
        {typeof plan === 'string' ? plan : JSON.stringify(decision.request, null, 2)}
      </pre>
      <label htmlFor={commentId}>Comment</label>
      <textarea
        id={commentId}
        rows={2}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        placeholder="What to change (sent with Send back)"
      />
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={approve}>
          Approve plan
        </button>
        <button type="button" className="danger" disabled={busy} onClick={sendBack}>
          Send back
        </button>
      </div>
    </>
  )
}
