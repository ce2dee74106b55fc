// The text Claude is writing right now, read from the CLI's `stream_event` lines
// (--include-partial-messages): what the dashboard shows growing until the finished message arrives
// as a line of its own. Kept per session so that a page connecting mid-message gets what was written
// so far, not only what follows. Never stored: the store would fill with deltas.
import type { CliLine } from '../../claude/messages.js'
import type { PartialPiece } from '../../core/api/rows.js'

interface StreamEvent {
  type?: string
  delta?: { type?: string; text?: unknown }
}

export class PartialText {
  private text = ''

  /** The piece a stream event adds to the text, or null when it adds none. */
  apply(line: CliLine): PartialPiece | null {
    const event = line.event as StreamEvent | undefined
    if (event?.type === 'message_start' || event?.type === 'content_block_start') {
      this.text = ''
      return null
    }
    const delta = event?.type === 'content_block_delta' ? event.delta : undefined
    if (delta?.type !== 'text_delta' || typeof delta.text !== 'string' || delta.text === '') return null
    const at = this.text.length
    this.text += delta.text
    return { at, text: delta.text }
  }

  /** The finished message arrived (or the CLI ended): nothing is in progress. True if something was. */
  clear(): boolean {
    const had = this.text !== ''
    this.text = ''
    return had
  }

  /** Everything written so far as one piece; null when nothing is in progress. */
  snapshot(): PartialPiece | null {
    return this.text ? { at: 0, text: this.text } : null
  }
}
