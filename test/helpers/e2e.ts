// What every end-to-end test needs: a fake Messages API, a Switchboard home, a Claude Code HOME,
// and the things to close afterwards, set up before each test and torn down after it.
import { afterEach, beforeEach } from 'vitest'
import { FakeAnthropic } from '../fakes/anthropic.js'
import { ClaudeHome, type ClaudeHomeOptions } from './claude.js'
import { TestHome } from './home.js'

export interface World {
  fake: FakeAnthropic
  home: TestHome
  claude: ClaudeHome
  /** Closed in reverse order after the test. */
  closers: (() => unknown)[]
}

export function e2eWorld(options: ClaudeHomeOptions = {}): World {
  const world = { closers: [] } as unknown as World
  beforeEach(async () => {
    world.fake = await new FakeAnthropic().start()
    world.home = await TestHome.create()
    world.claude = new ClaudeHome(options)
  })
  afterEach(async () => {
    for (const close of world.closers.splice(0).reverse()) await close()
    await world.fake.close()
    await world.home.cleanup()
    world.claude.cleanup()
  })
  return world
}
