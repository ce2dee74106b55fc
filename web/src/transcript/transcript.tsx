// The transcript, windowed (useRowWindow): only the entries near the viewport are in the page, so the
// whole of a 10,000-line transcript scrolls without "show earlier" steps. Stays scrolled to the bottom
// while the reader is there, as lines come and as the text being written grows. (The price: the
// browser's find-in-page sees only the entries near the viewport, and a folded tool result scrolled far
// away folds again.)
import { memo, useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { TranscriptItemView } from './transcript-item-view.tsx'
import { useRowWindow } from './use-row-window.ts'
import type { StreamState, TranscriptEntry } from './use-transcript.ts'

const Row = memo(function Row({
  entry,
  speaker,
  measure,
}: {
  entry: TranscriptEntry
  speaker: string
  measure: (el: HTMLElement | null) => (() => void) | undefined
}) {
  return (
    <div className="entry" data-key={entry.key} ref={measure}>
      <TranscriptItemView item={entry.item} speaker={speaker} />
    </div>
  )
})

function atBottom(): boolean {
  const doc = document.documentElement
  return window.innerHeight + window.scrollY >= doc.scrollHeight - 120
}

export function Transcript({
  entries,
  partial,
  state,
  speaker,
}: {
  entries: TranscriptEntry[]
  partial: string | null
  state: StreamState
  /** Who the model's words are said to be by: "Claude", "Codex" (core/agents.ts speakerOf). */
  speaker: string
}) {
  const list = useRef<HTMLDivElement>(null)
  const keys = useMemo(() => entries.map((e) => e.key), [entries])
  const rows = useRowWindow(keys, list)
  const stick = useRef(true)
  const lastY = useRef(0)

  useEffect(() => {
    const onScroll = () => {
      const y = window.scrollY
      // Only the reader moving up lets go of the bottom; the page's own scrolls only ever go down,
      // and may land before the rows they revealed were measured.
      stick.current = atBottom() || (stick.current && y >= lastY.current)
      lastY.current = y
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when lines come, the text grows or rows are measured
  useLayoutEffect(() => {
    if (!stick.current) return
    window.scrollTo(0, document.documentElement.scrollHeight)
    lastY.current = window.scrollY
    rows.sync()
  }, [entries.length, partial, rows.total])

  return (
    <section className="transcript" aria-label="Transcript">
      {entries.length === 0 && partial === null ? (
        <p className="muted">{state === 'connecting' ? 'Loading the transcript…' : 'Nothing yet.'}</p>
      ) : null}
      <div className="rows" ref={list}>
        <div style={{ height: rows.before }} />
        {entries.slice(rows.start, rows.end).map((e) => (
          <Row key={e.key} entry={e} speaker={speaker} measure={rows.measure} />
        ))}
        <div style={{ height: rows.after }} />
      </div>
      {partial !== null ? (
        <div className="item assistant writing" aria-busy="true">
          <div className="who">{speaker} · writing…</div>
          <div className="text">{partial}</div>
        </div>
      ) : null}
      {state === 'reconnecting' ? (
        <p className="muted" role="status">
          Reconnecting…
        </p>
      ) : null}
    </section>
  )
}
