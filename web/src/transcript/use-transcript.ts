// A session's transcript, live from GET /api/sessions/:id/stream. Lines are kept by seq (a seq seen
// twice, after a reconnect, is dropped) and applied once per animation frame so a long replay renders
// in a few batches rather than one render per line.
// A line the hub cut for being over-long shows as a note saying so.
// Between lines come `partial` events: the assistant text being written, shown until its finished
// message (or the turn's end) arrives as a line. Never stored, so dropped when the stream breaks; the
// hub sends the text so far again when it opens.
import { useEffect, useRef, useState } from 'react'
import { streamPath } from '../api/client.ts'
import { keepStream, type StreamMessage } from '../api/stream.ts'
import {
  decodeLine,
  endsPartial,
  type TranscriptItem,
  TranscriptReader,
  withPiece,
} from './transcript-items.ts'

/** What the hub sends for a stored line too long to serve whole (core/session-api.ts CutLine). */
function isCut(line: unknown): line is { type: 'switchboard_cut'; chars: number } {
  return (
    typeof line === 'object' &&
    line !== null &&
    (line as { type?: unknown }).type === 'switchboard_cut' &&
    typeof (line as { chars?: unknown }).chars === 'number'
  )
}

export interface TranscriptEntry {
  key: string
  seq: number
  item: TranscriptItem
}

export type StreamState = 'connecting' | 'live' | 'reconnecting'

export function useTranscript(
  sessionId: string,
  onTurnEnd: () => void,
): { entries: TranscriptEntry[]; partial: string | null; state: StreamState } {
  const [entries, setEntries] = useState<TranscriptEntry[]>([])
  const [partial, setPartial] = useState<string | null>(null)
  const [state, setState] = useState<StreamState>('connecting')
  const turnEnd = useRef(onTurnEnd)
  turnEnd.current = onTurnEnd

  useEffect(() => {
    setEntries([])
    setPartial(null)
    setState('connecting')
    const reader = new TranscriptReader()
    const seen = new Set<number>()
    let lastSeq = 0
    let all: TranscriptEntry[] = []
    let pending: TranscriptEntry[] = []
    let writing: string | null = null
    let frame = 0
    let stopped = false
    let endedTurn = false

    const flush = () => {
      frame = 0
      if (pending.length > 0) {
        const batch = pending
        pending = []
        const lastKept = all[all.length - 1]?.seq ?? 0
        all = all.concat(batch)
        // Lines normally arrive in order; sort only when one came late.
        if ((batch[0]?.seq ?? Number.POSITIVE_INFINITY) < lastKept) all.sort((a, b) => a.seq - b.seq)
        setEntries(all)
      }
      // In the same render as the lines: the finished message replaces the text, never beside it.
      setPartial(writing)
      if (endedTurn) {
        endedTurn = false
        turnEnd.current()
      }
    }
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(flush)
    }

    const onLine = (event: StreamMessage) => {
      const seq = Number(event.lastEventId)
      if (stopped || !Number.isFinite(seq) || seen.has(seq)) return
      seen.add(seq)
      lastSeq = Math.max(lastSeq, seq)
      const line = decodeLine(event.data)
      if (writing !== null && endsPartial(line)) {
        writing = null
        schedule()
      }
      const items = isCut(line)
        ? [{ kind: 'note' as const, text: `A line of ${line.chars.toLocaleString()} characters, cut here` }]
        : reader.read(line)
      items.forEach((item, i) => {
        pending.push({ key: `${seq}.${i}`, seq, item })
        if (item.kind === 'turn') endedTurn = true
      })
      if (items.length > 0) schedule()
    }

    const onPartial = (event: StreamMessage) => {
      const next = withPiece(writing, event.data)
      if (stopped || next === undefined) return
      writing = next
      schedule()
    }

    // A fresh open asks for what follows the last line kept.
    const close = keepStream(
      () => streamPath('sessionStream', { id: sessionId }, lastSeq > 0 ? { after: lastSeq } : {}),
      {
        events: { line: onLine, partial: onPartial },
        open: () => setState('live'),
        broken: () => {
          setState('reconnecting')
          writing = null
          schedule()
        },
      },
    )

    return () => {
      stopped = true
      close()
      if (frame) cancelAnimationFrame(frame)
    }
  }, [sessionId])

  return { entries, partial, state }
}
