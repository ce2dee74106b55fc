// Rung 1, a channel notification: a `-p` session with the channel plugin (the real CLI offline
// against the fake API), one event at a time while the session is idle, each its own turn.
import { startedSession } from '../../test/helpers/e2e.js'
import { PLUGIN_CHANNEL } from '../../test/helpers/plugin.js'
import { postWebhook, waitForState } from '../../test/helpers/receipts.js'
import { figures, type Rung } from './rung.js'
import { since, withWorld } from './world.js'

export const channelRung: Rung = {
  name: 'channel',
  promise:
    'in context, confirmed from the transcript; written again until it is (5 tries, then unconfirmed with why)',
  measure: (n, warmup) =>
    withWorld({ channelPlugin: 'switchboard' }, async (world) => {
      const session = await startedSession(world, PLUGIN_CHANNEL)
      const secret = await world.home.addSource('bench')
      world.fake.respond(() => ({ text: 'noted' }))
      const written: (number | null)[] = []
      const inContext: (number | null)[] = []
      for (let i = 0; i < warmup + n; i++) {
        const startedAt = Date.now()
        const id = await postWebhook(world, 'bench', secret, `contract ${i}`)
        const [receipt] = await waitForState(world, [id], 'in_context', 60_000)
        written.push(since(startedAt, receipt?.written ?? null))
        inContext.push(since(startedAt, receipt?.in_context ?? null))
        await session.waitForTurns(i + 1)
      }
      return { written: figures(written, warmup), inContext: figures(inContext, warmup) }
    }),
}
