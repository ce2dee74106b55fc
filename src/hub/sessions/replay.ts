// A session's lines from any point, then live: what the dashboard's stream and the admin API's SSE
// give. The stored ones are read a page at a time and each is written before the next is read, the
// writer waiting while the reader is behind, so a transcript of tens of MB never sits in the hub's
// memory. Live lines that come meanwhile are read from the store with the rest: none lost, none twice.
import { lineText } from '../../core/session-api.js'
import type { SessionManager } from './session-manager.js'

export interface LineWriter {
  /** Writes one line (JSON text, cut when over-long); resolves once the reader may take more. */
  write(seq: number, json: string): Promise<void>
  /** The reader left: nothing more is read or written. */
  gone(): boolean
}

/**
 * Replays the lines after `from`, then writes each new one as it comes; resolves once the replay is
 * written, with the function that stops the live part.
 */
export async function replayThenLive(
  sessions: Pick<SessionManager, 'onLinesOf' | 'lines'>,
  id: string,
  from: number,
  out: LineWriter,
): Promise<() => void> {
  let last = from
  let replaying = true
  let missed = false
  const write = (seq: number, json: string): Promise<void> => {
    if (seq <= last || out.gone()) return Promise.resolve()
    last = seq
    return out.write(seq, json)
  }
  const off = sessions.onLinesOf(id, (seq, line) => {
    // Stored before it is announced: the replay's next page has it.
    if (replaying) missed = true
    else void write(seq, lineText(line))
  })
  try {
    for (;;) {
      missed = false
      const page = await sessions.lines(id, last)
      for (const { seq, line } of page.lines) {
        if (out.gone()) return off
        await write(seq, JSON.stringify(line))
      }
      if (page.next === null && !missed) break
    }
  } catch (err) {
    off()
    throw err
  }
  replaying = false
  return off
}
