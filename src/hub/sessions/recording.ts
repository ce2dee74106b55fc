// What a session's CLI says, kept: every line in the store in the order it came (told to listeners
// once stored), the status and totals its lines imply, and the text it is writing, passed on live
// and never stored.
import type { CliLine } from '../../claude/messages.js'
import { roundUsd } from '../../core/money.js'
import type { SessionRecord, SessionStatus, Store } from '../../store/store.js'
import type { LiveSession } from './live-session.js'
import type { SessionEvents } from './session-events.js'

export class Recorder {
  constructor(
    private readonly store: Store,
    private readonly events: SessionEvents,
  ) {}

  async setStatus(id: string, status: SessionStatus, extra: Partial<SessionRecord> = {}): Promise<void> {
    await this.store.updateSession(id, { status, ...extra })
    this.events.status.emit(id, status)
  }

  /**
   * Stores a line of the session (its CLI's, or one the hub writes into the transcript) and tells
   * listeners. True when the line ends a turn: the session is idle (or interrupted) from then on.
   */
  async record(id: string, line: CliLine, live?: LiveSession): Promise<boolean> {
    const seq = await this.store.appendSessionLine(id, line)
    // The finished message (or the turn's end) takes the place of the text streamed so far.
    if (line.type === 'assistant' || line.type === 'result') live?.partial.clear()
    this.events.lines.emit(id, seq, line)
    if (line.type === 'system' && line.subtype === 'init' && typeof line.session_id === 'string')
      await this.store.updateSession(id, { claudeSessionId: line.session_id })
    if (line.type !== 'result') return false
    const session = await this.store.getSession(id)
    if (!session) return false
    const interrupted = live?.interrupting && line.subtype === 'error_during_execution'
    await this.setStatus(id, interrupted ? 'interrupted' : 'idle', {
      costUsd: roundUsd(
        session.costUsd + (typeof line.total_cost_usd === 'number' ? line.total_cost_usd : 0),
      ),
      turns: session.turns + (typeof line.num_turns === 'number' ? line.num_turns : 0),
      lastResult: typeof line.result === 'string' ? line.result : session.lastResult,
    })
    return true
  }

  /** A partial message (stream_event): passed on live, never stored. */
  streamed(live: LiveSession, line: CliLine): void {
    const piece = live.partial.apply(line)
    if (piece) this.events.partial.emit(live.id, piece)
  }

  /** The CLI ended: text it was writing will never become a line, so listeners drop it. */
  dropPartial(live: LiveSession): void {
    if (live.partial.clear()) this.events.partial.emit(live.id, { at: 0, text: '' })
  }
}
