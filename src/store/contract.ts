// What the contract suites (*.contract.ts) share: a fresh store per test, and events to publish into it.
// An implementation's contract test runs every suite with its own OpenStore.
import { test } from 'vitest'
import type { NewEvent } from '../core/event.js'
import type { Store } from './store.js'

/** A store under test. `reopen` closes it and opens the same data again, as a restart of the hub does. */
export interface OpenedStore {
  store: Store
  reopen(): Promise<Store>
  /** Closes the store (the reopened one, if any) and removes what the test left. */
  close(): Promise<void>
}

/** Opens a new, empty store. */
export type OpenStore = () => Promise<OpenedStore>

/** `it` for a contract suite: each test is given a new store (`{ store, reopen }`), closed after it. */
export function storeTest(open: OpenStore) {
  return test.extend<{ opened: OpenedStore; store: Store; reopen: () => Promise<Store> }>({
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
    opened: async ({}, use) => {
      const opened = await open()
      await use(opened)
      await opened.close()
    },
    store: async ({ opened }, use) => use(opened.store),
    reopen: async ({ opened }, use) => use(() => opened.reopen()),
  })
}

/** Stages and writes, as the hub does. */
export async function publish(store: Store, events: NewEvent[]) {
  const staged = await store.stage(events)
  await store.write(staged)
  return staged
}

export const event = (topic: string, content: string, extra: Partial<NewEvent> = {}): NewEvent => ({
  topic,
  source: 'test',
  sender: null,
  chat_id: null,
  target: null,
  content,
  meta: {},
  idempotencyKey: null,
  ...extra,
})
