// The one decision an agent's prompt opened, as `switchboard decisions --json` lists it, for the tests of
// sessions the hub drives and of agents' hooks. The wait looks through the hub's route that command
// reads, not a CLI process for each look: those took a core from the agent starting beside them.
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'vitest'
import { runCli, type TestHome, waitFor } from './home.js'

export type OpenDecision = { code: string; owner: string; request: Record<string, unknown> }

/** Waits up to `ms` for exactly one open decision (`what` names it if it does not come), then lists it. */
export async function oneOpenDecision(
  home: TestHome,
  env: Record<string, string>,
  what: string,
  ms: number,
): Promise<OpenDecision> {
  await waitFor(
    async () => {
      // A look a quarter of a second, not waitFor's fifty a second: the hub answering them would take
      // the core the agent and its hook need.
      await sleep(250)
      return (await home.api('decisions')).decisions.length === 1
    },
    ms,
    what,
  )
  const open: OpenDecision[] = JSON.parse((await runCli(['decisions', '--json'], env)).stdout)
  expect(open).toHaveLength(1)
  return open[0] as OpenDecision
}
