// What the vitest properties share: one hub per file, restarted when a property killed it, and
// fast-check's verdict re-thrown with the shrunk input as someone would reproduce it.
import fc from 'fast-check'
import { afterAll, beforeAll } from 'vitest'
import type { Outcome } from './clients.js'
import { FuzzHub } from './hub.js'
import type { Kinds } from './inputs.js'

export function kindOf<T>(kinds: Kinds<T>, kind: string): fc.Arbitrary<T> {
  const arb = kinds[kind]
  if (!arb) throw new Error(`no input kind "${kind}"`)
  return arb
}

export function hubPerFile(sources = ['fz']): { hub: FuzzHub } {
  const world = { hub: undefined as unknown as FuzzHub }
  beforeAll(async () => {
    world.hub = await FuzzHub.start(sources)
  })
  afterAll(async () => {
    await world.hub?.cleanup()
  })
  return world
}

/** Runs `predicate` on `numRuns` inputs; a failure names the smallest input fast-check found. */
export async function holds<T>(
  arb: fc.Arbitrary<T>,
  predicate: (input: T) => Promise<void> | void,
  describe: (input: T) => string,
  numRuns: number,
): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arb, async (input) => {
      await predicate(input)
    }),
    // Shrinking an input that kills the hub restarts it at every step: a failure reports what it has by then.
    { numRuns, plugins: [fc.interruptAfterTimeLimit(20_000)] },
  )
  const input = (details.counterexample as [T] | null)?.[0]
  if (details.failed && input !== undefined)
    throw new Error(
      `${(details.errorInstance as Error)?.message}\n  input: ${describe(input)}\n  (seed ${details.seed}, path "${details.counterexamplePath}")`,
    )
}

/** Throws unless the hub survived the input, answered as it should, and still answers /health. */
export async function survived(hub: FuzzHub, outcome: Outcome): Promise<void> {
  // A socket closed without an answer may be the hub dying: the exit takes a moment to show.
  const exited = async (ms: number) => {
    if (await hub.diesWithin(ms)) throw new Error(`the hub exited: ${hub.exits.at(-1)?.signature}`)
  }
  await exited(outcome.failure ? 300 : 0)
  if (outcome.failure) throw new Error(`${outcome.failure}${outcome.detail ? ` (${outcome.detail})` : ''}`)
  const health = await fetch(`${hub.home.url}/health`).catch(() => null)
  if (health?.status === 200) return
  await exited(300)
  throw new Error(`/health answered ${health?.status ?? 'nothing'} afterwards`)
}
