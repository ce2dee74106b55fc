// One rung's world for bench/contract: a fake Messages API, a Switchboard home, a Claude Code HOME,
// and what to close afterwards (the tests' World, made and torn down outside vitest).
import { FakeAnthropic } from '../../test/fakes/anthropic.js'
import { ClaudeHome, type ClaudeHomeOptions } from '../../test/helpers/claude.js'
import { drivingEnv, type World } from '../../test/helpers/e2e.js'
import { TestHome } from '../../test/helpers/home.js'
import { postWebhook, waitForState } from '../../test/helpers/receipts.js'
import { figures, type RungFigures } from './rung.js'

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

/**
 * The loop every event rung runs: `warmup + n` webhooks to `source`, one at a time, each waited for
 * until its receipt reaches `until`; `handOver(i)` runs right after the 202 (a prompt, a tool call),
 * `settle(i)` once the receipt is there (the turn it started ends). Times from each 202.
 */
export async function receiptTimes(
  world: World,
  run: {
    source: string
    secret: string
    n: number
    warmup: number
    until: 'written' | 'in_context'
    handOver?: (i: number) => unknown
    settle?: (i: number) => Promise<unknown>
  },
): Promise<Pick<RungFigures, 'written' | 'inContext'>> {
  const written: (number | null)[] = []
  const inContext: (number | null)[] = []
  for (let i = 0; i < run.warmup + run.n; i++) {
    const startedAt = Date.now()
    const id = await postWebhook(world, run.source, run.secret, `contract ${i}`)
    await run.handOver?.(i)
    const [receipt] = await waitForState(world, [id], run.until, 60_000)
    written.push(since(startedAt, receipt?.written ?? null))
    inContext.push(since(startedAt, receipt?.in_context ?? null))
    await run.settle?.(i)
  }
  return {
    written: figures(written, run.warmup),
    inContext: run.until === 'in_context' ? figures(inContext, run.warmup) : null,
  }
}
