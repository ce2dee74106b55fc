// `#/access`: who may reach Claude through the hub. Each sender (GET /api/access) with Allow or
// Block, whichever applies, and whether it is an operator (POST /api/access/:name); then the pairing
// requests waiting for an answer, approved or denied like any decision (POST /api/decisions/:id);
// then the browsers signed in to this dashboard, and those that get push notifications.
import { useCallback, useEffect, useId, useState } from 'react'
import type { DecisionRow, SenderRow } from '../../../src/core/api/rows.ts'
import { answerErrorText, call, errorText } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { requestText } from '../decisions/decision-text.ts'
import { ago, fullTime } from '../lib/time.ts'
import { PushControl } from '../notifications/push-control.tsx'
import { ErrorLine } from '../ui/error-line.tsx'
import { BrowserList } from './browser-list.tsx'

const POLL_MS = 5_000

const STATUS_TEXT: Record<SenderRow['status'], string> = {
  allowed: 'allowed',
  pending: 'pending',
  blocked: 'blocked',
}
const STATUS_CLASS: Record<SenderRow['status'], string> = {
  allowed: 'status-idle',
  pending: 'status-interrupted',
  blocked: 'status-error',
}

function When({ at }: { at: number }) {
  return (
    <time dateTime={new Date(at).toISOString()} title={fullTime(at)}>
      {ago(at)}
    </time>
  )
}

function SenderItem({
  sender,
  busy,
  change,
}: {
  sender: SenderRow
  busy: boolean
  change: (change: { status?: 'allowed' | 'blocked'; operator?: boolean }) => void
}) {
  const headingId = useId()
  // The box shows what was asked for until the hub's answer comes back.
  const [wanted, setWanted] = useState<boolean | null>(null)
  useEffect(() => {
    if (!busy) setWanted(null)
  }, [busy])
  return (
    <li>
      <article className="card sender" aria-labelledby={headingId}>
        <header className="sender-head">
          <h3 id={headingId} className="mono">
            {sender.name}
          </h3>
          <span className={`badge ${STATUS_CLASS[sender.status]}`}>{STATUS_TEXT[sender.status]}</span>
          {sender.operator ? <span className="badge">operator</span> : null}
        </header>
        <dl className="facts">
          {sender.displayName ? (
            <div>
              <dt>Name</dt>
              <dd>{sender.displayName}</dd>
            </div>
          ) : null}
          <div>
            <dt>Since</dt>
            <dd>
              <When at={sender.createdAt} />
            </dd>
          </div>
        </dl>
        <div className="row sender-actions">
          {sender.status !== 'allowed' ? (
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => change({ status: 'allowed' })}
            >
              Allow
            </button>
          ) : null}
          {sender.status !== 'blocked' ? (
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => change({ status: 'blocked' })}
            >
              Block
            </button>
          ) : null}
          <label className="check">
            <input
              type="checkbox"
              checked={wanted ?? sender.operator}
              disabled={busy}
              onChange={(e) => {
                setWanted(e.target.checked)
                change({ operator: e.target.checked })
              }}
            />
            Operator
          </label>
        </div>
      </article>
    </li>
  )
}

function PairingItem({
  pairing,
  busy,
  answer,
}: {
  pairing: DecisionRow
  busy: boolean
  answer: (allow: boolean) => void
}) {
  const headingId = useId()
  const who = requestText(pairing, 'address') ?? requestText(pairing, 'user') ?? 'someone'
  return (
    <li>
      <article className="card pairing" aria-labelledby={headingId}>
        <h3 id={headingId}>{who}</h3>
        <dl className="facts">
          <div>
            <dt>Code</dt>
            <dd className="mono">{pairing.code}</dd>
          </div>
          <div>
            <dt>Asked</dt>
            <dd>
              <When at={pairing.createdAt} />
            </dd>
          </div>
        </dl>
        <p className="muted">Approve only if the code matches the one shown on their screen.</p>
        <div className="row">
          <button type="button" className="primary" disabled={busy} onClick={() => answer(true)}>
            Approve
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => answer(false)}>
            Deny
          </button>
        </div>
      </article>
    </li>
  )
}

export function AccessPage() {
  const access = usePoll(
    useCallback(() => call('access'), []),
    POLL_MS,
  )
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set())
  const [problem, setProblem] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)

  /** Runs one change for a sender or pairing (one at a time each), then loads the lists again. */
  const run = async (key: string, action: () => Promise<string>, failed: (err: unknown) => string) => {
    if (busy.has(key)) return
    setBusy((s) => new Set(s).add(key))
    setProblem(null)
    setNote(null)
    try {
      setNote(await action())
    } catch (err) {
      setProblem(failed(err))
    }
    await access.refresh()
    setBusy((s) => {
      const next = new Set(s)
      next.delete(key)
      return next
    })
  }

  const changeSender = (sender: SenderRow, change: { status?: 'allowed' | 'blocked'; operator?: boolean }) =>
    void run(
      `sender:${sender.name}`,
      async () => {
        const { sender: changed } = await call('changeSender', {
          params: { name: sender.name },
          body: change,
        })
        return change.status
          ? `${changed.name} is ${changed.status}.`
          : `${changed.name} is ${changed.operator ? 'now' : 'no longer'} an operator.`
      },
      (err) => `Could not change ${sender.name}: ${errorText(err)}`,
    )

  const answerPairing = (pairing: DecisionRow, allow: boolean) =>
    void run(
      `pairing:${pairing.id}`,
      async () => {
        await call('answer', {
          params: { ref: pairing.id },
          body: allow ? { behavior: 'allow' } : { behavior: 'deny', message: 'Denied' },
        })
        return `Pairing ${pairing.code} ${allow ? 'approved' : 'denied'}.`
      },
      (err) => `Pairing ${pairing.code}: ${answerErrorText(err)}`,
    )

  const data = access.data
  return (
    <main>
      <h1>Access</h1>
      <p className="muted">
        Who may send to Claude through the hub, and who may answer its prompts (operators).
      </p>
      <ErrorLine error={access.error} />
      <ErrorLine error={problem} />
      <p className="muted" role="status">
        {note}
      </p>
      {data === null ? (
        access.error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <>
          <section aria-labelledby="pairings-heading">
            <h2 id="pairings-heading">Pairing requests</h2>
            {data.pairings.length === 0 ? (
              <p className="muted">No pairing requests wait.</p>
            ) : (
              <ul className="plain" aria-label="Pairing requests">
                {data.pairings.map((p) => (
                  <PairingItem
                    key={p.id}
                    pairing={p}
                    busy={busy.has(`pairing:${p.id}`)}
                    answer={(allow) => answerPairing(p, allow)}
                  />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="senders-heading">
            <h2 id="senders-heading">Senders</h2>
            {data.senders.length === 0 ? (
              <p className="muted">No senders yet.</p>
            ) : (
              <ul className="plain" aria-label="Senders">
                {data.senders.map((s) => (
                  <SenderItem
                    key={s.name}
                    sender={s}
                    busy={busy.has(`sender:${s.name}`)}
                    change={(change) => changeSender(s, change)}
                  />
                ))}
              </ul>
            )}
          </section>
          <BrowserList />
          <PushControl />
        </>
      )}
    </main>
  )
}
