// The hub-wide live feed (GET /api/feed): decision changes and turn ends, on one EventSource for the
// whole page however many parts follow it. A browser opens at most six connections to a host; a
// stream per part, times a few tabs, would leave none for the page's requests.
import { streamPath } from './client.ts'
import { keepStream } from './stream.ts'

/** `reopen`: the stream is open again after a break; what was sent meanwhile is lost, so reload. */
export type FeedEvent = 'changed' | 'turn' | 'reopen'
type Listener = (data: string) => void

const listeners = new Map<FeedEvent, Set<Listener>>()
let close: (() => void) | null = null
let followers = 0

function emit(event: FeedEvent, data: string) {
  for (const listener of listeners.get(event) ?? []) listener(data)
}

function connect(): () => void {
  let openedOnce = false
  return keepStream(() => streamPath('feed'), {
    events: {
      changed: (e) => emit('changed', e.data),
      turn: (e) => emit('turn', e.data),
    },
    open: () => {
      if (openedOnce) emit('reopen', '')
      openedOnce = true
    },
  })
}

/** Calls `listener` with each event's data; the stream stays open while anyone follows it. */
export function followFeed(event: FeedEvent, listener: Listener): () => void {
  const set = listeners.get(event) ?? new Set()
  listeners.set(event, set)
  set.add(listener)
  if (followers++ === 0) close = connect()
  return () => {
    set.delete(listener)
    if (--followers > 0) return
    close?.()
    close = null
  }
}
