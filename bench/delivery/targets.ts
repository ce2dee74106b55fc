// What the delivery benches share: a target (where the sender POSTs, and the MCP client that reads
// the notifications), Switchboard's channel as Claude Code starts it, and the two measures — one
// POST at a time from the sender's start to the client's read, and a flood for events/s.
import { execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ChannelNotification } from '../../test/helpers/channel-client.js'
import { CLI, TestHome, waitFor } from '../../test/helpers/home.js'
import { summarize } from '../stats.js'
import type { SenderKind } from './sender.js'
import type { Sender } from './sender-process.js'

const run = promisify(execFile)

export interface Target {
  name: string
  url: string
  headers: Record<string, string>
  client: Client
  tracker: Tracker
  /** The hub processes it goes through, to read their CPU time. */
  hubPids?: number[]
  stop(): Promise<void>
}

export async function connect(command: string, args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' })
  // Named as Claude Code names itself: the channel then takes the channel-notification rung.
  const client = new Client({ name: 'claude-code', version: '0' })
  await client.connect(transport)
  return client
}

/** The process on the other end of a client from connect(). */
export const pidOf = (client: Client): number | null =>
  client.transport instanceof StdioClientTransport ? client.transport.pid : null

/** `switchboard channel --name <name> [--topics …]` on a home, as Claude Code starts it. */
export function channel(home: TestHome, name: string, topics?: string[], cli = CLI) {
  const args = [cli, 'channel', '--name', name, ...(topics ? ['--topics', topics.join(',')] : [])]
  return connect(process.execPath, args, home.env as Record<string, string>)
}

/** The headers a webhook source wants, given the secret `source add` printed. */
export const hookHeaders = (secret: string) => ({
  authorization: `Bearer ${secret}`,
  'content-type': 'text/plain',
})

/** Switchboard built from `cli` on SQLite: this checkout's, or another build's (BENCH_BEFORE_CLI). */
export async function switchboard(cli = CLI, name = 'switchboard'): Promise<Target> {
  const home = await TestHome.create()
  const hub = spawn(process.execPath, [cli, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub(10_000)
  // With the build under test, once its hub runs: this one adds it through the hub's API (and would
  // start a hub of its own if none ran); an older one writes the store.
  const { stdout: out } = await run(process.execPath, [cli, 'source', 'add', 'bench'], { env: home.env })
  const secret = /secret: (\S+)/.exec(out)?.[1] ?? ''
  const client = await channel(home, 'bench', undefined, cli)
  return {
    name,
    url: `${home.url}/hooks/bench`,
    headers: hookHeaders(secret),
    client,
    tracker: track(client),
    hubPids: hub.pid ? [hub.pid] : [],
    async stop() {
      await client.close()
      const exited = new Promise((r) => hub.once('exit', r))
      hub.kill('SIGTERM')
      await exited
      await home.cleanup()
    },
  }
}

export type Tracker = ReturnType<typeof track>

/** Resolves waiters as notifications with a given content arrive, and notes when each did. */
export function track(client: Client) {
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

export const targetOf = (t: Pick<Target, 'url' | 'headers'>) => ({ url: t.url, headers: t.headers })

/** One POST at a time: from the moment the sender starts it to the moment the client reads it. */
export async function latency(sender: Sender, kind: SenderKind, t: Target, n: number, tag: string) {
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

/** One stream of a flood: `count` POSTs to `target`, `inFlight` at a time, read at `tracker`. */
export interface Stream {
  sender: Sender
  target: Pick<Target, 'url' | 'headers'>
  tracker: Tracker
  count: number
  inFlight: number
}

/**
 * Streams at once, each from its own sender ask; done when every tracker has read its count. A
 * tracker may take several streams: it waits for all of them.
 */
export async function flood(kind: SenderKind, streams: Stream[], tag: string, what: string) {
  const trackers = new Map<Tracker, { start: number; count: number }>()
  for (const s of streams) {
    const seen = trackers.get(s.tracker) ?? { start: s.tracker.received, count: 0 }
    seen.count += s.count
    trackers.set(s.tracker, seen)
  }
  const total = streams.reduce((sum, s) => sum + s.count, 0)
  const t0 = process.hrtime.bigint()
  await Promise.all(
    streams.map((s, i) =>
      s.sender.ask({
        op: 'flood',
        kind,
        target: targetOf(s.target),
        prefix: `${tag}-${i}-`,
        count: s.count,
        inFlight: s.inFlight,
      }),
    ),
  )
  const delivered = () => [...trackers].reduce((sum, [t, { start }]) => sum + t.received - start, 0)
  await waitFor(
    () => [...trackers].every(([t, { start, count }]) => t.received - start >= count),
    60_000,
    `${total} notifications at ${what}`,
  )
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  return { perSecond: total / seconds, seconds, delivered: delivered() }
}

export async function throughput(
  sender: Sender,
  kind: SenderKind,
  t: Target,
  n: number,
  tag: string,
  inFlight: number,
) {
  const { perSecond, delivered } = await flood(
    kind,
    [{ sender, target: t, tracker: t.tracker, count: n, inFlight }],
    tag,
    t.name,
  )
  return { perSecond, delivered }
}

export interface Plan {
  /** Sequential POSTs per target, over all rounds. */
  latencyN: number
  /** Latency is measured in rounds; each round takes every target in turn. */
  rounds: number
  warmup: number
  throughputN: number
  inFlight: number
  /** Called around each target's flood (to read CPU time and commit counts, say). */
  aroundFlood?: <T>(t: Target, run: () => Promise<T>) => Promise<T>
}

/** Latency of every target taking turns round by round, then each target's throughput. */
export async function measure(sender: Sender, kind: SenderKind, targets: Target[], plan: Plan) {
  const samples = new Map<Target, number[]>(targets.map((t) => [t, []]))
  for (const t of targets) await latency(sender, kind, t, plan.warmup, `${kind}-warm`)
  for (let round = 0; round < plan.rounds; round++)
    for (const t of targets)
      samples
        .get(t)
        ?.push(...(await latency(sender, kind, t, plan.latencyN / plan.rounds, `${kind}-lat-${round}`)))
  const results = []
  for (const t of targets) {
    const run = () => throughput(sender, kind, t, plan.throughputN, `${kind}-tp`, plan.inFlight)
    const tp = await (plan.aroundFlood ? plan.aroundFlood(t, run) : run())
    results.push({ name: t.name, ...summarize(samples.get(t) ?? []), ...tp })
  }
  return results
}
