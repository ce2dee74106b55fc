// What each integration test needs around it: its own Switchboard home, and what it opened closed.
import { afterEach, beforeEach } from 'vitest'
import { TestHome } from './home.js'

/**
 * A fresh home for each test of the file (`world.home`), and whatever the test opened (channels,
 * streams) closed after it, before the home is cleaned up.
 */
export function homePerTest(): { home: TestHome; opened: { close(): unknown }[] } {
  const world = { home: undefined as unknown as TestHome, opened: [] as { close(): unknown }[] }
  beforeEach(async () => {
    world.home = await TestHome.create()
  })
  afterEach(async () => {
    for (const thing of world.opened.splice(0)) await thing.close()
    await world.home.cleanup()
  })
  return world
}
