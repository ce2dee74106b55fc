// One rung's world for bench/contract: a fake Messages API, a Switchboard home, a Claude Code HOME,
// and what to close afterwards (the tests' World, made and torn down outside vitest).
import { FakeAnthropic } from '../../test/fakes/anthropic.js'
import { ClaudeHome, type ClaudeHomeOptions } from '../../test/helpers/claude.js'
import { drivingEnv, type World } from '../../test/helpers/e2e.js'
import { TestHome } from '../../test/helpers/home.js'

export async function withWorld<T>(
  options: ClaudeHomeOptions,
  run: (world: World) => Promise<T>,
): Promise<T> {
  const world: World = {
    fake: await new FakeAnthropic().start(),
    home: await TestHome.create(),
    claude: new ClaudeHome(options),
    closers: [],
  }
  // A hub the CLI starts drives sessions as the tests' own do (test/helpers/e2e.ts e2eWorld).
  Object.assign(world.home.extraEnv, drivingEnv(world))
  try {
    return await run(world)
  } finally {
    for (const close of world.closers.splice(0).reverse()) await Promise.resolve(close()).catch(() => {})
    await world.fake.close()
    await world.home.cleanup()
    world.claude.cleanup()
  }
}

/** Milliseconds from `startedAt` (Date.now()) to an ISO time the hub recorded, or null. */
export const since = (startedAt: number, iso: string | null) =>
  iso === null ? null : Date.parse(iso) - startedAt
