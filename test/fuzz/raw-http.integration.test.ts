// Bytes no HTTP client would send, on a bare TCP socket: odd request targets, upgrades to /sdk/ and
// /hub followed by garbage, broken framing. The hub may refuse them; it must not answer 5xx or die.
import { describe, it } from 'vitest'
import { sendRaw } from './clients.js'
import { describeRaw } from './describe.js'
import { rawKinds } from './inputs.js'
import { holds, hubPerFile, kindOf, survived } from './property.js'

const world = hubPerFile()

describe('raw requests over TCP', () => {
  for (const kind of Object.keys(rawKinds(''))) {
    it(`survives ${kind}`, async () => {
      const { hub } = world
      await holds(
        kindOf(rawKinds(hub.adminToken), kind),
        async (bytes) => {
          await hub.ensure()
          await survived(hub, await sendRaw(hub.port, bytes))
        },
        (bytes) => describeRaw(bytes, { ADMIN_TOKEN: hub.adminToken }),
        30,
      )
    }, 120_000)
  }
})
