// A short chaos run in every `npm test`: the long one is `npm run chaos` (see run.ts).
import { expect, it } from 'vitest'
import { runChaos } from './chaos.js'

it('loses, repeats and reorders no accepted event while the hub and the channel are SIGKILLed', async () => {
  const r = await runChaos({ events: 400, hubKills: 3, channelKills: 2, seed: 20_240_611 })
  const why = r.findings.join('\n')
  expect({ lost: r.lost, shownTwice: r.shownTwice, outOfOrder: r.outOfOrder }, why).toEqual({
    lost: 0,
    shownTwice: 0,
    outOfOrder: 0,
  })
  expect(r.accepted).toBe(400)
  expect(r.seen, why).toBe(r.accepted)
  expect(r.hubKills).toBe(3)
  expect(r.channelKills).toBe(2)
}, 120_000)
