// Push notifications with the page closed (Access page): this browser turned on or off, a test push,
// and every browser that gets them (GET /api/push/subscriptions), each revocable.
import { useCallback, useState } from 'react'
import type { PushSubscriptionRow } from '../../../src/core/api/rows.ts'
import { call, errorText, storedKey } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { ago, fullTime } from '../lib/time.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { pushSupported, revokePush, turnOnPush } from './push.ts'

const POLL_MS = 10_000

function SubscriptionItem({ row, revoke }: { row: PushSubscriptionRow; revoke: () => void }) {
  return (
    <li>
      <article className="card sender" aria-label={`Push to ${row.sender}`}>
        <header className="sender-head">
          <h3 className="mono">{row.sender}</h3>
          {row.current ? <span className="badge">this browser</span> : null}
        </header>
        <dl className="facts">
          {row.displayName ? (
            <div>
              <dt>Browser</dt>
              <dd>{row.displayName}</dd>
            </div>
          ) : null}
          <div>
            <dt>Push service</dt>
            <dd className="mono">{row.service}</dd>
          </div>
          <div>
            <dt>Since</dt>
            <dd title={fullTime(row.createdAt)}>{ago(row.createdAt)}</dd>
          </div>
        </dl>
        <div className="row sender-actions">
          <button type="button" className="danger" onClick={revoke}>
            Revoke
          </button>
        </div>
      </article>
    </li>
  )
}

export function PushControl() {
  const subscriptions = usePoll(
    useCallback(async () => (await call('pushSubscriptions')).subscriptions, []),
    POLL_MS,
  )
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const list = subscriptions.data ?? []
  const mine = list.some((s) => s.current)

  const act = async (what: () => Promise<string>) => {
    setBusy(true)
    setProblem(null)
    setNote(null)
    try {
      setNote(await what())
    } catch (err) {
      setProblem(errorText(err))
    }
    // Pressable again with the outcome's line, in the same render: not after the list's refresh,
    // which a slow hub would make the person (and the phone test) wait for.
    setBusy(false)
    await subscriptions.refresh()
  }

  return (
    <section aria-labelledby="push-heading">
      <h2 id="push-heading">Push notifications</h2>
      <p className="muted">
        Prompts (with Allow and Deny where the phone shows them) and finished turns, also with this page
        closed. On a phone, add the dashboard to the home screen first.
      </p>
      {pushSupported() ? (
        <div className="row">
          <button
            type="button"
            className={mine ? undefined : 'primary'}
            disabled={busy}
            onClick={() =>
              void act(async () => {
                await turnOnPush(storedKey())
                return 'This browser gets push notifications.'
              })
            }
          >
            {mine ? 'Renew push on this browser' : 'Turn on push for this browser'}
          </button>
          {mine ? (
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void act(async () => {
                  const { sent } = await call('pushTest')
                  return sent ? 'Sent: it shows in a moment.' : 'The push service did not take it.'
                })
              }
            >
              Send a test
            </button>
          ) : null}
        </div>
      ) : (
        <p className="muted">
          This browser cannot get push here: it needs the dashboard over https (or on this machine).
        </p>
      )}
      {note ? (
        <p className="muted" role="status">
          {note}
        </p>
      ) : null}
      <ErrorLine error={subscriptions.error} />
      <ErrorLine error={problem} />
      {list.length === 0 ? (
        <p className="muted">No browser gets push yet.</p>
      ) : (
        <ul className="plain" aria-label="Push subscriptions">
          {list.map((row) => (
            <SubscriptionItem
              key={row.id}
              row={row}
              revoke={() =>
                void act(async () => {
                  await revokePush(row)
                  return `${row.sender} gets no more push notifications.`
                })
              }
            />
          ))}
        </ul>
      )}
    </section>
  )
}
