// `#/hub`: how the hub is doing (GET /api/health): its version, since when it runs, who is connected,
// live sessions, open decisions, and each chat bridge's state with its last error.
import { useCallback } from 'react'
import { api } from './api.ts'
import { ago, fullTime } from './time.ts'
import { usePoll } from './usePoll.ts'

const POLL_MS = 10_000

const BRIDGE_CLASS: Record<string, string> = {
  connected: 'status-idle',
  starting: 'status-running',
  reconnecting: 'status-interrupted',
  stopped: 'status-interrupted',
  error: 'status-error',
}

export function HubPage() {
  const health = usePoll(
    useCallback(() => api.health(), []),
    POLL_MS,
  )
  const h = health.data
  return (
    <main>
      <h1>Hub</h1>
      {health.error ? (
        <p className="error" role="alert">
          {health.error}
        </p>
      ) : null}
      {h === null ? (
        health.error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <>
          <dl className="facts hub-facts card">
            <div>
              <dt>Version</dt>
              <dd className="mono">{h.version}</dd>
            </div>
            <div>
              <dt>Up since</dt>
              <dd>
                <time dateTime={new Date(h.startedAt).toISOString()}>{fullTime(h.startedAt)}</time>
                <span className="muted"> ({ago(h.startedAt)})</span>
              </dd>
            </div>
            <div>
              <dt>Connected</dt>
              <dd>
                {h.connected} subscriber{h.connected === 1 ? '' : 's'}
              </dd>
            </div>
            <div>
              <dt>Live sessions</dt>
              <dd>{h.liveSessions}</dd>
            </div>
            <div>
              <dt>Open decisions</dt>
              <dd>{h.openDecisions}</dd>
            </div>
          </dl>
          <section aria-labelledby="bridges-heading">
            <h2 id="bridges-heading">Bridges</h2>
            {h.bridges.length === 0 ? (
              <p className="muted">No chat bridges are set up.</p>
            ) : (
              <ul className="plain" aria-label="Bridges">
                {h.bridges.map((b) => (
                  <li key={b.platform} className="card bridge">
                    <div className="bridge-head">
                      <h3>{b.platform}</h3>
                      <span className={`badge ${BRIDGE_CLASS[b.state] ?? ''}`}>{b.state}</span>
                    </div>
                    {b.lastError ? (
                      <p className="error">
                        <span className="muted">Last error: </span>
                        {b.lastError}
                      </p>
                    ) : (
                      <p className="muted">No error.</p>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  )
}
