// A session's transcript, live from GET /api/sessions/:id/stream. Lines are kept by seq (a seq seen
// twice, after a reconnect, is dropped) and applied once per animation frame so a long replay renders
// in a few batches rather than one render per line.
import { useEffect, useRef, useState } from 'react'
import { checkSignedIn, streamUrl } from './api.ts'
import { decodeLine, type TranscriptItem, TranscriptReader } from './transcript.ts'

export interface TranscriptEntry {
  key: string
  seq: number
  item: TranscriptItem
}

export type StreamState = 'connecting' | 'live' | 'reconnecting'

const RETRY_MS = 3_000

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
      if (!Number.isFinite(seq) || seen.has(seq)) return
      seen.add(seq)
      lastSeq = Math.max(lastSeq, seq)
      const items = reader.read(decodeLine(event.data))
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
      es.addEventListener('open', () => setState('live'))
      es.addEventListener('line', onLine as EventListener)
      es.addEventListener('error', () => {
        if (stopped) return
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
      if (frame) cancelAnimationFrame(frame)
    }
  }, [sessionId])

  return { entries, state }
}
