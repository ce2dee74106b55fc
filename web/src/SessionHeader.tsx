// The top of a session's page: its id, status, folder, and what waits in the Inbox.
import type { SessionView } from '../../src/core/api/rows.ts'
import { href } from './router.ts'
import { StatusBadge } from './StatusBadge.tsx'
import { ago, fullTime } from './time.ts'

export function SessionHeader({ id, session }: { id: string; session: SessionView | null }) {
  return (
    <header className="session-header">
      <h1>
        <span className="mono">{id}</span> {session ? <StatusBadge status={session.status} /> : null}
      </h1>
      {session ? (
        <p className="meta">
          <span className="mono">{session.cwd ?? '(no folder)'}</span>
          <span>{session.live ? 'live' : 'not running'}</span>
          <span title={fullTime(session.updatedAt)}>updated {ago(session.updatedAt)}</span>
          {session.pendingInputs.length > 0 ? (
            <a href={href.inbox()}>{session.pendingInputs.length} waiting for your answer</a>
          ) : null}
        </p>
      ) : null}
      {session?.reason ? <p className="muted">{session.reason}</p> : null}
    </header>
  )
}
