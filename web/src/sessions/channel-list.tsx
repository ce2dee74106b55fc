// Channel sessions (subscribers): whether each is connected, how it is reached, what waits for it
// and the topics it follows. A table, cards on a narrow screen, like the driven sessions.
import type { ChannelRow } from '../../../src/core/api/rows.ts'

const RUNG_TEXT: Record<string, string> = {
  channel: 'channel (notifications)',
  message: 'message (a hook feeds it)',
}

export function ChannelList({ channels, filtered }: { channels: ChannelRow[]; filtered: boolean }) {
  if (channels.length === 0)
    return (
      <p className="muted">{filtered ? 'No channel sessions match the filter.' : 'No channel sessions.'}</p>
    )
  return (
    <table className="sessions channels" aria-label="Channel sessions">
      <thead>
        <tr>
          <th scope="col">Channel</th>
          <th scope="col">Connected</th>
          <th scope="col">Rung</th>
          <th scope="col">Pending</th>
          <th scope="col">Topics</th>
        </tr>
      </thead>
      <tbody>
        {channels.map((c) => (
          <tr key={c.name}>
            <td data-label="Channel" className="mono folder">
              {c.name}
            </td>
            <td data-label="Connected">
              <span className={`badge ${c.connected ? 'status-idle' : 'status-interrupted'}`}>
                {c.connected ? 'connected' : 'offline'}
              </span>
            </td>
            <td data-label="Rung">{c.rung ? (RUNG_TEXT[c.rung] ?? c.rung) : '—'}</td>
            <td data-label="Pending">{c.pending}</td>
            <td data-label="Topics" className="mono folder">
              {c.topics.length > 0 ? c.topics.join(', ') : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
