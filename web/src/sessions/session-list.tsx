// The sessions as a table, each named by its title or its project and first prompt (and its agent,
// when that is not Claude Code), its id beneath;
// on a narrow screen each row becomes a card (see styles.css).
import type { SessionView } from '../../../src/core/api/rows.ts'
import { sessionName } from '../../../src/core/session-name.ts'
import { href } from '../lib/router.ts'
import { ago, fullTime } from '../lib/time.ts'
import { AgentBadge } from '../ui/agent-badge.tsx'
import { FolderPath } from '../ui/folder-path.tsx'
import { StatusBadge } from '../ui/status-badge.tsx'

export function SessionList({ sessions, filtered = false }: { sessions: SessionView[]; filtered?: boolean }) {
  if (sessions.length === 0)
    return (
      <p className="muted">
        {filtered ? 'No driven sessions match the filter.' : 'No sessions yet. Start one below.'}
      </p>
    )
  return (
    <table className="sessions" aria-label="Driven sessions">
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">Folder</th>
          <th scope="col">Status</th>
          <th scope="col">Live</th>
          <th scope="col">Pending inputs</th>
          <th scope="col">Last update</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((s) => (
          <tr key={s.id}>
            <td data-label="Session" className="session-name">
              <div>
                <a href={href.session(s.id)}>{sessionName(s)}</a> <AgentBadge agent={s.agent} />
                <span className="mono muted session-id">{s.id}</span>
              </div>
            </td>
            <td data-label="Folder" className="folder">
              {s.cwd ? <FolderPath path={s.cwd} /> : '—'}
            </td>
            <td data-label="Status">
              <StatusBadge status={s.status} />
            </td>
            <td data-label="Live">{s.live ? 'yes' : 'no'}</td>
            <td data-label="Pending inputs">{s.pendingInputs.length}</td>
            <td data-label="Last update" title={fullTime(s.updatedAt)}>
              {ago(s.updatedAt)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
