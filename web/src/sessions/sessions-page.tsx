// `#/`: the sessions the hub drives (refreshed every few seconds) and the form to start one, the
// channel sessions (subscribers) with their backlog, the sessions at terminals their hooks told of, and the history of Claude Code sessions on this
// machine, each resumable or forkable. One "Filter" narrows all three lists.
import { useCallback, useId, useState } from 'react'
import { AGENT_LABELS } from '../../../src/core/agents.ts'
import type { SessionView } from '../../../src/core/api/rows.ts'
import { call } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { href, navigate } from '../lib/router.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { ChannelList } from './channel-list.tsx'
import { matchesFilter } from './filter.ts'
import { HistoryList, type Resuming, rowKey } from './history-list.tsx'
import { NewSessionForm } from './new-session-form.tsx'
import { SessionList } from './session-list.tsx'
import { TerminalList } from './terminal-list.tsx'

const POLL_MS = 5_000
/** Reading the history means reading Claude Code's files: less often. */
const HISTORY_POLL_MS = 30_000

const bySessionUpdate = (a: SessionView, b: SessionView) => b.updatedAt - a.updatedAt

export function SessionsPage() {
  const [filter, setFilter] = useState('')
  const [resuming, setResuming] = useState<Resuming>(null)
  const filterId = useId()
  const sessions = usePoll(
    useCallback(async () => [...(await call('sessions')).sessions].sort(bySessionUpdate), []),
    POLL_MS,
  )
  const channels = usePoll(
    useCallback(async () => (await call('channels')).channels, []),
    POLL_MS,
  )
  const terminals = usePoll(
    useCallback(async () => (await call('terminalSessions')).sessions, []),
    POLL_MS,
  )
  const history = usePoll(
    useCallback(async () => (await call('history')).sessions, []),
    HISTORY_POLL_MS,
  )
  const open = (id: string) => navigate(href.session(id))
  const filtered = filter.trim() !== ''

  const driven = sessions.data?.filter((s) => matchesFilter(filter, [s.id, s.cwd, AGENT_LABELS[s.agent]]))
  const subscribers = channels.data?.filter((c) => matchesFilter(filter, [c.name, ...c.topics]))
  const atTerminals = terminals.data?.filter((t) =>
    matchesFilter(filter, [t.sessionId, t.folder, t.name, t.branch ?? '']),
  )
  const past = history.data?.filter((h) => matchesFilter(filter, [h.id, h.claudeSessionId, h.cwd, h.summary]))
  // A form whose row the filter (or a refresh) took away is not open.
  const resumingShown = resuming && past?.some((h) => rowKey(h) === resuming.key) ? resuming : null

  return (
    <main>
      <h1>Sessions</h1>
      <div className="filter">
        <label htmlFor={filterId}>Filter</label>
        <input
          id={filterId}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="folder, summary or id"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
        />
      </div>

      <section aria-labelledby="driven-heading">
        <h2 id="driven-heading">Driven sessions</h2>
        <ErrorLine error={sessions.error} />
        {driven ? (
          <SessionList sessions={driven} filtered={filtered} />
        ) : sessions.error ? null : (
          <p className="muted">Loading…</p>
        )}
      </section>
      {/* One form at a time: while a history session is being resumed, its form is the one. */}
      {resumingShown ? null : <NewSessionForm onStarted={open} />}

      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading">Channel sessions</h2>
        <ErrorLine error={channels.error} />
        {subscribers ? (
          <ChannelList channels={subscribers} filtered={filtered} />
        ) : channels.error ? null : (
          <p className="muted">Loading…</p>
        )}
      </section>

      <section aria-labelledby="terminals-heading">
        <h2 id="terminals-heading">Terminal sessions</h2>
        <ErrorLine error={terminals.error} />
        {atTerminals ? (
          <TerminalList sessions={atTerminals} filtered={filtered} />
        ) : terminals.error ? null : (
          <p className="muted">Loading…</p>
        )}
      </section>

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <ErrorLine error={history.error} />
        {past ? (
          <HistoryList
            rows={past}
            filtered={filtered}
            resuming={resumingShown}
            setResuming={setResuming}
            onStarted={open}
          />
        ) : history.error ? null : (
          <p className="muted">Loading…</p>
        )}
      </section>
    </main>
  )
}
