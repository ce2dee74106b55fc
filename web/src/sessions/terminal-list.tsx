// Sessions at terminals (Claude Code with Switchboard's hooks, no channel needed): where each runs, on
// which branch and model, whether it runs the channel too, and when it was last heard from. Their
// dialogs come to the inbox like any other; a message to one waits for its next prompt or tool call.
import type { TerminalSessionRow } from '../../../src/core/api/rows.ts'
import { ago } from '../lib/time.ts'
import { FolderPath } from '../ui/folder-path.tsx'

export function TerminalList({ sessions, filtered }: { sessions: TerminalSessionRow[]; filtered: boolean }) {
  if (sessions.length === 0)
    return (
      <p className="muted">
        {filtered
          ? 'No terminal sessions match the filter.'
          : 'No terminal sessions (switchboard install claude --hooks brings them here).'}
      </p>
    )
  return (
    <table className="sessions terminals" aria-label="Terminal sessions">
      <thead>
        <tr>
          <th scope="col">Folder</th>
          <th scope="col">Status</th>
          <th scope="col">Branch</th>
          <th scope="col">Model</th>
          <th scope="col">Channel</th>
          <th scope="col">Heard</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((s) => (
          <tr key={s.sessionId}>
            <td data-label="Folder" className="folder" title={s.sessionId}>
              <FolderPath path={s.folder} />
            </td>
            <td data-label="Status">
              <span className={`badge ${s.status === 'running' ? 'status-idle' : 'status-interrupted'}`}>
                {s.status === 'running' ? 'running' : `ended${s.endReason ? ` (${s.endReason})` : ''}`}
              </span>
            </td>
            <td data-label="Branch" className="mono">
              {s.branch ?? '—'}
            </td>
            <td data-label="Model">{s.model ?? '—'}</td>
            <td data-label="Channel">{s.channel ? 'yes' : 'no'}</td>
            <td data-label="Heard">{ago(s.lastSeenAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
