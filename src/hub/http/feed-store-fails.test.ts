// An operator's feed when the store fails to answer whether they may still see it (under load on
// Postgres, a statement that waited 10 s for a connection is given up): the feed ends, the page
// opens it again, and the hub goes on. Found by the soak on three hubs, where it ended two hubs.
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

it('ends the feed, and nothing else, when a decision changes while the store cannot answer', async () => {
  const { key } = await world.signIn()
  const feed = world.request('GET', '/api/feed', { headers: { authorization: `Bearer ${key}` } })
  const listeners = (world.parts.feed as unknown as { listeners: Set<unknown> }).listeners
  await vi.waitFor(() => expect(listeners.size).toBe(1))

  const store = world.parts.hub.store
  const senderById = store.senderById
  store.senderById = () => Promise.reject(new Error('timeout exceeded when trying to connect'))
  await world.parts.hub.decisions.openQuestion('desk', { question: 'Deploy now?' })
  const ended = await feed
  store.senderById = senderById
  expect(ended.status).toBe(200)
  expect(listeners.size).toBe(0) // it stopped following decisions as it ended the feed
  // The hub still answers.
  expect(
    (await world.request('GET', '/api/status', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }))
      .status,
  ).toBe(200)
})
