// The transcript, windowed: only the last lines are rendered, more on "Show earlier". Stays scrolled
// to the bottom while the reader is there.
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { TranscriptItemView } from './TranscriptItemView.tsx'
import type { StreamState, TranscriptEntry } from './useTranscript.ts'

const WINDOW = 500

function atBottom(): boolean {
  const doc = document.documentElement
  return window.innerHeight + window.scrollY >= doc.scrollHeight - 120
}

export function Transcript({ entries, state }: { entries: TranscriptEntry[]; state: StreamState }) {
  const [limit, setLimit] = useState(WINDOW)
  const stick = useRef(true)
  const heightBefore = useRef<number | null>(null)

  useEffect(() => {
    const onScroll = () => {
      stick.current = atBottom()
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when lines are added
  useLayoutEffect(() => {
    if (stick.current) window.scrollTo(0, document.documentElement.scrollHeight)
  }, [entries.length])

  // After "Show earlier", keep the lines the reader was looking at where they were.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the window grows
  useLayoutEffect(() => {
    if (heightBefore.current === null) return
    window.scrollBy(0, document.documentElement.scrollHeight - heightBefore.current)
    heightBefore.current = null
  }, [limit])

  const hidden = Math.max(0, entries.length - limit)
  const shown = hidden > 0 ? entries.slice(hidden) : entries

  return (
    <section className="transcript" aria-label="Transcript">
      {hidden > 0 ? (
        <div className="earlier">
          <span>{hidden} earlier lines not shown</span>
          <button
            type="button"
            onClick={() => {
              heightBefore.current = document.documentElement.scrollHeight
              stick.current = false
              setLimit((n) => n + WINDOW)
            }}
          >
            Show earlier
          </button>
        </div>
      ) : null}
      {entries.length === 0 ? (
        <p className="muted">{state === 'connecting' ? 'Loading the transcript…' : 'Nothing yet.'}</p>
      ) : null}
      {shown.map((e) => (
        <TranscriptItemView key={e.key} item={e.item} />
      ))}
      {state === 'reconnecting' ? (
        <p className="muted" role="status">
          Reconnecting…
        </p>
      ) : null}
    </section>
  )
}
