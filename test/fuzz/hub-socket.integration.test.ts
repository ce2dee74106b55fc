// Arbitrary frames on the hub socket, before and after a valid hello: every frame that is owed a
// reply gets one, the hub closes nobody, and a well-behaved channel alongside keeps getting events.
import { afterAll, beforeAll, describe, it } from 'vitest'
import { runSession, Watcher } from './clients.js'
import { describeSession } from './describe.js'
import { sessionKinds } from './inputs.js'
import { holds, hubPerFile, survived } from './property.js'

const world = hubPerFile(['fz', 'beat'])
let watcher: Watcher
let beats = 0

beforeAll(async () => {
  watcher = new Watcher(world.hub)
  await watcher.start()
})
afterAll(() => watcher.stop())

describe('the hub socket with arbitrary frames', () => {
  for (const [kind, sessions] of Object.entries(sessionKinds)) {
    it(`answers ${kind} frames, closes nobody, and keeps delivering`, async () => {
      const { hub } = world
      await holds(
        sessions,
        async (session) => {
          await hub.ensure()
          const closes = watcher.closedByHub.length
          await survived(hub, await runSession(hub.port, hub.adminToken, session, '0'))
          if (watcher.closedByHub.length > closes)
            throw new Error(`the hub closed the well-behaved channel (${watcher.closedByHub.at(-1)})`)
          if ((await watcher.beat(`beat ${beats++}`)) !== true)
            throw new Error('an event did not reach the well-behaved channel')
        },
        describeSession,
        kind === 'huge' ? 3 : kind === 'deep' ? 10 : 40,
      )
    }, 120_000)
  }
})
