// A store that counts the outbox rows it hands out: how a test sees that a reader reads only what it needs.
import type { Store } from '../../src/store/store.js'

export function countingOutboxRows(store: Store): { store: Store; rowsRead: () => number } {
  let rows = 0
  const counting = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver)
      if (typeof key !== 'string' || !key.startsWith('outbox') || typeof value !== 'function') return value
      return async (...args: unknown[]) => {
        const read = await value.apply(target, args)
        rows += Array.isArray(read) ? read.length : read ? 1 : 0
        return read
      }
    },
  })
  return { store: counting, rowsRead: () => rows }
}
