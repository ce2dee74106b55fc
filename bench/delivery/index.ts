// bench/delivery: webhook POST → notification read by an MCP client, through Switchboard (hub +
// channel) and through a baseline channel (HTTP inside the MCP server, in memory), in one run.
// The sender is a process of its own (sender.ts); the targets run side by side and take turns,
// so a slow minute of the machine falls on all of them alike. Then, with the real Claude Code CLI,
// the time from a webhook POST to its in_context receipt (in-context.ts).
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { freePort, waitFor } from '../../test/helpers/home.js'
import { fmt } from '../stats.js'
import { inContextFigures } from './in-context.js'
import { senderKinds } from './sender.js'
import { startSender } from './sender-process.js'
import { connect, measure, switchboard, type Target, track } from './targets.js'

const LATENCY_N = Number(process.env.BENCH_LATENCY_N ?? 5000)
/** Latency is measured in rounds; each round takes every target in turn. */
const ROUNDS = 10
const THROUGHPUT_N = Number(process.env.BENCH_THROUGHPUT_N ?? 20000)
const IN_FLIGHT = 32
const WARMUP = 500
/** Events timed to in_context with the real CLI (0: none); each is a turn of its own. */
const IN_CONTEXT_N = Number(process.env.BENCH_IN_CONTEXT_N ?? 50)
const IN_CONTEXT_WARMUP = 3
const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(' ')

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

console.log(
  `bench/delivery — webhook POST (from a sender process) → MCP notification read by the client ` +
    `(${LATENCY_N} sequential per target after ${WARMUP} warm-up, in ${ROUNDS} alternating rounds; ` +
    `${THROUGHPUT_N} with ${IN_FLIGHT} in flight)`,
)
console.log(`load average at the start: ${load()}`)
const sender = startSender()
/** Another build of Switchboard (its dist/cli/main.js) measured in the same run, to compare a change. */
const beforeCli = process.env.BENCH_BEFORE_CLI
const targets = [await baseline(), await relayFloor(), await switchboard()]
if (beforeCli) targets.push(await switchboard(beforeCli, 'before'))
try {
  for (const kind of senderKinds) {
    const [base, floor, sb, before] = await measure(sender, kind, targets, {
      latencyN: LATENCY_N,
      rounds: ROUNDS,
      warmup: WARMUP,
      throughputN: THROUGHPUT_N,
      inFlight: IN_FLIGHT,
    })
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
          `throughput ${fmt(sb.perSecond / before.perSecond, 2)}x   (this build against BENCH_BEFORE_CLI; target: p50 ≤ 1.05x)`,
      )
  }
} finally {
  sender.stop()
  for (const t of targets) await t.stop()
}
console.log(`load average after: ${load()}`)

if (IN_CONTEXT_N > 0) {
  const f = await inContextFigures(IN_CONTEXT_N, IN_CONTEXT_WARMUP)
  const again = f.tries.filter((t) => t > 1).length
  console.log(
    `\nwebhook POST → in_context, real Claude Code CLI (-p, channel plugin, fake Messages API; ` +
      `${f.toReceipt.n} events one at a time, each its own turn, after ${IN_CONTEXT_WARMUP} warm-up)`,
  )
  console.log(
    `  in_context receipt      p50 ${fmt(f.toReceipt.p50, 0)} ms  p99 ${fmt(f.toReceipt.p99, 0)} ms`,
  )
  console.log(
    `  told a --receipts hook  p50 ${fmt(f.toSubscriber.p50, 0)} ms  p99 ${fmt(f.toSubscriber.p99, 0)} ms   ` +
      `(${again} of ${f.tries.length} written more than once)`,
  )
  console.log(`load average after: ${load()}`)
}
