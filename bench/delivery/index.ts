// bench/delivery: webhook POST → notification read by an MCP client, through Switchboard (hub +
// channel) and through a baseline channel (HTTP inside the MCP server, in memory), in one run.
// The sender is a process of its own (sender.ts); the targets run side by side and take turns,
// so a slow minute of the machine falls on all of them alike.
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ChannelNotification } from '../../test/helpers/channel-client.js'
import { CLI, freePort, TestHome, waitFor } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'
import { type SenderAnswer, type SenderAsk, type SenderKind, senderKinds } from './sender.js'

const LATENCY_N = Number(process.env.BENCH_LATENCY_N ?? 5000)
/** Latency is measured in rounds; each round takes every target in turn. */
const ROUNDS = 10
const THROUGHPUT_N = Number(process.env.BENCH_THROUGHPUT_N ?? 20000)
const IN_FLIGHT = 32
const WARMUP = 500

interface Target {
  name: string
  url: string
  headers: Record<string, string>
  client: Client
  tracker: Tracker
  stop(): Promise<void>
}

async function connect(command: string, args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' })
  // Named as Claude Code names itself: the channel then takes the channel-notification rung.
  const client = new Client({ name: 'claude-code', version: '0' })
  await client.connect(transport)
  return client
}

/** Switchboard built from `cli`: this checkout's, or another build's (BENCH_BEFORE_CLI). */
async function switchboard(cli = CLI, name = 'switchboard'): Promise<Target> {
  const home = await TestHome.create()
  const out = await home.cli('source', 'add', 'bench')
  const secret = /secret: (\S+)/.exec(out)?.[1] ?? ''
  const hub = spawn(process.execPath, [cli, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub(10_000)
  const client = await connect(
    process.execPath,
    [cli, 'channel', '--name', 'bench'],
    home.env as Record<string, string>,
  )
  return {
    name,
    url: `${home.url}/hooks/bench`,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' },
    client,
    tracker: track(client),
    async stop() {
      await client.close()
      const exited = new Promise((r) => hub.once('exit', r))
      hub.kill('SIGTERM')
      await exited
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
    tracker: track(client),
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
  const tracker = track(client)
  const arrived = tracker.next('probe')
  await new Promise((r) => setTimeout(r, 300)) // the channel's WebSocket connects after MCP initialize
  await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'probe' })
  await arrived
  return {
    name: 'relay floor',
    url: `http://127.0.0.1:${port}/`,
    headers: {},
    client,
    tracker,
    async stop() {
      await client.close()
      hub.kill()
    },
  }
}

type Tracker = ReturnType<typeof track>

/** Resolves waiters as notifications with a given content arrive, and notes when each did. */
function track(client: Client) {
  const waiting = new Map<string, (at: bigint) => void>()
  let received = 0
  client.setNotificationHandler(ChannelNotification, ({ params }) => {
    const at = process.hrtime.bigint()
    received++
    const done = waiting.get(params.content)
    if (done) {
      waiting.delete(params.content)
      done(at)
    }
  })
  return {
    get received() {
      return received
    },
    /** Resolves with the arrival time of the notification with this content; fails after 10 s. */
    next(content: string) {
      return new Promise<bigint>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no notification "${content}" within 10 s`)), 10_000)
        waiting.set(content, (at) => {
          clearTimeout(timer)
          resolve(at)
        })
      })
    },
  }
}

/** The sender process, and a promise per request to it. */
function startSender() {
  const child: ChildProcess = fork(resolve(import.meta.dirname, 'sender.ts'), [], {
    execArgv: ['--import', 'tsx'],
  })
  const answers = new Map<number, (a: SenderAnswer) => void>()
  child.on('message', (a: SenderAnswer) => {
    answers.get(a.id)?.(a)
    answers.delete(a.id)
  })
  let nextId = 1
  return {
    async ask(ask: SenderAsk): Promise<SenderAnswer> {
      const id = nextId++
      const answer = new Promise<SenderAnswer>((r) => answers.set(id, r))
      child.send({ id, ask })
      const a = await answer
      if (a.failed) throw new Error(`sender: ${a.failed}`)
      return a
    },
    stop: () => child.disconnect(),
  }
}
type Sender = ReturnType<typeof startSender>

const targetOf = (t: Target) => ({ url: t.url, headers: t.headers })

/** One POST at a time: from the moment the sender starts it to the moment the client reads it. */
async function latency(sender: Sender, kind: SenderKind, t: Target, n: number, tag: string) {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const content = `${tag}-${i}`
    const arrived = t.tracker.next(content)
    const answer = sender.ask({ op: 'post', kind, target: targetOf(t), body: content })
    const at = await arrived
    samples.push(Number(at - BigInt((await answer).startedAt)) / 1e6)
  }
  return samples
}

async function throughput(sender: Sender, kind: SenderKind, t: Target, n: number, tag: string) {
  const start = t.tracker.received
  const t0 = process.hrtime.bigint()
  await sender.ask({
    op: 'flood',
    kind,
    target: targetOf(t),
    prefix: `${tag}-`,
    count: n,
    inFlight: IN_FLIGHT,
  })
  await waitFor(() => t.tracker.received - start >= n, 60_000, `${n} notifications at ${t.name}`)
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  return { perSecond: n / seconds, delivered: t.tracker.received - start }
}

async function measure(sender: Sender, kind: SenderKind, targets: Target[]) {
  const samples = new Map<Target, number[]>(targets.map((t) => [t, []]))
  for (const t of targets) await latency(sender, kind, t, WARMUP, `${kind}-warm`)
  for (let round = 0; round < ROUNDS; round++)
    for (const t of targets)
      samples.get(t)?.push(...(await latency(sender, kind, t, LATENCY_N / ROUNDS, `${kind}-lat-${round}`)))
  const results = []
  for (const t of targets) {
    const tp = await throughput(sender, kind, t, THROUGHPUT_N, `${kind}-tp`)
    results.push({ name: t.name, ...summarize(samples.get(t) ?? []), ...tp })
  }
  return results
}

console.log(
  `bench/delivery — webhook POST (from a sender process) → MCP notification read by the client ` +
    `(${LATENCY_N} sequential per target after ${WARMUP} warm-up, in ${ROUNDS} alternating rounds; ` +
    `${THROUGHPUT_N} with ${IN_FLIGHT} in flight)`,
)
const sender = startSender()
/** Another build of Switchboard (its dist/cli/main.js) measured in the same run, to compare a change. */
const beforeCli = process.env.BENCH_BEFORE_CLI
const targets = [await baseline(), await relayFloor(), await switchboard()]
if (beforeCli) targets.push(await switchboard(beforeCli, 'before'))
try {
  for (const kind of senderKinds) {
    const [base, floor, sb, before] = await measure(sender, kind, targets)
    if (!base || !floor || !sb) throw new Error('a target is missing')
    console.log(`\nsender: ${kind === 'http' ? 'node:http keep-alive agent' : 'fetch'}`)
    for (const r of [base, floor, sb, ...(before ? [before] : [])])
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
    if (before)
      console.log(
        `  vs before    p50 ${fmt(sb.p50 / before.p50, 2)}x  p99 ${fmt(sb.p99 / before.p99, 2)}x  ` +
          `throughput ${fmt(sb.perSecond / before.perSecond, 2)}x   (this build against BENCH_BEFORE_CLI)`,
      )
  }
} finally {
  sender.stop()
  for (const t of targets) await t.stop()
}
