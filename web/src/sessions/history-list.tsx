// Claude Code's sessions on this machine and the hub's, newest first: what each was about, its
// folder, when it was last active and whether the hub drives it. One the hub does not manage can be
// resumed or forked (resume-form.tsx); one it manages links to its page. Long lists show a page at a
// time.
import { useId, useState } from 'react'
import type { ListedSession } from '../../../src/core/api/rows.ts'
import { href } from '../lib/router.ts'
import { ago, fullTime } from '../lib/time.ts'
import { AgentBadge } from '../ui/agent-badge.tsx'
import { FolderPath } from '../ui/folder-path.tsx'
import { ResumeForm } from './resume-form.tsx'

const PAGE = 25

/** Which row's form is open, and whether it forks. */
export type Resuming = { key: string; fork: boolean } | null

export function rowKey(row: ListedSession): string {
  return `${row.managed ? 'hub' : 'disk'}:${row.id}`
}

function HistoryItem({
  row,
  resuming,
  setResuming,
  onStarted,
}: {
  row: ListedSession
  resuming: Resuming
  setResuming: (r: Resuming) => void
  onStarted: (sessionId: string) => void
}) {
  const headingId = useId()
  const formId = useId()
  const key = rowKey(row)
  const open = resuming?.key === key ? resuming : null
  const toggle = (fork: boolean) => setResuming(open && open.fork === fork ? null : { key, fork })
  const claudeId = row.claudeSessionId

  return (
    <li>
      <article className="card history" aria-labelledby={headingId}>
        <h3 id={headingId} className={row.summary ? 'summary' : 'summary muted'}>
          {row.summary?.trim() || '(no summary)'} <AgentBadge agent={row.agent} />
        </h3>
        <dl className="facts history-facts">
          <div>
            <dt>Folder</dt>
            <dd>{row.cwd ? <FolderPath path={row.cwd} /> : '—'}</dd>
          </div>
          <div>
            <dt>Active</dt>
            <dd>
              <time dateTime={new Date(row.lastActivity).toISOString()} title={fullTime(row.lastActivity)}>
                {ago(row.lastActivity)}
              </time>
            </dd>
          </div>
          <div>
            <dt>Hub</dt>
            <dd>
              {row.managed ? (
                <>
                  managed:{' '}
                  <a className="mono session-link" href={href.session(row.id)}>
                    {row.id}
                  </a>
                </>
              ) : (
                'not managed'
              )}
            </dd>
          </div>
          {!row.managed && claudeId ? (
            <div>
              <dt>Id</dt>
              <dd className="mono">{claudeId}</dd>
            </div>
          ) : null}
        </dl>
        {!row.managed && claudeId ? (
          <>
            <div className="row">
              <button
                type="button"
                aria-expanded={open?.fork === false}
                aria-controls={open && !open.fork ? formId : undefined}
                onClick={() => toggle(false)}
              >
                Resume
              </button>
              <button
                type="button"
                aria-expanded={open?.fork === true}
                aria-controls={open?.fork ? formId : undefined}
                onClick={() => toggle(true)}
              >
                Fork
              </button>
            </div>
            {open ? (
              <ResumeForm
                key={open.fork ? 'fork' : 'resume'}
                id={formId}
                row={row}
                claudeSessionId={claudeId}
                fork={open.fork}
                onStarted={onStarted}
              />
            ) : null}
          </>
        ) : null}
      </article>
    </li>
  )
}

export function HistoryList({
  rows,
  filtered,
  resuming,
  setResuming,
  onStarted,
}: {
  rows: ListedSession[]
  filtered: boolean
  resuming: Resuming
  setResuming: (r: Resuming) => void
  onStarted: (sessionId: string) => void
}) {
  const [limit, setLimit] = useState(PAGE)
  if (rows.length === 0)
    return (
      <p className="muted">
        {filtered ? 'No sessions in the history match the filter.' : 'No sessions in the history.'}
      </p>
    )
  // The open form's row stays shown even past the page.
  const shown = rows.filter((r, i) => i < limit || rowKey(r) === resuming?.key)
  const more = rows.length - Math.min(limit, rows.length)
  return (
    <>
      <ul className="history-list" aria-label="History">
        {shown.map((row) => (
          <HistoryItem
            key={rowKey(row)}
            row={row}
            resuming={resuming}
            setResuming={setResuming}
            onStarted={onStarted}
          />
        ))}
      </ul>
      {more > 0 ? (
        <button type="button" className="show-more" onClick={() => setLimit((n) => n + PAGE)}>
          Show {Math.min(PAGE, more)} more of {more}
        </button>
      ) : null}
    </>
  )
}
