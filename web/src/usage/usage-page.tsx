// `#/usage`: what driven sessions cost today (UTC) by project (GET /api/usage?by=project), as a
// chart of horizontal bars (an SVG described for screen readers, scaled to the page's width: a
// phone's 390 px or a desktop's) and the same numbers as a table. Reloaded every half minute.
import { formatUsd } from '../../../src/core/money.ts'
import { call } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { BAR_HEIGHT, barsOf, CHART_WIDTH } from './bars.ts'
import './usage.css'

const POLL_MS = 30_000
/** Room on the right of the longest bar for its value. */
const VALUE_ROOM = 130

/** Today in UTC, as the API's since takes a date: the day budgets count. */
const todayUtc = () => new Date().toISOString().slice(0, 10)

export function UsagePage() {
  const { data, error } = usePoll(
    () => call('usage', { query: { by: 'project', since: todayUtc() } }),
    POLL_MS,
  )
  const totals = data?.totals ?? []
  const { bars, height } = barsOf(totals)
  const total = totals.reduce((sum, t) => sum + t.costUsd, 0)
  return (
    <main>
      <h1>Usage</h1>
      <ErrorLine error={error} />
      <p>
        Today ({todayUtc()}, UTC), from what each session’s CLI reported: {formatUsd(total)} in all.
      </p>
      {data && !totals.length ? <p>No usage today yet.</p> : null}
      {totals.length ? (
        <svg
          className="usage-chart"
          role="img"
          aria-labelledby="usage-chart-title"
          viewBox={`0 0 ${CHART_WIDTH + VALUE_ROOM} ${height}`}
        >
          <title id="usage-chart-title">
            {`Today’s cost by project: ${bars.map((b) => `${b.label} ${b.value}`).join(', ')}`}
          </title>
          {bars.map((b) => (
            <g key={b.label} transform={`translate(0 ${b.y})`}>
              <text x={0} y={16} className="usage-label">
                {b.label}
              </text>
              <rect x={0} y={22} width={b.width} height={BAR_HEIGHT} rx={3} className="usage-bar" />
              <text x={b.width + 6} y={22 + BAR_HEIGHT - 4} className="usage-value">
                {b.value}
              </text>
            </g>
          ))}
        </svg>
      ) : null}
      {totals.length ? (
        <table className="sessions">
          <caption className="visually-hidden">Today’s cost by project</caption>
          <thead>
            <tr>
              <th>Project</th>
              <th>Cost</th>
              <th>Turns</th>
              <th>Tokens in</th>
              <th>Tokens out</th>
            </tr>
          </thead>
          <tbody>
            {totals.map((t) => (
              <tr key={t.key ?? ''} aria-label={`Project ${t.key ?? 'none'}`}>
                <td data-label="Project">{t.key ?? 'no project'}</td>
                <td data-label="Cost">
                  {formatUsd(t.costUsd)}
                  {t.unpricedTurns ? ` + ${t.unpricedTurns} unpriced` : ''}
                </td>
                <td data-label="Turns">{t.turns}</td>
                <td data-label="Tokens in">{t.inputTokens.toLocaleString('en-US')}</td>
                <td data-label="Tokens out">{t.outputTokens.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </main>
  )
}
