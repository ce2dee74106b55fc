// Rung 2, a user message in a session the hub drives (created with topics): one event at a time
// while the session is idle, each its own turn; in_context is the CLI's command_lifecycle `started`.
import { adminCall, startDrivingHub } from '../../test/helpers/e2e.js'
import { waitFor } from '../../test/helpers/home.js'
import type { Rung } from './rung.js'
import { receiptTimes, withWorld } from './world.js'

export const drivenRung: Rung = {
  name: 'driven',
  promise:
    'in context when the CLI starts the line that carried it; resumed with it if the session had ended',
  measure: (n, warmup) =>
    withWorld({}, async (world) => {
      const secret = await world.home.addSource('ci')
      await startDrivingHub(world)
      world.fake.respond(() => ({ text: 'noted' }))
      const { json } = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
        prompt: 'wait for events',
        options: { cwd: world.claude.cwd },
        topics: ['ci'],
      })
      const turns = async () =>
        (await adminCall<{ turns: number }>(world, 'GET', `/api/sessions/${json.id}`)).json.turns
      await waitFor(async () => (await turns()) >= 1, 60_000, 'the first turn')
      return receiptTimes(world, {
        source: 'ci',
        secret,
        n,
        warmup,
        until: 'in_context',
        settle: (i) => waitFor(async () => (await turns()) >= i + 2, 60_000, `turn ${i + 2}`),
      })
    }),
}
