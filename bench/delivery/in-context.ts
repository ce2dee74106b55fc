// bench/delivery's in_context figure (issue 23): from a webhook POST to Claude Code's own record of
// the event in Claude's context, with the real Claude Code CLI offline against the fake Messages API
// (a `-p` session with the channel plugin, started as the end-to-end tests start one). One event at a
// time, each sent while the session is idle and each its own turn. Two ends are timed: the hub's
// in_context receipt (the channel's clock when the transcript showed it), and the signed receipt an
// outbound webhook created with --receipts is POSTed, as a sender's own system would hear it.
import { createServer } from 'node:http'
import { FakeAnthropic } from '../../test/fakes/anthropic.js'
import { ClaudeHome } from '../../test/helpers/claude.js'
import { startedSession, type World } from '../../test/helpers/e2e.js'
import { freePort, TestHome } from '../../test/helpers/home.js'
import { PLUGIN_CHANNEL } from '../../test/helpers/plugin.js'
import { deliveriesOf, postWebhook } from '../../test/helpers/receipts.js'
import { summarize } from '../stats.js'

/** A local receiver of the outbound webhook: resolves as each event's in_context receipt arrives. */
async function receiptReceiver() {
  const waiting = new Map<string, (at: bigint) => void>()
  const arrived = new Map<string, bigint>()
  const port = await freePort()
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => {
      raw += c
    })
    req.on('end', () => {
      const at = process.hrtime.bigint()
      res.writeHead(200).end()
      const body = JSON.parse(raw) as { type?: string; stage?: string; event_id?: string }
      if (body.type !== 'receipt' || body.stage !== 'in_context' || !body.event_id) return
      arrived.set(body.event_id, at)
      waiting.get(body.event_id)?.(at)
    })
  })
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${port}/`,
    next(id: string): Promise<bigint> {
      const already = arrived.get(id)
      if (already !== undefined) return Promise.resolve(already)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no in_context receipt for ${id} within 30 s`)),
          30_000,
        )
        waiting.set(id, (at) => {
          clearTimeout(timer)
          resolve(at)
        })
      })
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

export interface InContextFigures {
  /** POST → the hub's in_context receipt (ms). */
  toReceipt: { p50: number; p99: number; n: number }
  /** POST → the receipt POSTed to an outbound webhook that asked (ms). */
  toSubscriber: { p50: number; p99: number; n: number }
  /** Each event's tries: 1 unless the channel had to write it again. */
  tries: number[]
}

/** `n` events after `warmup`, each waited for in context and its turn ended before the next. */
export async function inContextFigures(n: number, warmup: number): Promise<InContextFigures> {
  const world: World = {
    fake: await new FakeAnthropic().start(),
    home: await TestHome.create(),
    claude: new ClaudeHome({ channelPlugin: 'switchboard' }),
    closers: [],
  }
  const receiver = await receiptReceiver()
  try {
    // The session's channel starts the hub, in Claude Code's environment; the source is added through it.
    const session = await startedSession(world, PLUGIN_CHANNEL)
    const secret = await world.home.addSource('bench')
    world.fake.respond(() => ({ text: 'noted' }))
    await world.home.cli('subscribe', '--url', receiver.url, '--receipts')
    const toReceipt: number[] = []
    const toSubscriber: number[] = []
    const tries: number[] = []
    for (let i = 0; i < warmup + n; i++) {
      const startedAt = Date.now()
      const started = process.hrtime.bigint()
      const id = await postWebhook(world, 'bench', secret, `in-context ${i}`)
      const told = await receiver.next(id)
      const [delivery] = (await deliveriesOf(world, id)).filter((d) => d.in_context)
      await session.waitForTurns(i + 1)
      if (i < warmup || !delivery?.in_context) continue
      toReceipt.push(Date.parse(delivery.in_context) - startedAt)
      toSubscriber.push(Number(told - started) / 1e6)
      tries.push(delivery.tries)
    }
    return { toReceipt: summarize(toReceipt), toSubscriber: summarize(toSubscriber), tries }
  } finally {
    for (const close of world.closers.splice(0).reverse()) await close()
    await receiver.close()
    await world.fake.close()
    await world.home.cleanup()
    world.claude.cleanup()
  }
}
