// One live stream from the hub, read with fetch so it carries the browser's key as a header (an
// EventSource cannot send one): events parsed as they arrive, the stream opened again after a break
// with the last event's id (Last-Event-ID), and given up when the hub says the browser is signed out.
import { authHeaders, checkSignedIn } from './client.ts'
import { readEvents } from './sse.ts'

/** How long to wait before opening a stream again: soon after a first break, then less eagerly. */
const RETRY_MS = [500, 3_000] as const

/** One event of the stream: its data, and the last id the stream gave (as an EventSource keeps it). */
export interface StreamMessage {
  data: string
  lastEventId: string
}

export interface StreamHandlers {
  /** Each named event's handler. */
  events: Record<string, (message: StreamMessage) => void>
  open?: () => void
  /** The stream broke; this helper brings it back. */
  broken?: () => void
}

/** Keeps a stream of `url()` (asked again for each fresh open) until the returned function is called. */
export function keepStream(url: () => string, on: StreamHandlers): () => void {
  let stopped = false
  let controller: AbortController | null = null
  let retry: ReturnType<typeof setTimeout> | undefined
  let lastEventId = ''
  let breaks = 0

  const again = () => {
    if (stopped) return
    on.broken?.()
    retry = setTimeout(() => void connect(), RETRY_MS[Math.min(breaks++, RETRY_MS.length - 1)])
  }

  const connect = async () => {
    const ac = new AbortController()
    controller = ac
    let res: Response
    try {
      res = await fetch(url(), {
        headers: {
          ...authHeaders(),
          accept: 'text/event-stream',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        cache: 'no-store',
        signal: ac.signal,
      })
    } catch {
      return again()
    }
    if (res.status === 401 || res.status === 403) {
      // Signed out, expired or demoted: the app finds out which and shows it; nothing to reopen.
      void res.body?.cancel()
      if (!stopped) void checkSignedIn()
      return
    }
    if (!res.ok || !res.body) {
      void res.body?.cancel()
      return again()
    }
    breaks = 0
    on.open?.()
    try {
      await readEvents(res.body, (name, data, id) => {
        if (id !== null) lastEventId = id
        if (!stopped) on.events[name]?.({ data, lastEventId })
      })
    } catch {
      // broken mid-stream: opened again below
    }
    if (stopped) return
    // The hub ends a stream it will not serve any more (a browser blocked or demoted): ask why.
    void checkSignedIn()
    again()
  }

  void connect()
  return () => {
    stopped = true
    controller?.abort()
    clearTimeout(retry)
  }
}
