// What a hub spends on an item another hub stored, when nothing here shows that sender's items (no
// stream of theirs open here, no bridge running here): the one read of the item its notice names.
// Three hubs on Postgres hear of every item stored for every operator, about 200 a second.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { type AppWorld, appWorld } from '../../../test/helpers/app-world.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

it('reads only the item another hub stored when no bridge runs here and no stream of its sender is open', async () => {
  const { store, outbox } = world.parts.hub
  const operator = await store.addSender({
    name: 'ops',
    tokenHash: 'hash-ops',
    status: 'allowed',
    operator: true,
  })
  const item = await store.addOutbox(operator.id, {
    kind: 'notice',
    body: { text: 'a notice for the operator', at: 1 },
  })

  // Every call the hub makes of its store from here on is written down (the store is this test's own).
  const calls: string[] = []
  for (const key of Object.keys(store) as (keyof typeof store)[]) {
    const method = store[key]
    if (typeof method !== 'function') continue
    ;(store as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
      calls.push(key)
      return (method as (...a: unknown[]) => unknown).apply(store, args)
    }
  }
  await outbox.storedElsewhere(operator.id, item.id)
  expect(calls).toEqual(['outboxItem'])
})
