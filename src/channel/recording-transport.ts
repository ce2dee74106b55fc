// The one moment an event can be shown to Claude twice is a crash between writing it to Claude Code
// and recording that in the shown log. This wrapper records in the same synchronous step as the
// write (the stdio transport writes to the pipe before its send returns), shrinking that moment to
// the gap between two system calls.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'

/**
 * The event a message shows Claude: a channel notification's event_id. Rung 5's "New event <id>" line
 * shows nothing: Claude has read the event only once the inbox tool returned it.
 */
export function shownEventId(message: unknown): string | null {
  const m = message as { method?: string; params?: { meta?: { event_id?: unknown } } }
  if (m.method !== 'notifications/claude/channel') return null
  const id = m.params?.meta?.event_id
  return typeof id === 'string' ? id : null
}

/**
 * `inPipe` says whether everything written so far has left the process (Linux writes to a pipe
 * synchronously; elsewhere bytes may wait in the stream, and are recorded once the send resolves).
 */
export function recordingShown<T extends Transport>(
  transport: T,
  record: (eventId: string) => void,
  inPipe: () => boolean,
): T {
  const send = transport.send.bind(transport)
  transport.send = (message, options) => {
    const sent = send(message, options)
    const id = shownEventId(message)
    if (id && inPipe()) record(id)
    return sent
  }
  return transport
}
