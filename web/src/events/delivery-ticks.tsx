// Per subscriber, how far an event's delivery got (issue 23): a tick per stage, stored in the hub,
// written to the session, in Claude's context, each with its time on hover; queued and unconfirmed
// said in words, with why.
import type { ReceiptView } from '../../../src/core/receipts.ts'
import { fullTime } from '../lib/time.ts'

const STAGES = [
  ['stored', 'stored'],
  ['written', 'written'],
  ['in_context', 'in context'],
] as const

export function DeliveryTicks({ deliveries }: { deliveries: ReceiptView[] }) {
  if (deliveries.length === 0) return null
  return (
    <ul className="plain deliveries" aria-label="Deliveries">
      {deliveries.map((d) => (
        <li key={d.subscriber} className="delivery" data-state={d.state}>
          <span className="mono">{d.subscriber}</span>
          {STAGES.map(([key, label]) => {
            const at = d[key]
            return (
              <span
                key={key}
                className={at ? 'tick done' : 'tick'}
                title={at ? `${label} ${fullTime(Date.parse(at))}` : `not ${label} yet`}
              >
                {at ? '✓' : '·'} {label}
              </span>
            )
          })}
          {d.state === 'queued' ? <span className="muted">queued in the session</span> : null}
          {d.state === 'unconfirmed' ? (
            <span className="delivery-problem">
              unconfirmed after {d.tries} tries{d.reason ? `: ${d.reason}` : ''}
            </span>
          ) : d.tries > 1 ? (
            <span className="muted">{d.tries} tries</span>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
