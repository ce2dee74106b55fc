// A session's transcript, live from GET /api/sessions/:id/stream. Lines are kept by seq (a seq seen
// twice, after a reconnect, is dropped) and applied once per animation frame so a long replay renders
// in a few batches rather than one render per line.
// A `result` line (a turn's end) that arrives live, after the page first caught up with the replay,
// notifies (notifyTurnEnd). The stream does not mark the replay's end: the page has caught up once the
// open stream has been quiet for a moment while the page itself was not busy.
import { useEffect, useRef, useState } from 'react'
import { checkSignedIn, streamUrl } from './api.ts'
import { notifyTurnEnd } from './notifications.ts'
import { decodeLine, type TranscriptItem, TranscriptReader, turnResult } from './transcript.ts'

export interface TranscriptEntry {
  key: string
  seq: number
  item: TranscriptItem
}

export type StreamState = 'connecting' | 'live' | 'reconnecting'

const RETRY_MS = 3_000
/** How long the open stream stays quiet before the replay counts as done. */
const QUIET_MS = 1_000

export function useTranscript(
  sessionId: string,
  onTurnEnd: () => void,
): { entries: TranscriptEntry[]; state: StreamState } {
  const [entries, setEntries] = useState<TranscriptEntry[]>([])
  const [state, setState] = useState<StreamState>('connecting')
  const turnEnd = useRef(onTurnEnd)
  turnEnd.current = onTurnEnd

  useEffect(() => {
    setEntries([])
    setState('connecting')
    const reader = new TranscriptReader()
    const seen = new Set<number>()
    let lastSeq = 0
    let all: TranscriptEntry[] = []
    let pending: TranscriptEntry[] = []
    let frame = 0
    let source: EventSource | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    let endedTurn = false
    // The highest seq when the page first caught up; null until then. Only later lines notify.
    let caughtUpAt: number | null = null
    let quiet: ReturnType<typeof setTimeout> | undefined
    let lastArrival = 0

    // Waits for the open stream to be quiet for QUIET_MS, then takes the highest seq as caught up. A
    // timer that fires late on a visible page means the page was busy (a batch rendering) and lines
    // may still be queued behind it: wait again rather than conclude. (A hidden page's timers are
    // throttled instead, and it renders nothing meanwhile.)
    const awaitQuiet = (delay = QUIET_MS) => {
      clearTimeout(quiet)
      if (caughtUpAt !== null || stopped) return
      const due = performance.now() + delay
      quiet = setTimeout(() => {
        // Not open: the next 'open' waits again.
        if (source?.readyState !== EventSource.OPEN) return
        const now = performance.now()
        const sinceLine = now - lastArrival
        if (document.visibilityState === 'visible' && now - due > QUIET_MS / 2) awaitQuiet()
        else if (sinceLine < QUIET_MS) awaitQuiet(QUIET_MS - sinceLine)
        else caughtUpAt = lastSeq
      }, delay)
    }

    const flush = () => {
      frame = 0
      const batch = pending
      pending = []
      const lastKept = all[all.length - 1]?.seq ?? 0
      all = all.concat(batch)
      // Lines normally arrive in order; sort only when one came late.
      if ((batch[0]?.seq ?? Number.POSITIVE_INFINITY) < lastKept) all.sort((a, b) => a.seq - b.seq)
      setEntries(all)
      if (endedTurn) {
        endedTurn = false
        turnEnd.current()
      }
    }

    const onLine = (event: MessageEvent<string>) => {
      const seq = Number(event.lastEventId)
      if (stopped || !Number.isFinite(seq) || seen.has(seq)) return
      seen.add(seq)
      lastSeq = Math.max(lastSeq, seq)
      const line = decodeLine(event.data)
      if (caughtUpAt === null) lastArrival = performance.now()
      else if (seq > caughtUpAt) {
        const result = turnResult(line)
        if (result) notifyTurnEnd(sessionId, result)
      }
      const items = reader.read(line)
      items.forEach((item, i) => {
        pending.push({ key: `${seq}.${i}`, seq, item })
        if (item.kind === 'turn') endedTurn = true
      })
      if (items.length > 0 && frame === 0) frame = requestAnimationFrame(flush)
    }

    const connect = () => {
      // A new EventSource starts afresh: ask for what follows the last line kept.
      const es = new EventSource(streamUrl.session(sessionId, lastSeq))
      source = es
      es.addEventListener('open', () => {
        setState('live')
        awaitQuiet()
      })
      es.addEventListener('line', onLine as EventListener)
      es.addEventListener('error', () => {
        if (stopped) return
        clearTimeout(quiet)
        setState('reconnecting')
        // The browser retries by itself (with Last-Event-ID) unless the hub refused the stream.
        if (es.readyState === EventSource.CLOSED) {
          es.close()
          void checkSignedIn()
          retry = setTimeout(connect, RETRY_MS)
        }
      })
    }
    connect()

    return () => {
      stopped = true
      source?.close()
      clearTimeout(retry)
      clearTimeout(quiet)
      if (frame) cancelAnimationFrame(frame)
    }
  }, [sessionId])

  return { entries, state }
}
