// A session's lines from any point, then live: what the API's stream (GET /api/sessions/:id/stream)
// gives, through the one replay-then-follow (core/replay.ts). The stored ones are read a page at a
// time and each is written before the next is read, the writer waiting while the reader is behind,
// so a transcript of tens of MB never sits in the hub's memory; live lines that come meanwhile are
// read from the store with the rest: none lost, none twice.
import { replayThenFollow } from '../../core/replay.js'
import { lineText } from '../../core/session-api.js'
import type { SessionManager } from './session-manager.js'

export interface LineWriter {
  /** Writes one line (JSON text, cut when over-long); resolves once the reader may take more. */
  write(seq: number, json: string): Promise<void>
  /** The reader left: nothing more is read or written. */
  gone(): boolean
}

/** A stored line is written as it is stored; a live one as lineText cuts it. */
interface Item {
  seq: number
  line: unknown
  text?: string
}

/**
 * Replays the lines after `from`, then writes each new one as it comes; resolves once the replay is
 * written, with the function that stops the live part. A stored line becomes text only as it is
 * written: a page's lines are never all text at once.
 */
export function replayThenLive(
  sessions: Pick<SessionManager, 'onLinesOf' | 'lines'>,
  id: string,
  from: number,
  out: LineWriter,
): Promise<() => void> {
  return replayThenFollow<Item>(
    {
      async read(after) {
        const page = await sessions.lines(id, after)
        return { items: page.lines, next: page.next }
      },
      key: (item) => item.seq,
    },
    (onItem) => sessions.onLinesOf(id, (seq, line) => onItem({ seq, line, text: lineText(line) })),
    from,
    { write: (item) => out.write(item.seq, item.text ?? JSON.stringify(item.line)), gone: () => out.gone() },
  )
}
