// One live stream from the hub: an EventSource that the browser reconnects by itself (with
// Last-Event-ID), opened afresh when the hub refused it (signed out, or gone), after a pause.
import { checkSignedIn } from './api.ts'

const RETRY_MS = 3_000

export interface StreamHandlers {
  /** Each named event's handler, given the message (its data and lastEventId). */
  events: Record<string, (event: MessageEvent<string>) => void>
  open?: () => void
  /** The stream broke; the browser or this helper brings it back. */
  broken?: () => void
}

/** Keeps a stream of `url()` (asked again for each fresh open) until the returned function is called. */
export function keepStream(url: () => string, on: StreamHandlers): () => void {
  let source: EventSource | null = null
  let retry: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const connect = () => {
    const es = new EventSource(url())
    source = es
    es.addEventListener('open', () => on.open?.())
    for (const [name, handle] of Object.entries(on.events))
      es.addEventListener(name, ((event: MessageEvent<string>) => handle(event)) as EventListener)
    es.addEventListener('error', () => {
      if (stopped || source !== es) return
      on.broken?.()
      if (es.readyState !== EventSource.CLOSED) return
      es.close()
      void checkSignedIn()
      retry = setTimeout(connect, RETRY_MS)
    })
  }
  connect()
  return () => {
    stopped = true
    source?.close()
    clearTimeout(retry)
  }
}
