// The webhook sender, in a process of its own as in life (GitHub, a monitoring system, curl), so
// that handling the hub's answer does not compete with the MCP client reading its notification.
// It stamps each POST's start with the monotonic clock, which every process on the machine shares.
import { Agent, request } from 'node:http'
import { z } from 'zod'

export const senderKinds = ['http', 'fetch'] as const
export type SenderKind = (typeof senderKinds)[number]

const target = z.object({ url: z.string(), headers: z.record(z.string(), z.string()) })
export const senderAsk = z.discriminatedUnion('op', [
  z.object({ op: z.literal('post'), kind: z.enum(senderKinds), target, body: z.string() }),
  /** `count` POSTs one after another to each target, taking turns; each one's time to its answer, in ms. */
  z.object({
    op: z.literal('time'),
    kind: z.enum(senderKinds),
    targets: z.array(target),
    prefix: z.string(),
    count: z.number().int(),
  }),
  z.object({
    op: z.literal('flood'),
    kind: z.enum(senderKinds),
    target,
    prefix: z.string(),
    count: z.number().int(),
    inFlight: z.number().int(),
  }),
])
export type SenderAsk = z.infer<typeof senderAsk>
const message = z.object({ id: z.number(), ask: senderAsk })
/** `startedAt`: process.hrtime.bigint() when the POST began, as a decimal string. */
export type SenderAnswer = { id: number; startedAt: string; failed: string | null; samples?: number[][] }

const agent = new Agent({ keepAlive: true, maxSockets: 32 })

/** Two kinds: node:http with a keep-alive agent (lean), and fetch (what most code uses). */
function post(kind: SenderKind, t: z.infer<typeof target>, body: string): Promise<number> {
  if (kind === 'fetch')
    return fetch(t.url, { method: 'POST', headers: t.headers, body }).then(async (res) => {
      await res.arrayBuffer()
      return res.status
    })
  return new Promise((resolve, reject) => {
    const req = request(t.url, { method: 'POST', agent, headers: t.headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function handle(id: number, ask: SenderAsk): Promise<SenderAnswer> {
  const startedAt = process.hrtime.bigint().toString()
  if (ask.op === 'post') {
    const status = await post(ask.kind, ask.target, ask.body)
    return { id, startedAt, failed: status >= 300 ? `answered ${status}` : null }
  }
  if (ask.op === 'time') {
    const n = ask.targets.length
    const samples = ask.targets.map((): number[] => [])
    // Who goes first moves round each time: no target always follows the same one.
    for (let i = 0; i < ask.count; i++)
      for (let k = 0; k < n; k++) {
        const t = (i + k) % n
        const t0 = process.hrtime.bigint()
        const status = await post(
          ask.kind,
          ask.targets[t] as z.infer<typeof target>,
          `${ask.prefix}${t}-${i}`,
        )
        samples[t]?.push(Number(process.hrtime.bigint() - t0) / 1e6)
        if (status >= 300) return { id, startedAt, failed: `answered ${status}` }
      }
    return { id, startedAt, failed: null, samples }
  }
  let next = 0
  let failed: string | null = null
  const worker = async () => {
    while (next < ask.count && !failed) {
      const status = await post(ask.kind, ask.target, `${ask.prefix}${next++}`)
      if (status >= 300) failed = `answered ${status}`
    }
  }
  await Promise.all(Array.from({ length: ask.inFlight }, worker))
  return { id, startedAt, failed }
}

if (process.send) {
  process.on('message', (raw) => {
    const { id, ask } = message.parse(raw)
    handle(id, ask).then(
      (answer) => process.send?.(answer),
      (err: Error) => process.send?.({ id, startedAt: '0', failed: err.message }),
    )
  })
  process.on('disconnect', () => {
    agent.destroy()
    process.exit(0)
  })
}
