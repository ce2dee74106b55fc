// bench/delivery: webhook POST → notification read by an MCP client, through Switchboard (hub +
// channel) and through a baseline channel (HTTP inside the MCP server, in memory), in one run.
import { spawn } from 'node:child_process'
import { Agent, request } from 'node:http'
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { z } from 'zod'
import { CLI, freePort, TestHome, waitFor } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'

const LATENCY_N = Number(process.env.BENCH_LATENCY_N ?? 3000)
const THROUGHPUT_N = Number(process.env.BENCH_THROUGHPUT_N ?? 20000)
const IN_FLIGHT = 32
const WARMUP = 500

const Notification = z.object({
  method: z.literal('notifications/claude/channel'),
  params: z.object({ content: z.string() }).passthrough(),
})

interface Target {
  name: string
  url: string
  headers: Record<string, string>
  client: Client
  stop(): Promise<void>
}

async function connect(command: string, args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' })
  // Named as Claude Code names itself: the channel then takes the channel-notification rung.
  const client = new Client({ name: 'claude-code', version: '0' })
  await client.connect(transport)
  return client
}

async function switchboard(): Promise<Target> {
  const home = await TestHome.create()
  const out = await home.cli('source', 'add', 'bench')
  const secret = /secret: (\S+)/.exec(out)?.[1] ?? ''
  const hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub(10_000)
  const client = await connect(
    process.execPath,
    [CLI, 'channel', '--name', 'bench'],
    home.env as Record<string, string>,
  )
  return {
    name: 'switchboard',
    url: `${home.url}/hooks/bench`,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' },
    client,
    async stop() {
      await client.close()
      hub.kill('SIGTERM')
      await home.cleanup()
    },
  }
}

async function baseline(): Promise<Target> {
  const port = await freePort()
  const script = resolve(import.meta.dirname, 'baseline-channel.ts')
  const client = await connect(
    process.execPath,
    ['--import', 'tsx', script, String(port)],
    process.env as Record<string, string>,
  )
  await waitFor(
    async () =>
      (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'probe' }).catch(() => null)) !==
      null,
    10_000,
    'baseline',
  )
  return {
    name: 'baseline',
    url: `http://127.0.0.1:${port}/`,
    headers: {},
    client,
    stop: () => client.close(),
  }
}

/** Not a product: the cheapest possible hub + channel, to show what the extra process hop costs. */
async function relayFloor(): Promise<Target> {
  const port = await freePort()
  const script = resolve(import.meta.dirname, 'relay-floor.ts')
  const hub = spawn(process.execPath, ['--import', 'tsx', script, 'hub', String(port)], { stdio: 'ignore' })
  await waitFor(
    async () =>
      (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '' }).catch(() => null)) !== null,
    10_000,
    'relay hub',
  )
  const client = await connect(
    process.execPath,
    ['--import', 'tsx', script, 'channel', String(port)],
    process.env as Record<string, string>,
  )
  const probe = track(client)
  const arrived = probe.next('probe')
  await new Promise((r) => setTimeout(r, 300)) // the channel's WebSocket connects after MCP initialize
  await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'probe' })
  await arrived
  return {
    name: 'relay floor',
    url: `http://127.0.0.1:${port}/`,
    headers: {},
    client,
    async stop() {
      await client.close()
      hub.kill()
    },
  }
}

/** Resolves waiters as notifications with a given content arrive. */
function track(client: Client) {
  const waiting = new Map<string, () => void>()
  let received = 0
  client.setNotificationHandler(Notification, ({ params }) => {
    received++
    const done = waiting.get(params.content)
    if (done) {
      waiting.delete(params.content)
      done()
    }
  })
  return {
    get received() {
      return received
    },
    /** Resolves when the notification with this content arrives; fails loudly after 10 s. */
    next(content: string) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no notification "${content}" within 10 s`)), 10_000)
        waiting.set(content, () => {
          clearTimeout(timer)
          resolve()
        })
      })
    },
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT })

/** Two webhook senders: node:http with a keep-alive agent (lean), and fetch (what most code uses). */
type Sender = 'http' | 'fetch'
let sender: Sender = 'http'

function post(target: Target, body: string): Promise<number> {
  if (sender === 'fetch')
    return fetch(target.url, { method: 'POST', headers: target.headers, body }).then(async (res) => {
      await res.arrayBuffer()
      return res.status
    })
  return postHttp(target, body)
}

function postHttp(target: Target, body: string): Promise<number> {
  return new Promise((resolvePost, reject) => {
    const req = request(target.url, { method: 'POST', agent, headers: target.headers }, (res) => {
      res.resume()
      res.on('end', () => resolvePost(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function latency(target: Target, tracker: ReturnType<typeof track>, n: number, tag: string) {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const content = `${tag}-${i}`
    const arrived = tracker.next(content)
    const t0 = performance.now()
    const status = post(target, content)
    await arrived
    samples.push(performance.now() - t0)
    if ((await status) >= 300) throw new Error(`${target.name} answered ${await status}`)
  }
  return summarize(samples)
}

async function throughput(target: Target, tracker: ReturnType<typeof track>, n: number) {
  const start = tracker.received
  const t0 = performance.now()
  let sent = 0
  const worker = async () => {
    while (sent < n) {
      const i = sent++
      const status = await post(target, `tp-${i}`)
      if (status >= 300) throw new Error(`${target.name} answered ${status}`)
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  await waitFor(() => tracker.received - start >= n, 60_000, `${n} notifications at ${target.name}`)
  const seconds = (performance.now() - t0) / 1000
  return { perSecond: n / seconds, delivered: tracker.received - start }
}

async function measure(make: () => Promise<Target>) {
  const target = await make()
  try {
    const tracker = track(target.client)
    await latency(target, tracker, WARMUP, 'warm')
    const lat = await latency(target, tracker, LATENCY_N, 'lat')
    const tp = await throughput(target, tracker, THROUGHPUT_N)
    return { name: target.name, ...lat, ...tp }
  } finally {
    await target.stop()
  }
}

console.log(
  `bench/delivery — webhook POST → MCP notification read by the client ` +
    `(${LATENCY_N} sequential after ${WARMUP} warm-up; ${THROUGHPUT_N} with ${IN_FLIGHT} in flight)`,
)
for (const kind of ['http', 'fetch'] as const) {
  sender = kind
  const base = await measure(baseline)
  const floor = await measure(relayFloor)
  const sb = await measure(switchboard)
  console.log(`\nsender: ${kind === 'http' ? 'node:http keep-alive agent' : 'fetch'}`)
  for (const r of [base, floor, sb])
    console.log(
      `  ${r.name.padEnd(12)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  ${fmt(r.perSecond, 0).padStart(6)} events/s  ` +
        `delivered ${r.delivered}/${THROUGHPUT_N}`,
    )
  console.log(
    `  ratio        p50 ${fmt(sb.p50 / base.p50, 2)}x  p99 ${fmt(sb.p99 / base.p99, 2)}x  ` +
      `throughput ${fmt(sb.perSecond / base.perSecond, 2)}x   (targets: p50, p99 ≤ 1.5x; throughput ≥ 0.8x)`,
  )
  console.log(
    `  floor ratio  p50 ${fmt(floor.p50 / base.p50, 2)}x  p99 ${fmt(floor.p99 / base.p99, 2)}x  ` +
      `throughput ${fmt(floor.perSecond / base.perSecond, 2)}x   (a bare two-process relay against the baseline)`,
  )
}
agent.destroy()
