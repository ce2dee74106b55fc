// `#/routines`: the hub's routines (GET /api/routines) — each one's trigger, whether it is paused and
// how many runs are open — and each one's runs (GET /api/routines/:name/runs): trigger, key, session,
// state, cost, outcome. Pause, Resume and Fire on a routine, Replay on an ended run, by route name.
// Loaded when the page shows, every few seconds, and after each button.
import { useState } from 'react'
import { formatUsd } from '../../../src/core/money.ts'
import { OPEN_RUN_STATES, type RoutineRun, type RoutineView } from '../../../src/core/routines.ts'
import { call, errorText } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { href } from '../lib/router.ts'
import { ago, fullTime } from '../lib/time.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { StatusBadge } from '../ui/status-badge.tsx'

const POLL_MS = 5_000
const RUNS_SHOWN = 20

interface RoutineWithRuns {
  routine: RoutineView
  runs: RoutineRun[]
}

function triggerText(spec: RoutineView['spec']): string {
  const trigger = spec.trigger
  if (trigger.kind === 'events') return `events on ${trigger.topics.join(', ')}`
  if (trigger.kind === 'schedule') return `schedule ${trigger.cron} (${trigger.timeZone})`
  return 'by hand'
}

const isOpen = (run: RoutineRun) => OPEN_RUN_STATES.includes(run.state)

function RunRows({
  runs,
  busy,
  onReplay,
}: {
  runs: RoutineRun[]
  busy: boolean
  onReplay: (run: string) => void
}) {
  return (
    <table className="sessions runs">
      <thead>
        <tr>
          <th>Started</th>
          <th>Trigger</th>
          <th>Key</th>
          <th>Session</th>
          <th>State</th>
          <th>Cost</th>
          <th>Outcome</th>
          <th>
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id} aria-label={`Run ${run.id}`}>
            <td data-label="Started">
              <time dateTime={new Date(run.createdAt).toISOString()} title={fullTime(run.createdAt)}>
                {ago(run.createdAt)}
              </time>
            </td>
            <td data-label="Trigger">{run.trigger}</td>
            <td data-label="Key" className="mono run-text run-key">
              {run.key || '—'}
            </td>
            <td data-label="Session">
              {run.sessionId?.startsWith('ses_') ? (
                <a className="mono" href={href.session(run.sessionId)}>
                  {run.sessionId}
                </a>
              ) : (
                <span className="mono">{run.sessionId ?? '—'}</span>
              )}
            </td>
            <td data-label="State">
              <StatusBadge status={run.state} />
            </td>
            <td data-label="Cost">{formatUsd(run.costUsd)}</td>
            <td data-label="Outcome" className="run-text run-outcome">
              {run.reason ?? ''}
            </td>
            <td data-label="">
              {isOpen(run) ? null : (
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Replay run ${run.id}`}
                  onClick={() => onReplay(run.id)}
                >
                  Replay
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function RoutineCard({
  item,
  busy,
  act,
}: {
  item: RoutineWithRuns
  busy: boolean
  act: (what: string, action: () => Promise<unknown>) => void
}) {
  const { routine, runs } = item
  const name = routine.name
  const params = { name }
  const headingId = `routine-${name}`
  const open = runs.filter(isOpen).length
  return (
    <li>
      <article className="card routine" aria-labelledby={headingId}>
        <header className="rule-head">
          <h2 id={headingId} className="tool-name">
            {name}
          </h2>
          {routine.paused ? <span className="badge status-paused">paused</span> : null}
        </header>
        <dl className="facts rule-facts">
          <div>
            <dt>Trigger</dt>
            <dd>{triggerText(routine.spec)}</dd>
          </div>
          <div>
            <dt>Action</dt>
            <dd>
              {routine.spec.action.kind === 'start'
                ? 'starts a session'
                : `delivers to ${routine.spec.action.session}`}
            </dd>
          </div>
          <div>
            <dt>Open runs</dt>
            <dd>{open}</dd>
          </div>
        </dl>
        <div className="row">
          {routine.paused ? (
            <button
              type="button"
              disabled={busy}
              aria-label={`Resume ${name}`}
              onClick={() => act('resume', () => call('resumeRoutine', { params }))}
            >
              Resume
            </button>
          ) : (
            <button
              type="button"
              disabled={busy}
              aria-label={`Pause ${name}`}
              onClick={() => act('pause', () => call('pauseRoutine', { params }))}
            >
              Pause
            </button>
          )}
          <button
            type="button"
            disabled={busy}
            aria-label={`Fire ${name}`}
            onClick={() => act('fire', () => call('fireRoutine', { params, body: { event: {} } }))}
          >
            Fire
          </button>
        </div>
        {runs.length === 0 ? (
          <p className="muted">No runs yet.</p>
        ) : (
          <RunRows
            runs={runs}
            busy={busy}
            onReplay={(run) => act('replay', () => call('replayRun', { params: { name, run } }))}
          />
        )}
      </article>
    </li>
  )
}

export function RoutinesPage() {
  const polled = usePoll(async (): Promise<RoutineWithRuns[]> => {
    const { routines } = await call('routines')
    return Promise.all(
      routines.map(async (routine) => ({
        routine,
        runs: (await call('routineRuns', { params: { name: routine.name }, query: { limit: RUNS_SHOWN } }))
          .runs,
      })),
    )
  }, POLL_MS)
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set())
  const [actError, setActError] = useState<string | null>(null)
  const error = actError ?? polled.error
  const items = polled.data

  const act = (name: string) => async (what: string, action: () => Promise<unknown>) => {
    if (busy.has(name)) return
    setBusy((s) => new Set(s).add(name))
    setActError(null)
    try {
      await action()
    } catch (err) {
      setActError(`Could not ${what} ${name}: ${errorText(err)}`)
    }
    await polled.refresh()
    setBusy((s) => {
      const next = new Set(s)
      next.delete(name)
      return next
    })
  }

  return (
    <main>
      <h1>Routines</h1>
      <p className="muted">
        Events and schedules that start or steer sessions. Add one with{' '}
        <span className="mono">switchboard routine add</span>.
      </p>
      <ErrorLine error={error} />
      {items === null ? (
        error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : items.length === 0 ? (
        <p role="status">No routines.</p>
      ) : (
        <ul className="rules" aria-label="Routines">
          {items.map((item) => (
            <RoutineCard
              key={item.routine.name}
              item={item}
              busy={busy.has(item.routine.name)}
              act={(what, action) => void act(item.routine.name)(what, action)}
            />
          ))}
        </ul>
      )}
    </main>
  )
}
