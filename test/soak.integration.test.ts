// A short soak in every `npm test` (the hour is `npm run soak`, bench/soak/): one hub on SQLite, 30
// channel sessions driven by the MCP SDK Client, 6 operators on the decision feed and the chat stream,
// 20 events/s of signed GitHub deliveries, web chat lines and permission prompts for two minutes, the
// first of them warm-up. Smaller than the bench's 100 sessions at 50 events/s so that it leaves the
// other workers their share; the same code, and the same targets but one.
//
// The one left to the bench is latency's drift: a test asserts no wall-clock time (README, Tests), and
// a ratio of two minutes' p99s moves with whatever the other test files do meanwhile. The table in a
// failure's message still shows it. Memory is the median of the readings of the last half minute
// before each point, so one garbage collection's timing does not decide it; and every count (lost,
// twice, out of order, answered once) waits for the drain, which ends only when nothing has arrived
// for 15 s.
import { expect, it } from 'vitest'
import { soakTable, TARGETS } from '../bench/soak/figures.js'
import { runSoak } from '../bench/soak/run.js'

it('loses, repeats and reorders nothing, answers each prompt once, and holds memory flat under mixed load', async () => {
  const f = await runSoak({
    minutes: 2,
    warmupMinutes: 1,
    hubs: 1,
    channels: 30,
    operators: 6,
    perSecond: 20,
  })
  const table = soakTable(f)
  for (const k of [f.kinds.webhook, f.kinds.chat]) {
    expect(k.accepted, table).toBe(k.sent)
    expect(k.owed, table).toBeGreaterThan(0)
    expect({ lost: k.lost, shownTwice: k.shownTwice, outOfOrder: k.outOfOrder }, table).toEqual({
      lost: 0,
      shownTwice: 0,
      outOfOrder: 0,
    })
  }
  expect(f.decisions.raised, table).toBeGreaterThan(100)
  expect(f.decisions, table).toMatchObject({
    answered: f.decisions.raised,
    answeredTwice: 0,
    answers200: f.decisions.raised,
    answersOther: 0,
  })
  expect({ strays: f.strays, unmatched: f.unmatched, streamsEnded: f.streamsEnded }, table).toEqual({
    strays: 0,
    unmatched: 0,
    streamsEnded: 0,
  })
  // Memory: the hub's and the channels' (summed) growth from the end of the warm-up to the end.
  expect(f.memory.hubs, table).toHaveLength(1)
  for (const m of [...f.memory.hubs, f.memory.channelsSum])
    expect(m.growth, table).toBeLessThanOrEqual(TARGETS.growth)
}, 400_000)
