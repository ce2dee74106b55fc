import { expect, it } from 'vitest'
import { itemsAfter, type Page, replayThenFollow } from './replay.js'

/** A store of numbered items read two at a time, which announces each new one after storing it. */
function world() {
  const items: number[] = []
  const listeners = new Set<(n: number) => void>()
  let reads = 0
  let onRead = () => {}
  const store = {
    async read(after: number): Promise<Page<number>> {
      reads++
      const page = items.filter((n) => n > after).slice(0, 2)
      const more = items.some((n) => n > (page.at(-1) ?? after))
      onRead() // after the page was taken: what comes now is not in it
      return { items: page, next: more ? (page.at(-1) ?? after) : null }
    },
    key: (n: number) => n,
  }
  const add = (n: number) => {
    items.push(n)
    for (const l of listeners) l(n)
  }
  const follow = (listener: (n: number) => void) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }
  return {
    store,
    add,
    follow,
    listeners,
    reads: () => reads,
    onRead: (f: () => void) => {
      onRead = f
    },
  }
}

it('reads page after page until none follows', async () => {
  const w = world()
  for (const n of [1, 2, 3, 4, 5]) w.add(n)
  const seen: number[] = []
  for await (const n of itemsAfter(w.store.read, 1)) seen.push(n)
  expect(seen).toEqual([2, 3, 4, 5])
  expect(w.reads()).toBe(2)
})

it('writes the stored items, then the live ones: none lost while it replays, none twice', async () => {
  const w = world()
  for (const n of [1, 2, 3, 4]) w.add(n)
  // Items arrive while the replay reads, each just after a page was taken.
  let next = 5
  w.onRead(() => {
    if (next <= 8) w.add(next++)
  })
  const written: number[] = []
  const stop = await replayThenFollow(w.store, w.follow, 1, { write: (n) => void written.push(n) })
  w.add(9)
  w.add(10)
  expect(written).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10])
  stop()
  w.add(11)
  expect(written.at(-1)).toBe(10)
  expect(w.listeners.size).toBe(0)
})

it('reads no further than the reader takes, and stops when it leaves', async () => {
  const w = world()
  for (const n of [1, 2, 3, 4, 5, 6]) w.add(n)
  const written: number[] = []
  let left = false
  let release = () => {}
  const stopped = replayThenFollow(w.store, w.follow, 0, {
    write: (n) => {
      written.push(n)
      // The reader is behind after the third item until released; then it leaves.
      if (n === 3)
        return new Promise<void>((r) => {
          release = () => {
            left = true
            r()
          }
        })
    },
    gone: () => left,
  })
  await expect.poll(() => written.length).toBe(3)
  expect(w.reads()).toBe(2) // the page with 3 and 4, and no page past it
  release()
  await stopped
  expect(written).toEqual([1, 2, 3])
})
