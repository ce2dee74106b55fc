// Whatever an allowed sender POSTs to /messages, the hub answers a documented status (never a 5xx)
// and stays up. One property per part of the request made arbitrary.
import http from 'node:http'
import { describe, it } from 'vitest'
import { MESSAGE_STATUSES, sendHttp } from './clients.js'
import { describeHttp } from './describe.js'
import { messageKinds } from './inputs.js'
import { holds, hubPerFile, kindOf, survived } from './property.js'

const world = hubPerFile()
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

describe('POST /messages with arbitrary input', () => {
  for (const kind of Object.keys(messageKinds(''))) {
    it(`answers ${kind} with a documented status and stays up`, async () => {
      const { hub } = world
      await holds(
        kindOf(messageKinds(hub.token), kind),
        async (input) => {
          await hub.ensure()
          await survived(hub, await sendHttp(hub.port, input, agent, MESSAGE_STATUSES))
        },
        (input) => describeHttp(input, { TOKEN: hub.token }),
        kind === 'mixed' ? 200 : 40,
      )
    }, 120_000)
  }
})
