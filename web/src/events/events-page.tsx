// `#/events`: what flowed through the hub (GET /api/events), newest first, 50 at a time. Searched by
// text and narrowed to one source (a webhook source from GET /api/sources, or a chat platform, peer or
// other source seen in the results); "Older events" loads the next page before the last one shown.
// The search is in the address (`#/events?q=…&source=…`), so a source on the Hub page links here.
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react'
import type { EventRow } from '../../../src/core/api/rows.ts'
import { call, errorText } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { href, navigate } from '../lib/router.ts'
import { fullTime } from '../lib/time.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { DeliveryTicks } from './delivery-ticks.tsx'

/** Events a page of GET /api/events holds at most. */
const PAGE = 50
/** Characters of an event's content shown before "Show all". */
const CUT = 300
const SOURCES_POLL_MS = 30_000

interface Filter {
  q: string
  source: string
}

/** The content's first CUT characters (whole code points) and whether there is more. */
function cut(text: string): { head: string; more: boolean } {
  if (text.length <= CUT) return { head: text, more: false }
  const chars = Array.from(text)
  if (chars.length <= CUT) return { head: text, more: false }
  return { head: chars.slice(0, CUT).join(''), more: true }
}

function EventItem({ event }: { event: EventRow }) {
  const [open, setOpen] = useState(false)
  const { head, more } = cut(event.content)
  const meta = Object.entries(event.meta ?? {})
  const length = Array.from(event.content).length
  return (
    <li>
      <article className="card event">
        <header className="event-head">
          <time dateTime={new Date(event.createdAt).toISOString()}>{fullTime(event.createdAt)}</time>
          <span className="badge">
            <span className="visually-hidden">Source: </span>
            {event.source}
          </span>
          <span className="mono event-topic">
            <span className="visually-hidden">Topic: </span>
            {event.topic}
          </span>
          {event.sender ? (
            <span className="event-sender">
              <span className="muted">from </span>
              {event.sender}
            </span>
          ) : null}
        </header>
        {event.content === '' ? (
          <p className="muted event-content">(no content)</p>
        ) : more ? (
          <>
            {open ? null : <p className="event-content">{head}…</p>}
            <details className="event-more" onToggle={(e) => setOpen(e.currentTarget.open)}>
              <summary>{open ? 'Show less' : `Show all ${length} characters`}</summary>
              <p className="event-content">{event.content}</p>
            </details>
          </>
        ) : (
          <p className="event-content">{event.content}</p>
        )}
        {meta.length > 0 ? (
          <ul className="chips" aria-label="Meta">
            {meta.map(([key, value]) => (
              <li key={key} className="chip mono">
                {key}={value}
              </li>
            ))}
          </ul>
        ) : null}
        <DeliveryTicks deliveries={event.deliveries ?? []} />
      </article>
    </li>
  )
}

export function EventsPage({ q, source }: Filter) {
  const searchId = useId()
  const sourceId = useId()
  const [text, setText] = useState(q)
  const [from, setFrom] = useState(source)
  const [events, setEvents] = useState<EventRow[] | null>(null)
  const [more, setMore] = useState(false)
  const [loading, setLoading] = useState<'first' | 'older' | null>(null)
  const [error, setError] = useState<string | null>(null)
  /** Sources seen in results on this page (chat platforms, peers, …), kept across searches. */
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set())
  const sources = usePoll(
    useCallback(() => call('sources'), []),
    SOURCES_POLL_MS,
  )
  /** The search the list shows, for "Older events". */
  const shown = useRef<Filter>({ q, source })
  /** Counts loads so a slow answer to an older search cannot overwrite a newer one. */
  const generation = useRef(0)

  const load = useCallback(async (filter: Filter, before?: number) => {
    const mine = ++generation.current
    setLoading(before === undefined ? 'first' : 'older')
    setError(null)
    try {
      const { events: page } = await call('events', {
        query: {
          q: filter.q || undefined,
          source: filter.source || undefined,
          before,
        },
      })
      if (mine !== generation.current) return
      shown.current = filter
      setEvents((prev) => {
        if (before === undefined || !prev) return page
        const have = new Set(prev.map((e) => e.seq))
        return [...prev, ...page.filter((e) => !have.has(e.seq))]
      })
      setMore(page.length >= PAGE)
      setSeen((prev) => {
        const fresh = page.map((e) => e.source).filter((s) => s && !prev.has(s))
        return fresh.length === 0 ? prev : new Set([...prev, ...fresh])
      })
    } catch (err) {
      if (mine === generation.current) setError(errorText(err))
    } finally {
      if (mine === generation.current) setLoading(null)
    }
  }, [])

  // The address names the search: load it when the page opens and whenever it changes.
  useEffect(() => {
    setText(q)
    setFrom(source)
    void load({ q, source })
  }, [q, source, load])

  const search = (e: FormEvent) => {
    e.preventDefault()
    const wanted = { q: text.trim(), source: from }
    // The same search again (the address would not change): load it afresh.
    if (wanted.q === q && wanted.source === source) void load(wanted)
    else navigate(href.events(wanted))
  }

  const older = () => {
    const last = events?.[events.length - 1]
    if (last && loading === null) void load(shown.current, last.seq)
  }

  const known = (sources.data?.sources ?? []).map((s) => s.name)
  const extra = [...seen, ...(from ? [from] : [])].filter(
    (s, i, all) => !known.includes(s) && all.indexOf(s) === i,
  )
  extra.sort()
  const options = [...known, ...extra]

  const status =
    loading === 'first'
      ? 'Searching…'
      : loading === 'older'
        ? 'Loading older events…'
        : events === null
          ? ''
          : events.length === 0
            ? ''
            : `${events.length} event${events.length === 1 ? '' : 's'}, newest first${more ? '' : '; no older ones'}.`

  return (
    <main>
      <h1>Events</h1>
      <p className="muted">What came into the hub: webhooks, chat, peers and the rest, newest first.</p>
      <search>
        <form className="event-search" onSubmit={search}>
          <div className="event-search-text">
            <label className="event-label" htmlFor={searchId}>
              Search events
            </label>
            <input
              id={searchId}
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="Text in the content"
              autoComplete="off"
              enterKeyHint="search"
            />
          </div>
          <div className="event-search-source">
            <label className="event-label" htmlFor={sourceId}>
              Source
            </label>
            <select id={sourceId} value={from} onChange={(e) => setFrom(e.target.value)}>
              <option value="">All</option>
              {options.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="primary event-search-button">
            Search
          </button>
        </form>
      </search>
      {sources.error ? (
        <p className="muted event-note">Could not load the webhook sources: {sources.error}</p>
      ) : null}
      <ErrorLine error={error} />
      <p className="muted event-note" role="status">
        {status}
      </p>
      {events === null ? null : events.length === 0 ? (
        loading === 'first' ? null : (
          <p className="muted">No events match.</p>
        )
      ) : (
        <>
          <ul className="plain events" aria-label="Events">
            {events.map((e) => (
              <EventItem key={e.seq} event={e} />
            ))}
          </ul>
          {more ? (
            <button type="button" className="show-more" disabled={loading !== null} onClick={older}>
              Older events
            </button>
          ) : null}
        </>
      )}
    </main>
  )
}
