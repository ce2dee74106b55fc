// Someone without a token asks to pair: who asked, the code they were shown, Approve or Deny.
import { useImperativeHandle } from 'react'
import type { DecisionProps } from './decision-handle.ts'
import { requestText } from './decision-text.ts'

export function PairingDecision({ decision, busy, send, ref }: DecisionProps) {
  const approve = () => send({ behavior: 'allow' })
  const deny = () => send({ behavior: 'deny', message: 'Denied' })
  useImperativeHandle(ref, () => ({ approve, deny }))
  const rows: [string, string | null][] = [
    ['Who', requestText(decision, 'address')],
    ['User', requestText(decision, 'user')],
    ['Browser', requestText(decision, 'userAgent')],
    ['Code', decision.code],
  ]

  return (
    <>
      <dl className="facts">
        {rows.map(([name, value]) =>
          value ? (
            <div key={name}>
              <dt>{name}</dt>
              <dd className={name === 'Code' ? 'mono' : undefined}>{value}</dd>
            </div>
          ) : null,
        )}
      </dl>
      <p className="muted">Approve only if the code matches the one shown on their screen.</p>
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={approve}>
          Approve
        </button>
        <button type="button" className="danger" disabled={busy} onClick={deny}>
          Deny
        </button>
      </div>
    </>
  )
}
