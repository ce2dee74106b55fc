// A call Claude Code's auto mode denied (a `denied` decision): what it was and why, "Allow a retry"
// (the hub lets that very call through once, hub/terminals/retry-grants.ts) or "Leave it denied".
import { useImperativeHandle } from 'react'
import { deniedText } from '../../../src/core/tool-call-text.ts'
import type { DecisionProps } from './decision-handle.ts'
import { inputOf, toolOf } from './decision-text.ts'

export function DeniedDecision({ decision, busy, send, ref }: DecisionProps) {
  const allow = () => send({ behavior: 'allow' })
  const leave = () => send({ behavior: 'deny', message: 'Left denied' })
  useImperativeHandle(ref, () => ({ approve: allow, deny: leave }))
  const { denied_reason, project } = decision.request
  return (
    <>
      <p className="denied-call">
        {deniedText({ tool_name: toolOf(decision), input: inputOf(decision) ?? {}, denied_reason, project })}
      </p>
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={allow}>
          Allow a retry
        </button>
        <button type="button" className="danger" disabled={busy} onClick={leave}>
          Leave it denied
        </button>
      </div>
    </>
  )
}
