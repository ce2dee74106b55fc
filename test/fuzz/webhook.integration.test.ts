// Whatever arrives at POST /hooks/<source>, the hub answers a documented status (never a 5xx),
// keeps the connection, and stays up. One property per part of the request made arbitrary.
import http from 'node:http'
import { describe, it } from 'vitest'
import { asWebhook, checkWebhook } from './checks.js'
import { sendHttp, WEBHOOK_STATUSES } from './clients.js'
import { describeHttp } from './describe.js'
import { anyKind, webhookKinds } from './inputs.js'
import { holds, hubPerFile, kindOf, survived } from './property.js'

const world = hubPerFile()
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

describe('POST /hooks/<source> with arbitrary input', () => {
  for (const kind of Object.keys(webhookKinds('fz', ''))) {
    it(`answers ${kind} with a documented status and stays up`, async () => {
      const { hub } = world
      const secret = hub.secrets.fz ?? ''
      await holds(
        kindOf(webhookKinds('fz', secret), kind),
        async (input) => {
          await hub.ensure()
          await survived(hub, await sendHttp(hub.port, input, agent, WEBHOOK_STATUSES))
        },
        (input) => describeHttp(input, { SECRET: secret }),
        kind === 'mixed' ? 200 : 60,
      )
    }, 120_000)
  }

  it('parses any request in-process into an event or a 4xx', async () => {
    await holds(
      anyKind(webhookKinds('fz', 'sbw_fuzz')),
      (input) => {
        const failure = checkWebhook(input)
        if (failure) throw new Error(failure)
      },
      (input) => describeHttp(asWebhook(input), { SECRET: 'sbw_fuzz' }),
      500,
    )
  }, 60_000)
})
