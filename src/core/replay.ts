// Reading what is stored after a point, a page at a time, and then following what comes: one way for
// every reader of numbered items (a session's lines, a sender's outbox). Nothing is held whole, none
// is lost between the stored ones and the live ones, and none comes twice.
import type { LinesPage } from './session-api.js'

/** Items stored after a point, and where the next page starts (null: none follows yet). */
export interface Page<T> {
  items: readonly T[]
  next: number | null
}

/** Every item after `after`, reading the next page only once the caller has taken this one's. */
export async function* itemsAfter<T>(
  read: (after: number) => Promise<Page<T>>,
  after: number,
): AsyncGenerator<T> {
  let cursor = after
  for (;;) {
    const page = await read(cursor)
    yield* page.items
    if (page.next === null || page.items.length === 0) return
    cursor = page.next
  }
}

/** A session's lines after `after` (GET …/lines, or the session manager's pages). */
export function linesAfter(
  read: (after: number) => Promise<LinesPage>,
  after: number,
): AsyncGenerator<LinesPage['lines'][number]> {
  return itemsAfter(async (a) => {
    const page = await read(a)
    return { items: page.lines, next: page.next }
  }, after)
}

export interface Follower<T> {
  /** Writes one item; resolves once the reader may take more (the replay waits for it). */
  write(item: T): Promise<void> | void
  /** The reader left: nothing more is read or written. */
  gone?(): boolean
}

/**
 * Writes the items stored after `from`, then each new one as it comes; resolves once the stored ones
 * are written, with the function that stops the following. An item is stored before it is announced
 * (`follow` hears it), so one announced during the replay is left to the replay's next read rather
 * than held in memory; `key` (its number) keeps any from being written twice.
 */
export async function replayThenFollow<T>(
  stored: { read(after: number): Promise<Page<T>>; key(item: T): number },
  follow: (onItem: (item: T) => void) => () => void,
  from: number,
  out: Follower<T>,
): Promise<() => void> {
  let last = from
  let replaying = true
  let missed = false
  const write = async (item: T): Promise<void> => {
    const key = stored.key(item)
    if (key <= last || out.gone?.()) return
    last = key
    await out.write(item)
  }
  const stop = follow((item) => {
    if (replaying) missed = true
    // A live write that fails is a reader gone: the next one finds gone() true.
    else write(item).catch(() => {})
  })
  try {
    do {
      missed = false
      for await (const item of itemsAfter(stored.read, last)) {
        if (out.gone?.()) return stop
        await write(item)
      }
    } while (missed)
  } catch (err) {
    stop()
    throw err
  }
  replaying = false
  return stop
}
