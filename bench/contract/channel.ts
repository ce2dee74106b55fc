// Rung 1, a channel notification: a `-p` session with the channel plugin (the real CLI offline
// against the fake API), one event at a time while the session is idle, each its own turn.
import { startedSession } from '../../test/helpers/e2e.js'
import { PLUGIN_CHANNEL } from '../../test/helpers/plugin.js'
import type { Rung } from './rung.js'
import { receiptTimes, withWorld } from './world.js'

export const channelRung: Rung = {
  name: 'channel',
  promise:
    'in context, confirmed from the transcript; written again until it is (5 tries, then unconfirmed with why)',
  measure: (n, warmup) =>
    withWorld({ channelPlugin: 'switchboard' }, async (world) => {
      const session = await startedSession(world, PLUGIN_CHANNEL)
      const secret = await world.home.addSource('bench')
      world.fake.respond(() => ({ text: 'noted' }))
      return receiptTimes(world, {
        source: 'bench',
        secret,
        n,
        warmup,
        until: 'in_context',
        settle: (i) => session.waitForTurns(i + 1),
      })
    }),
}
