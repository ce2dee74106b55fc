// `#/hub`: how the hub is doing (GET /api/health): its version, since when it runs, who is connected,
// live sessions, open decisions, and each chat bridge's state with its last error. Then what flows
// through it: the webhook sources (each linking to its events), the outbound webhooks with their
// delivery logs, and the peers.
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import type { OutboundLogRow, OutboundWebhookInfo, PeerInfo, SourceRow } from '../../../src/core/api/rows.ts'
import { call, errorText } from '../api/client.ts'
import { type Polled, usePoll } from '../api/use-poll.ts'
import { href } from '../lib/router.ts'
import { ago, fullTime } from '../lib/time.ts'
import { ErrorLine } from '../ui/error-line.tsx'

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
    useCallback(() => call('status'), []),
    POLL_MS,
  )
  const h = health.data
  return (
    <main>
      <h1>Hub</h1>
      <ErrorLine error={health.error} />
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
                {h.connected.length} subscriber{h.connected.length === 1 ? '' : 's'}
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
      <SourcesSection />
      <OutboundSection />
      <PeersSection />
    </main>
  )
}

function When({ at }: { at: number }) {
  return (
    <time dateTime={new Date(at).toISOString()} title={fullTime(at)}>
      {ago(at)}
    </time>
  )
}

/** A section's list once loaded: its error, "Loading…", the empty text, or the items. */
function Listed<T>({
  polled,
  rows,
  empty,
  label,
  children,
}: {
  polled: Polled<unknown>
  rows: T[] | null
  empty: string
  label: string
  children: (row: T) => ReactNode
}) {
  return (
    <>
      <ErrorLine error={polled.error} />
      {rows === null ? (
        polled.error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="plain" aria-label={label}>
          {rows.map(children)}
        </ul>
      )}
    </>
  )
}

function SourcesSection() {
  const sources = usePoll(
    useCallback(() => call('sources'), []),
    POLL_MS,
  )
  return (
    <section aria-labelledby="sources-heading">
      <h2 id="sources-heading">Webhook sources</h2>
      <p className="muted section-note">
        Each takes webhooks at /hooks/&lt;name&gt;; its name opens its events.
      </p>
      <Listed
        polled={sources}
        rows={sources.data?.sources ?? null}
        empty="No webhook sources. Add one with: switchboard source add <name>"
        label="Webhook sources"
      >
        {(s: SourceRow) => (
          <li key={s.name} className="card hub-item">
            <h3>
              <a className="mono item-link" href={href.events({ source: s.name })}>
                {s.name}
              </a>
            </h3>
            <dl className="facts item-facts">
              <div>
                <dt>Topic</dt>
                <dd className="mono">{s.topic}</dd>
              </div>
              <div>
                <dt>Preset</dt>
                <dd>{s.preset}</dd>
              </div>
              <div>
                <dt>Last event</dt>
                <dd>
                  {s.lastEventAt === null ? (
                    <span className="muted">none kept</span>
                  ) : (
                    <When at={s.lastEventAt} />
                  )}
                </dd>
              </div>
            </dl>
          </li>
        )}
      </Listed>
    </section>
  )
}

function OutboundSection() {
  const outbound = usePoll(
    useCallback(() => call('subscriptions'), []),
    POLL_MS,
  )
  return (
    <section aria-labelledby="outbound-heading">
      <h2 id="outbound-heading">Outbound webhooks</h2>
      <Listed
        polled={outbound}
        rows={outbound.data?.webhooks ?? null}
        empty="No outbound webhooks. Add one with: switchboard subscribe --url <url>"
        label="Outbound webhooks"
      >
        {(w: OutboundWebhookInfo) => <OutboundItem key={w.name} webhook={w} />}
      </Listed>
    </section>
  )
}

const LOG_POLL_MS = 10_000

function OutboundItem({ webhook }: { webhook: OutboundWebhookInfo }) {
  const headingId = useId()
  const logId = useId()
  const [open, setOpen] = useState(false)
  const [log, setLog] = useState<OutboundLogRow[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const alive = useRef(true)

  const load = useCallback(async () => {
    try {
      const { log } = await call('subscriptionLog', { params: { name: webhook.name } })
      if (!alive.current) return
      setLog(log)
      setError(null)
    } catch (err) {
      if (alive.current) setError(errorText(err))
    }
  }, [webhook.name])

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  // While the log is open it is loaded now and every few seconds the tab is visible.
  useEffect(() => {
    if (!open) return
    void load()
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load()
    }, LOG_POLL_MS)
    return () => clearInterval(timer)
  }, [open, load])

  return (
    <li className="card hub-item">
      <h3 id={headingId} className="mono">
        {webhook.name}
      </h3>
      <dl className="facts item-facts">
        <div>
          <dt>URL</dt>
          <dd className="mono">{webhook.url}</dd>
        </div>
        <div>
          <dt>Topics</dt>
          <dd>
            {webhook.topics.length === 0 ? (
              <span className="muted">all</span>
            ) : (
              <span className="mono">{webhook.topics.join(', ')}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Pending</dt>
          <dd>{webhook.pending}</dd>
        </div>
      </dl>
      <button
        type="button"
        className="delivery-toggle"
        aria-expanded={open}
        aria-controls={logId}
        aria-describedby={headingId}
        onClick={() => setOpen((o) => !o)}
      >
        Delivery log
      </button>
      <div id={logId} className="delivery-log" hidden={!open}>
        {open ? (
          <>
            <ErrorLine error={error} />
            {log === null ? (
              error ? null : (
                <p className="muted">Loading…</p>
              )
            ) : log.length === 0 ? (
              <p className="muted">No deliveries yet.</p>
            ) : (
              <ol className="plain log-list" aria-labelledby={headingId}>
                {log.map((row) => (
                  <LogItem key={`${row.eventId}:${row.attempt}:${row.at}`} row={row} />
                ))}
              </ol>
            )}
          </>
        ) : null}
      </div>
    </li>
  )
}

function LogItem({ row }: { row: OutboundLogRow }) {
  const ok = row.status !== null && row.status >= 200 && row.status < 300
  return (
    <li className="log-row">
      <time dateTime={new Date(row.at).toISOString()}>{fullTime(row.at)}</time>
      <span>
        <span className="muted">{row.kind === 'receipt' ? 'receipt of ' : 'event '}</span>
        <span className="mono">{row.eventId}</span>
      </span>
      <span>
        <span className="muted">attempt </span>
        {row.attempt}
      </span>
      {row.status !== null ? (
        <span className={`badge ${ok ? 'status-idle' : 'status-error'}`}>
          <span className="visually-hidden">status </span>
          {row.status}
        </span>
      ) : null}
      {row.error ? <span className="error log-error">{row.error}</span> : null}
    </li>
  )
}

function PeersSection() {
  const peers = usePoll(
    useCallback(() => call('peers'), []),
    POLL_MS,
  )
  return (
    <section aria-labelledby="peers-heading">
      <h2 id="peers-heading">Peers</h2>
      <Listed polled={peers} rows={peers.data?.peers ?? null} empty="No peers are known yet." label="Peers">
        {(p: PeerInfo) => (
          <li key={p.name} className="card hub-item">
            <div className="bridge-head">
              <h3 className="mono">{p.name}</h3>
              <span className={`badge ${p.live ? 'status-idle' : 'muted'}`}>
                {p.live ? 'live' : 'offline'}
              </span>
            </div>
            <dl className="facts item-facts">
              <div>
                <dt>Aliases</dt>
                <dd>
                  {p.aliases.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <span className="mono">{p.aliases.join(', ')}</span>
                  )}
                </dd>
              </div>
              <div>
                <dt>Rooms</dt>
                <dd>
                  {p.rooms.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <span className="mono">{p.rooms.join(', ')}</span>
                  )}
                </dd>
              </div>
              <div>
                <dt>Pending</dt>
                <dd>{p.pending}</dd>
              </div>
            </dl>
          </li>
        )}
      </Listed>
    </section>
  )
}
