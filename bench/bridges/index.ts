// bench/bridges: a DM on each platform → the channel notification an MCP client reads, through the
// hub's bridge (the platform's real client library) and a fake platform server on 127.0.0.1; the
// same for a message written in the session's own thread of a group added with --topics (the thread
// looked up in the store on the way in); and a burst of 1,000 DMs, counted at the channel for
// completeness (nothing lost, nothing twice).
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { BRIDGE_PLATFORMS, type BridgePlatform } from '../../src/core/bridges.js'
import { bridgeAddArgs, FAKES, pair, person, spawnHub } from '../../test/helpers/bridge-world.js'
import { ChannelNotification } from '../../test/helpers/channel-client.js'
import { CLI, TestHome, waitFor } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'

const MESSAGES = Number(process.env.BENCH_BRIDGE_MESSAGES ?? 300)
const WARMUP = 30
const BURST = Number(process.env.BENCH_BRIDGE_BURST ?? 1000)
/** A group each platform's fake knows, added with --topics: the session's thread opens there. */
const GROUPS: Record<BridgePlatform, string> = {
  telegram: '-1001234567890',
  discord: '300000000000000001',
  slack: 'C0GROUP01',
}
const PLATFORMS = (process.env.BENCH_PLATFORMS?.split(',') ?? BRIDGE_PLATFORMS) as BridgePlatform[]

async function measure(platform: BridgePlatform): Promise<string[]> {
  const fake = await FAKES[platform]()
  const home = await TestHome.create()
  await home.cli(...bridgeAddArgs(fake))
  const group = GROUPS[platform]
  fake.addGroup(group)
  await home.cli('bridge', 'group', 'add', platform, group, '--topics')
  const hub = spawnHub(home)
  const arrived = new Map<string, () => void>()
  const seen = new Map<string, number>()
  let chatOfFirst: string | undefined
  const client = new Client({ name: 'claude-code', version: '0' })
  client.setNotificationHandler(ChannelNotification, ({ params }) => {
    seen.set(params.content, (seen.get(params.content) ?? 0) + 1)
    chatOfFirst ??= params.meta?.chat_id
    arrived.get(params.content)?.()
  })
  try {
    await home.waitForHub(15_000)
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'channel', '--name', 'bench'],
        env: home.env as Record<string, string>,
        stderr: 'ignore',
      }),
    )
    await fake.waitFor(() => fake.receivers() > 0, 'the bridge', 30_000)
    const ann = person(platform, 1, 'ann')
    await pair(home, fake, ann)

    const latencies: number[] = []
    for (let i = 0; i < MESSAGES + WARMUP; i++) {
      const text = `latency ${i}`
      const shown = new Promise<void>((resolve) => arrived.set(text, resolve))
      const t0 = performance.now()
      await fake.dm(ann, text)
      await shown
      if (i >= WARMUP) latencies.push(performance.now() - t0)
      arrived.delete(text)
    }
    const latency = summarize(latencies)

    // The session answers the group once, which opens its thread; then messages are written there.
    chatOfFirst = undefined
    await fake.groupMessage(group, ann, 'bench, who is here?', { mention: true })
    await waitFor(() => chatOfFirst !== undefined, 30_000, 'the group message at the channel')
    await client.callTool({ name: 'reply', arguments: { chat_id: chatOfFirst, text: 'bench here' } })
    const thread = await fake.waitFor(() => fake.threads()[0], 'the session’s thread', 30_000)
    const inThread: number[] = []
    for (let i = 0; i < MESSAGES + WARMUP; i++) {
      const text = `thread ${i}`
      const shown = new Promise<void>((resolve) => arrived.set(text, resolve))
      const t0 = performance.now()
      await fake.groupMessage(group, ann, text, { thread: thread.thread })
      await shown
      if (i >= WARMUP) inThread.push(performance.now() - t0)
      arrived.delete(text)
    }
    const threadLatency = summarize(inThread)

    const t0 = performance.now()
    for (let i = 0; i < BURST; i++) await fake.dm(ann, `burst ${i}`)
    const burstKeys = Array.from({ length: BURST }, (_, i) => `burst ${i}`)
    await waitFor(() => burstKeys.every((k) => seen.has(k)), 120_000, `${BURST} burst messages`)
    const burstMs = performance.now() - t0
    // Anything shown twice would have arrived by now; give late duplicates a moment anyway.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const twice = burstKeys.filter((k) => (seen.get(k) ?? 0) > 1).length
    return [
      `${platform.padEnd(9)} DM → notification  p50 ${fmt(latency.p50, 1)} ms  p99 ${fmt(latency.p99, 1)} ms  (n=${latency.n})`,
      `${platform.padEnd(9)} thread → notification  p50 ${fmt(threadLatency.p50, 1)} ms  p99 ${fmt(threadLatency.p99, 1)} ms  (n=${threadLatency.n})`,
      `${platform.padEnd(9)} burst of ${BURST}: ${BURST - burstKeys.filter((k) => !seen.has(k)).length} delivered, ${twice} twice, ${fmt(burstMs / 1000, 2)} s (${fmt(BURST / (burstMs / 1000), 0)} msg/s)`,
    ]
  } finally {
    await client.close().catch(() => {})
    hub.kill('SIGTERM')
    await home.cleanup()
    await fake.close()
  }
}

const lines: string[] = []
for (const platform of PLATFORMS) lines.push(...(await measure(platform)))
process.stdout.write(
  `bench/bridges (each platform's real client library against its fake on 127.0.0.1)\n${lines.join('\n')}\n`,
)
process.exit(0)
