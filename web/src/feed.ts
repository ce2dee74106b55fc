// The hub-wide live feed (GET /api/feed): decision changes and turn ends, on one EventSource for the
// whole page however many parts follow it. A browser opens at most six connections to a host; a
// stream per part, times a few tabs, would leave none for the page's requests.
import { checkSignedIn, streamUrl } from './api.ts'

/** `reopen`: the stream is open again after a break; what was sent meanwhile is lost, so reload. */
export type FeedEvent = 'changed' | 'turn' | 'reopen'
type Listener = (data: string) => void

const RETRY_MS = 3_000
const listeners = new Map<FeedEvent, Set<Listener>>()
let source: EventSource | null = null
let retry: ReturnType<typeof setTimeout> | undefined
let followers = 0
let openedOnce = false

function emit(event: FeedEvent, data: string) {
  for (const listener of listeners.get(event) ?? []) listener(data)
}

function connect() {
  const es = new EventSource(streamUrl.feed())
  source = es
  es.addEventListener('open', () => {
    if (openedOnce) emit('reopen', '')
    openedOnce = true
  })
  for (const event of ['changed', 'turn'] as const)
    es.addEventListener(event, ((e: MessageEvent<string>) => emit(event, e.data)) as EventListener)
  es.addEventListener('error', () => {
    // The browser reconnects by itself unless the hub refused the stream (signed out, or gone).
    if (source !== es || es.readyState !== EventSource.CLOSED) return
    es.close()
    void checkSignedIn()
    retry = setTimeout(connect, RETRY_MS)
  })
}

/** Calls `listener` with each event's data; the stream stays open while anyone follows it. */
export function followFeed(event: FeedEvent, listener: Listener): () => void {
  const set = listeners.get(event) ?? new Set()
  listeners.set(event, set)
  set.add(listener)
  if (followers++ === 0) connect()
  return () => {
    set.delete(listener)
    if (--followers > 0) return
    source?.close()
    source = null
    clearTimeout(retry)
    openedOnce = false
  }
}
