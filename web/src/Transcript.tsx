// The transcript, windowed: only the last lines are rendered, more on "Show earlier". Stays scrolled
// to the bottom while the reader is there. Entries go in chunks of CHUNK with `content-visibility:
// auto` (styles.css): the browser skips laying out and painting the chunks off-screen, which stay in
// the DOM and the accessibility tree. Per chunk rather than per entry: with thousands of entries the
// browser's per-element bookkeeping each frame cost more than it saved (bench/dashboard).
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { TranscriptItemView } from './TranscriptItemView.tsx'
import type { StreamState, TranscriptEntry } from './useTranscript.ts'

/** Entries rendered at first. */
const WINDOW = 500
/** Entries each "Show earlier" adds. */
const MORE = 2_000
/** Frames to keep to the bottom after lines are added, while the page's height settles. */
const SETTLE_FRAMES = 6
/** Entries per chunk, counted from the transcript's first entry so that chunks keep their entries. */
const CHUNK = 50

interface Chunk {
  key: number
  entries: TranscriptEntry[]
}

/** The shown entries in chunks; `first` is the index of the first one in the whole transcript. */
function chunksOf(shown: TranscriptEntry[], first: number): Chunk[] {
  const chunks: Chunk[] = []
  shown.forEach((entry, i) => {
    const key = Math.floor((first + i) / CHUNK)
    const last = chunks[chunks.length - 1]
    if (last?.key === key) last.entries.push(entry)
    else chunks.push({ key, entries: [entry] })
  })
  return chunks
}

/** One chunk; renders again only when its entries changed (a new line renders the last chunk only). */
const ChunkView = memo(
  function ChunkView({ entries }: { entries: TranscriptEntry[] }) {
    return (
      <div className="chunk">
        {entries.map((e) => (
          <TranscriptItemView key={e.key} item={e.item} />
        ))}
      </div>
    )
  },
  (a, b) => a.entries.length === b.entries.length && a.entries.every((e, i) => e === b.entries[i]),
)

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
    if (!stick.current) return
    const pin = () => window.scrollTo(0, document.documentElement.scrollHeight)
    pin()
    // The browser settles which chunks it renders (content-visibility) over the next frames, and the
    // page's height with it: keep to the bottom while it does.
    let frames = 0
    let frame = requestAnimationFrame(function again() {
      if (!stick.current || ++frames > SETTLE_FRAMES) return
      pin()
      frame = requestAnimationFrame(again)
    })
    return () => cancelAnimationFrame(frame)
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
              setLimit((n) => n + MORE)
            }}
          >
            Show earlier
          </button>
        </div>
      ) : null}
      {entries.length === 0 ? (
        <p className="muted">{state === 'connecting' ? 'Loading the transcript…' : 'Nothing yet.'}</p>
      ) : null}
      {chunksOf(shown, hidden).map((c) => (
        <ChunkView key={c.key} entries={c.entries} />
      ))}
      {state === 'reconnecting' ? (
        <p className="muted" role="status">
          Reconnecting…
        </p>
      ) : null}
    </section>
  )
}
