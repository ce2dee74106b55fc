// bench/delivery/scale-out.ts (npm run bench:scale-out): webhook POST → notification read by an MCP
// client, through Switchboard on SQLite and on Postgres in one run, the targets taking turns as in
// bench/delivery:
//   sqlite     — one hub on its SQLite file, one channel (bench/delivery's switchboard target);
//   pg 1 hub   — one hub on a Postgres database, its channel on it, the sender POSTing to it;
//   pg 2 hubs  — two hubs on another database: the sender POSTs to hub B, the channel is on hub A.
// Then scale-out throughput: two channels, `left` and `right`, each subscribed to its own topic, and
// two sender processes each flooding half the events. Through one hub, everything goes to that hub;
// through two, the channels sit on different hubs and each sender POSTs to the hub its channel is
// NOT on, so every event crosses from one hub to the other through the database.
// Postgres is a throwaway cluster with fsync on (startPostgres({ durable: true })): commits are real.
// During each flood the bench reads what bounds it: CPU seconds of every process (Postgres, hubs,
// channels, the MCP client, senders) and of the machine from /proc, and from Postgres the write
// transactions (xids), the event writes (updates of event_seq: one per group commit) and WAL fsyncs.

import { availableParallelism } from 'node:os'
import pg from 'pg'
import { type ClusterHub, HubCluster } from '../../test/helpers/hub-cluster.js'
import { startPostgres } from '../../test/helpers/postgres.js'
import { fmt } from '../stats.js'
import { everyProcess, lastPid, machineCpu, postgresPids } from './machine.js'
import { type SenderKind, senderKinds } from './sender.js'
import { startSender } from './sender-process.js'
import {
  channel,
  flood,
  hookHeaders,
  measure,
  pidOf,
  type Stream,
  switchboard,
  type Target,
  type Tracker,
  track,
} from './targets.js'

const LATENCY_N = Number(process.env.BENCH_LATENCY_N ?? 2000)
/** Latency is measured in rounds; each round takes every target in turn. */
const ROUNDS = 10
const WARMUP = 300
const THROUGHPUT_N = Number(process.env.BENCH_THROUGHPUT_N ?? 10000)
const IN_FLIGHT = 32
/** Events per scale-out flood (half from each sender), and how many turns each layout gets. */
const SCALE_N = Number(process.env.BENCH_SCALE_OUT_N ?? 6000)
const SCALE_ROUNDS = Number(process.env.BENCH_SCALE_OUT_ROUNDS ?? 2)
const KIND = (process.env.BENCH_SENDER ?? 'http') as SenderKind
if (!senderKinds.includes(KIND)) throw new Error(`BENCH_SENDER: one of ${senderKinds.join(', ')}`)
/**
 * Postgres hands a backend's statistics (pg_stat_wal, pg_stat_database, pg_stat_user_tables) to
 * the views at most once a second, and an idle one's only after 10 s: the counts that come from
 * them are read this long after a flood. 0 leaves them out (and the run is shorter).
 */
const STATS_WAIT_MS = Number(process.env.BENCH_PG_STATS_WAIT_MS ?? 10_500)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** What to stop when the run ends, however it ends: run last first. */
const cleanups: (() => unknown)[] = []

// ---- the setup ---------------------------------------------------------------------------------

console.log(
  `bench/delivery/scale-out — webhook POST (from a sender process) → MCP notification read by the client, ` +
    `SQLite and Postgres (fsync on) in one run (${LATENCY_N} sequential per target after ${WARMUP} warm-up, ` +
    `in ${ROUNDS} alternating rounds; ${THROUGHPUT_N} with ${IN_FLIGHT} in flight; scale-out: ${SCALE_N} ` +
    `per flood from 2 senders at ${IN_FLIGHT / 2} in flight each, ${SCALE_ROUNDS} alternating rounds); ` +
    `${availableParallelism()} cores`,
)

try {
  const server = await startPostgres({ durable: true })
  cleanups.push(() => server.stop())
  const senders = [startSender(), startSender()] as const
  for (const s of senders) cleanups.push(() => s.stop())
  const [sender, sender2] = senders

  /** A database with its hubs, the sources every target here uses, and a connection to read stats. */
  interface Site {
    cluster: HubCluster
    secrets: Record<string, string>
    stats: pg.Client
  }

  async function site(hubs: number): Promise<Site> {
    const url = await server.database()
    const cluster = await HubCluster.create(url, hubs)
    cleanups.push(() => cluster.cleanup())
    await cluster.startAll()
    const secrets: Record<string, string> = {}
    for (const source of ['bench', 'left', 'right'])
      secrets[source] = await cluster.hub(0).home.addSource(source)
    const stats = new pg.Client({ connectionString: url })
    await stats.connect()
    cleanups.push(() => stats.end())
    return { cluster, secrets, stats }
  }

  const hookOf = (s: Site, hub: ClusterHub, source: string) => ({
    url: `${hub.url}/hooks/${source}`,
    headers: hookHeaders(s.secrets[source] ?? ''),
  })

  /** Resolves once a POST to `hook` reaches the client: the channel is connected and subscribed. */
  async function probe(hook: { url: string; headers: Record<string, string> }, tracker: Tracker) {
    const arrived = tracker.next('probe')
    const res = await fetch(hook.url, { method: 'POST', headers: hook.headers, body: 'probe' })
    if (res.status >= 300) throw new Error(`probe to ${hook.url}: ${res.status}`)
    await arrived
  }

  /** The channel `bench` (topic bench) on hub `readAt`; the sender POSTs to hub `postTo`. */
  async function pgTarget(name: string, s: Site, postTo: ClusterHub, readAt: ClusterHub): Promise<Target> {
    const client = await channel(readAt.home, 'bench', ['bench'])
    cleanups.push(() => client.close())
    const tracker = track(client)
    const hook = hookOf(s, postTo, 'bench')
    await probe(hook, tracker)
    return { name, ...hook, client, tracker, stop: () => client.close() }
  }

  /** Channels `left` and `right` (each on its own topic) on the hubs given; where each is read. */
  async function pair(leftOn: ClusterHub, rightOn: ClusterHub) {
    const left = await channel(leftOn.home, 'left', ['left'])
    cleanups.push(() => left.close())
    const right = await channel(rightOn.home, 'right', ['right'])
    cleanups.push(() => right.close())
    return { left, right, leftTracker: track(left), rightTracker: track(right) }
  }

  const one = await site(1)
  const two = await site(2)
  const [hub1, hubA, hubB] = [one.cluster.hub(0), two.cluster.hub(0), two.cluster.hub(1)]

  const sqlite = await switchboard(undefined, 'sqlite')
  cleanups.push(() => sqlite.stop())
  await probe(sqlite, sqlite.tracker)
  const targets = [
    sqlite,
    await pgTarget('pg 1 hub', one, hub1, hub1),
    await pgTarget('pg 2 hubs B→A', two, hubB, hubA),
  ]

  // Scale-out: through one hub, both channels on it and both senders POST to it; through two, `left`
  // is on A and `right` on B, and the sender of left's events POSTs to B, that of right's to A.
  const onOne = await pair(hub1, hub1)
  const onTwo = await pair(hubA, hubB)
  const layouts = [
    {
      name: 'pg 1 hub',
      site: one,
      streams: [
        { sender, hook: hookOf(one, hub1, 'left'), tracker: onOne.leftTracker },
        { sender: sender2, hook: hookOf(one, hub1, 'right'), tracker: onOne.rightTracker },
      ],
    },
    {
      name: 'pg 2 hubs',
      site: two,
      streams: [
        { sender, hook: hookOf(two, hubB, 'left'), tracker: onTwo.leftTracker },
        { sender: sender2, hook: hookOf(two, hubA, 'right'), tracker: onTwo.rightTracker },
      ],
    },
  ]
  for (const layout of layouts) for (const s of layout.streams) await probe(s.hook, s.tracker)

  // ---- what each flood cost ----------------------------------------------------------------------

  const channelPids = [
    ...targets.map((t) => pidOf(t.client)),
    ...[onOne, onTwo].flatMap((p) => [pidOf(p.left), pidOf(p.right)]),
  ]
  const hubs = [
    { name: 'sqlite', pids: sqlite.hubPids ?? [] },
    { name: 'pg 1 hub', pids: [hub1.process?.pid ?? 0] },
    { name: 'A', pids: [hubA.process?.pid ?? 0] },
    { name: 'B', pids: [hubB.process?.pid ?? 0] },
  ]

  /** The groups of this bench's own processes in cpuNow(). */
  const mine = ['postgres', ...hubs.map((h) => `hub ${h.name}`), 'channels', 'client', 'senders']

  /** CPU seconds so far, by who spent them: this bench's processes, and the rest by command name. */
  function cpuNow(): Record<string, number> {
    const groups: [string, Set<number>][] = [
      ['postgres', new Set(postgresPids(server.port))],
      ...hubs.map((h): [string, Set<number>] => [`hub ${h.name}`, new Set(h.pids)]),
      ['channels', new Set(channelPids.filter((p) => p !== null))],
      ['client', new Set([process.pid])],
      ['senders', new Set(senders.map((s) => s.pid ?? 0))],
    ]
    const cpu: Record<string, number> = {}
    for (const [pid, p] of everyProcess()) {
      const group = groups.find(([, pids]) => pids.has(pid))?.[0] ?? `other ${p.name.replace(/[/:].*$/, '')}`
      cpu[group] = (cpu[group] ?? 0) + p.seconds
    }
    return cpu
  }

  /** Counters Postgres keeps up to date at once (the xid counter, event_seq, WAL position). */
  async function pgNow(s: Site) {
    const { rows } = await s.stats.query(
      `SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xids,
       (SELECT last FROM event_seq) AS events, pg_current_wal_lsn() - '0/0'::pg_lsn AS wal`,
    )
    const r = rows[0] as Record<string, string>
    return { xids: Number(r.xids), events: Number(r.events), walBytes: Number(r.wal) }
  }

  /** Counters from the statistics views, read once they have settled (STATS_WAIT_MS). */
  async function pgSettled() {
    await sleep(STATS_WAIT_MS)
    const bySite = async (s: Site) => {
      const { rows } = await s.stats.query(
        `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
         (SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'event_seq') AS writes`,
      )
      const r = rows[0] as Record<string, string>
      return { commits: Number(r.commits), writes: Number(r.writes) }
    }
    const { rows } = await one.stats.query('SELECT wal_sync, wal_write FROM pg_stat_wal')
    const wal = rows[0] as Record<string, string>
    return {
      walSyncs: Number(wal.wal_sync),
      walWrites: Number(wal.wal_write),
      sites: new Map([
        [one, await bySite(one)],
        [two, await bySite(two)],
      ]),
    }
  }
  type Settled = Awaited<ReturnType<typeof pgSettled>>
  /** The last settled reading, taken after the last Postgres flood: the next one's starting point. */
  let settled: Settled | null = null

  interface Cost {
    events: number
    seconds: number
    /** Processes the machine started during the floods. */
    started: number
    machine: { busy: number; iowait: number; total: number }
    cpu: Record<string, number>
    pg?: {
      xids: number
      events: number
      walBytes: number
      commits?: number
      writes?: number
      walSyncs?: number
      walWrites?: number
    }
  }
  const costs = new Map<string, Cost>()

  const minus = <T extends Record<string, number>>(a: T, b: T): T =>
    Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v - (b[k] ?? 0)])) as T
  const plus = <T extends Record<string, number | undefined>>(a: T | undefined, b: T): T =>
    Object.fromEntries(Object.entries(b).map(([k, v]) => [k, (v ?? 0) + (a?.[k] ?? 0)])) as T

  /** Runs a flood of `events` and adds what it cost to `label`'s account. */
  async function observed<T>(
    label: string,
    s: Site | null,
    events: number,
    run: () => Promise<T>,
  ): Promise<T> {
    if (s && STATS_WAIT_MS > 0) settled ??= await pgSettled()
    const pgBefore = s ? await pgNow(s) : null
    const machineBefore = machineCpu()
    const cpuBefore = cpuNow()
    const pidBefore = lastPid()
    const t0 = process.hrtime.bigint()
    const result = await run()
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9
    const started = lastPid() - pidBefore
    const cpu = minus(cpuNow(), cpuBefore)
    const machine = minus(machineCpu(), machineBefore)
    let pgCost: Cost['pg']
    if (s && pgBefore) {
      pgCost = minus(await pgNow(s), pgBefore)
      if (settled) {
        const before = settled
        settled = await pgSettled()
        const site = minus(
          settled.sites.get(s) ?? { commits: 0, writes: 0 },
          before.sites.get(s) ?? { commits: 0, writes: 0 },
        )
        pgCost = {
          ...pgCost,
          ...site,
          walSyncs: settled.walSyncs - before.walSyncs,
          walWrites: settled.walWrites - before.walWrites,
        }
      }
    }
    const was = costs.get(label)
    costs.set(label, {
      events: (was?.events ?? 0) + events,
      seconds: (was?.seconds ?? 0) + seconds,
      started: (was?.started ?? 0) + started,
      machine: plus(was?.machine, machine),
      cpu: plus(was?.cpu, cpu),
      ...(pgCost ? { pg: plus(was?.pg, pgCost) } : {}),
    })
    return result
  }

  // ---- the run -----------------------------------------------------------------------------------

  const siteOf = new Map<Target, Site | null>([
    [targets[0] as Target, null],
    [targets[1] as Target, one],
    [targets[2] as Target, two],
  ])

  const [lite, pg1, pg2] = await measure(sender, KIND, targets, {
    latencyN: LATENCY_N,
    rounds: ROUNDS,
    warmup: WARMUP,
    throughputN: THROUGHPUT_N,
    inFlight: IN_FLIGHT,
    aroundFlood: (t, run) => observed(t.name, siteOf.get(t) ?? null, THROUGHPUT_N, run),
  })
  if (!lite || !pg1 || !pg2) throw new Error('a target is missing')

  const scale = new Map<string, { events: number; seconds: number; rounds: number[] }>()
  for (let round = 0; round < SCALE_ROUNDS; round++)
    for (const layout of round % 2 ? [...layouts].reverse() : layouts) {
      const streams: Stream[] = layout.streams.map((s) => ({
        sender: s.sender,
        target: s.hook,
        tracker: s.tracker,
        count: SCALE_N / 2,
        inFlight: IN_FLIGHT / 2,
      }))
      const r = await observed(`scale-out ${layout.name}`, layout.site, SCALE_N, () =>
        flood(KIND, streams, `scale-${round}`, layout.name),
      )
      if (r.delivered !== SCALE_N) throw new Error(`${layout.name}: ${r.delivered}/${SCALE_N} delivered`)
      const was = scale.get(layout.name) ?? { events: 0, seconds: 0, rounds: [] }
      scale.set(layout.name, {
        events: was.events + SCALE_N,
        seconds: was.seconds + r.seconds,
        rounds: [...was.rounds, r.perSecond],
      })
    }

  console.log(`\nsender: ${KIND === 'http' ? 'node:http keep-alive agent' : 'fetch'}`)
  for (const r of [lite, pg1, pg2])
    console.log(
      `  ${r.name.padEnd(14)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  ${fmt(r.perSecond, 0).padStart(6)} events/s  ` +
        `delivered ${r.delivered}/${THROUGHPUT_N}`,
    )
  console.log(
    `  pg 1 hub / sqlite       p50 ${fmt(pg1.p50 / lite.p50, 2)}x  p99 ${fmt(pg1.p99 / lite.p99, 2)}x  ` +
      `throughput ${fmt(pg1.perSecond / lite.perSecond, 2)}x   (target: throughput ≥ 0.5x)`,
  )
  console.log(
    `  pg 2 hubs / pg 1 hub    p50 ${fmt(pg2.p50 / pg1.p50, 2)}x  p99 ${fmt(pg2.p99 / pg1.p99, 2)}x  ` +
      `throughput ${fmt(pg2.perSecond / pg1.perSecond, 2)}x   (publish on B, deliver through A: one more hop)`,
  )

  const s1 = scale.get('pg 1 hub')
  const s2 = scale.get('pg 2 hubs')
  if (!s1 || !s2) throw new Error('a layout is missing')
  const rate = (s: { events: number; seconds: number }) => s.events / s.seconds
  console.log(
    `\nscale-out: channels left and right, ${SCALE_N} events per flood, half from each of 2 senders ` +
      `(${IN_FLIGHT / 2} in flight each)`,
  )
  for (const [name, s, how] of [
    ['pg 1 hub', s1, 'both channels on the hub, both senders POST to it'],
    ['pg 2 hubs', s2, 'left on A, right on B; each sender POSTs to the other hub'],
  ] as const)
    console.log(
      `  ${name.padEnd(14)} ${fmt(rate(s), 0).padStart(6)} events/s  (rounds: ${s.rounds.map((r) => fmt(r, 0)).join(', ')})  ${how}`,
    )
  console.log(`  2 hubs / 1 hub          throughput ${fmt(rate(s2) / rate(s1), 2)}x   (target ≥ 1.2x)`)

  console.log(
    `\nwhat the floods cost (CPU seconds by process over the flood; busy: the machine's ${availableParallelism()} ` +
      `cores, share in use; write txns: xids taken; event commits: updates of event_seq, one per group commit)`,
  )
  for (const [label, c] of costs) {
    const cores = c.machine.total > 0 ? c.machine.busy / c.machine.total : 0
    const listed = Object.entries(c.cpu)
      .filter(([k, v]) => mine.includes(k) && (v >= 0.05 || !k.startsWith('hub ')))
      .map(([k, v]) => `${k} ${fmt(v, 1)}`)
    const others = Object.entries(c.cpu)
      .filter(([k]) => !mine.includes(k))
      .sort((a, b) => b[1] - a[1])
    const other = others.reduce((sum, [, v]) => sum + v, 0)
    const spent = Object.values(c.cpu).reduce((a, b) => a + b, 0)
    console.log(
      `  ${label.padEnd(20)} ${fmt(c.events / c.seconds, 0).padStart(6)} events/s over ${fmt(c.seconds, 1)} s: ` +
        `busy ${fmt(cores * 100, 0)}% (iowait ${fmt((c.machine.iowait / c.machine.total) * 100, 0)}%); ` +
        `${c.started} processes started`,
    )
    console.log(
      `  ${''.padEnd(20)} cpu s: ${listed.join(', ')}, other ${fmt(other, 1)}` +
        (other >= 0.1
          ? ` (${others
              .filter(([, v]) => v >= 0.05)
              .slice(0, 4)
              .map(([k, v]) => `${k.slice(6)} ${fmt(v, 1)}`)
              .join(', ')})`
          : '') +
        ` = ${fmt(spent, 1)} (${fmt(spent / c.seconds, 2)} cores; in processes that ended or no process: ${fmt(c.machine.busy - spent, 1)})`,
    )
    if (c.pg) {
      const p = c.pg
      const parts = [
        `${p.events} events`,
        `${p.xids} write txns`,
        ...(p.writes !== undefined
          ? [`${p.writes} event commits (${fmt(p.events / Math.max(1, p.writes), 1)} events each)`]
          : []),
        ...(p.walSyncs !== undefined
          ? [
              `${p.walSyncs} WAL fsyncs (${fmt(p.events / Math.max(1, p.walSyncs), 1)} events each, ${fmt(p.walSyncs / c.seconds, 0)}/s)`,
            ]
          : []),
        ...(p.commits !== undefined ? [`${p.commits} txns in all`] : []),
        `${fmt(p.walBytes / 1e6, 1)} MB WAL (${fmt(p.walBytes / Math.max(1, p.events), 0)} B/event)`,
      ]
      console.log(`  ${''.padEnd(20)} ${parts.join('; ')}`)
    }
  }
  // What bounds the figures: shares of the machine's cores (this bench's processes against anything
  // else running), and how often event commits — serialised by event_seq's row lock — went through.
  const CORES = availableParallelism()
  console.log(
    `\nbound (shares of the ${CORES} cores over the flood; event commits queue on event_seq's row lock)`,
  )
  for (const [label, c] of costs) {
    if (!c.pg) continue
    const share = (v: number) => `${fmt((v / c.seconds / CORES) * 100, 0)}%`
    const ours = Object.entries(c.cpu).filter(([k]) => mine.includes(k))
    const ourSum = ours.reduce((sum, [, v]) => sum + v, 0)
    const hubSum = ours.filter(([k]) => k.startsWith('hub ')).reduce((sum, [, v]) => sum + v, 0)
    const byOthers = c.machine.busy - ourSum
    const commits = c.pg.writes ?? c.pg.xids
    const what = c.pg.writes !== undefined ? 'event commits' : 'write txns'
    console.log(
      `  ${label.padEnd(20)} busy ${fmt((c.machine.busy / c.machine.total) * 100, 0)}%: this bench ${share(ourSum)} ` +
        `(postgres ${share(c.cpu.postgres ?? 0)}, hubs ${share(hubSum)}, channels ${share(c.cpu.channels ?? 0)}, ` +
        `client ${share(c.cpu.client ?? 0)}, senders ${share(c.cpu.senders ?? 0)}), other ${share(Math.max(0, byOthers))}; ` +
        `${fmt(commits / c.seconds, 0)} ${what}/s, one per ${fmt((c.seconds / Math.max(1, commits)) * 1000, 2)} ms, ` +
        `${fmt(c.pg.events / Math.max(1, commits), 1)} events each` +
        (c.pg.walSyncs !== undefined ? `; ${fmt(c.pg.walSyncs / c.seconds, 0)} WAL fsyncs/s` : ''),
    )
  }
} finally {
  for (const cleanup of cleanups.reverse())
    await Promise.resolve()
      .then(cleanup)
      .catch(() => {})
}
