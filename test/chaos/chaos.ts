// The delivery promise under fire: every webhook that got 202 reaches the MCP client once, and in
// order, whatever is SIGKILLed when. Webhooks go one after another (so "in order" is defined), the
// hub and the channel are killed at seeded random moments and restarted at once, and every
// notification the client gets, across channel generations, is kept for the count.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  closeSync,
  createWriteStream,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import Database from 'better-sqlite3'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { ChannelNotification } from '../helpers/channel-client.js'
import { alive, CLI, TestHome, waitFor } from '../helpers/home.js'
import { seededRandom } from '../helpers/seeded-random.js'

export interface ChaosOptions {
  events: number
  hubKills: number
  channelKills: number
  seed?: number
  log?: (line: string) => void
  /** The `switchboard` entry to run: this tree's dist/cli/main.js unless another build is to be tried. */
  cli?: string
  /** Keeps the home (hub and channel logs, database, chaos-trace.json) when a promise was broken. */
  keepHomeOnFailure?: boolean
}

export interface ChaosFigures {
  sent: number
  accepted: number
  seen: number
  lost: number
  shownTwice: number
  outOfOrder: number
  retries: number
  hubKills: number
  channelKills: number
  durationMs: number
  pendingInStore: number
}

export interface ChaosResult extends ChaosFigures {
  seed: number
  /** One line per lost, repeated or reordered event, with what the store holds and the kills around it. */
  findings: string[]
  /** The home, when kept. */
  home: string | null
}

/** Nothing new for this long after the last event was sent: whatever is missing is not coming. */
const QUIET_MS = 15_000
/** How long a live hub and channel get to clear the deliveries a kill left unacknowledged. */
const DRAIN_MS = 5_000
/** Late repeats (a re-sent batch after an ack was lost) still get the chance to show. */
const SETTLE_MS = 1_000
/** One event refused for this long: the hub is not coming back, and the run is void. */
const GIVE_UP_MS = 60_000
/** A kill lands this long after the sender reaches its index, so it can fall mid-request or mid-commit. */
const MAX_JITTER_MS = 50

interface Accepted {
  id: string
  status: number
  at: number
  attempts: number
  hub: number
}
interface Shown {
  index: number
  id: string
  at: number
  channel: number
  hub: number
}
interface Kill {
  what: 'hub' | 'channel'
  n: number
  index: number
  at: number
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const seed = options.seed ?? Date.now() % 2 ** 31
  const random = seededRandom(seed)
  const log = options.log ?? (() => {})
  const home = await TestHome.create()
  const logs = join(home.dir, 'logs')
  mkdirSync(logs, { recursive: true })
  const cli = options.cli ?? CLI
  // Through the build under test: another build's schema may be older than this tree's.
  const added = execFileSync(process.execPath, [cli, 'source', 'add', 'chaos'], { env: home.env })
  const secret = /secret: (\S+)/.exec(String(added))?.[1] ?? ''

  const t0 = performance.now()
  const now = () => Math.round(performance.now() - t0)
  const accepted = new Map<number, Accepted>()
  const shown: Shown[] = []
  const kills: Kill[] = []
  const hubChildren: ChildProcess[] = []
  const channelPids: number[] = []
  let hubGen = 0
  let channelGen = 0
  let retries = 0
  let sent = 0
  let lastNews = 0

  function startHub(): void {
    const out = openSync(join(logs, `chaos-hub-${hubGen}.log`), 'a')
    hubChildren.push(spawn(process.execPath, [cli, 'serve'], { env: home.env, stdio: ['ignore', out, out] }))
    closeSync(out)
  }

  /** The hub that answers, whoever started it: a channel starts one itself when none answers. */
  async function livePid(): Promise<number> {
    await home.waitForHub(20_000)
    const res = await fetch(`${home.url}/health`, { signal: AbortSignal.timeout(2_000) })
    return ((await res.json()) as { pid: number }).pid
  }

  async function killHub(index: number): Promise<void> {
    const pid = await livePid()
    hubGen++
    process.kill(pid, 'SIGKILL')
    kills.push({ what: 'hub', n: hubGen, index, at: now() })
    log(`t=${now()} ms  hub kill ${hubGen} (pid ${pid}) at event ${index}`)
    await waitFor(() => !alive(pid), 5_000, `hub ${pid} to die`)
    startHub()
  }

  let channel: { client: Client; transport: StdioClientTransport } | null = null

  async function startChannel(): Promise<void> {
    const gen = channelGen
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'channel', '--name', 'chaos'],
      env: home.env as Record<string, string>,
      stderr: 'pipe',
    })
    transport.stderr?.pipe(createWriteStream(join(logs, `chaos-channel-${gen}.log`)))
    const client = new Client({ name: 'claude-code', version: '0.0.0' })
    client.setNotificationHandler(ChannelNotification, ({ params }) => {
      const index = Number(/^chaos (\d+)$/.exec(params.content)?.[1] ?? Number.NaN)
      shown.push({ index, id: params.meta?.event_id ?? '?', at: now(), channel: gen, hub: hubGen })
      lastNews = now()
    })
    await client.connect(transport)
    channelPids.push(transport.pid ?? 0)
    channel = { client, transport }
  }

  async function killChannel(index: number): Promise<void> {
    const old = channel
    if (!old?.transport.pid) throw new Error('no channel to kill')
    channelGen++
    process.kill(old.transport.pid, 'SIGKILL')
    kills.push({ what: 'channel', n: channelGen, index, at: now() })
    log(`t=${now()} ms  channel kill ${channelGen} (pid ${old.transport.pid}) at event ${index}`)
    await old.client.close().catch(() => {})
    await startChannel()
  }

  async function send(index: number): Promise<void> {
    const first = now()
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(`${home.url}/hooks/chaos`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${secret}`,
            'content-type': 'text/plain',
            'idempotency-key': `k${index}`,
          },
          body: content(index),
          signal: AbortSignal.timeout(5_000),
        })
        const body = (await res.json()) as { id?: string }
        if (res.status === 200 || res.status === 202) {
          accepted.set(index, {
            id: body.id ?? '?',
            status: res.status,
            at: now(),
            attempts: attempt,
            hub: hubGen,
          })
          return
        }
        if (res.status < 500)
          throw new HarnessError(`event ${index}: HTTP ${res.status} ${JSON.stringify(body)}`)
      } catch (err) {
        if (err instanceof HarnessError) throw err
      }
      if (now() - first > GIVE_UP_MS) throw new HarnessError(`event ${index}: refused for ${GIVE_UP_MS} ms`)
      retries++
      await sleep(20 + random() * 30)
    }
  }

  const result = { seed, findings: [] as string[], home: null as string | null }
  try {
    startHub()
    await home.waitForHub(15_000)
    await startChannel()

    // Kills run beside the sender, one kind after another, so a kill can land in the middle of anything.
    const plan = killPlan(random, options)
    let hubKilling = Promise.resolve()
    let channelKilling = Promise.resolve()
    for (let i = 0; i < options.events; i++) {
      const what = plan.get(i)
      const jitter = random() * MAX_JITTER_MS
      if (what === 'hub') hubKilling = hubKilling.then(() => sleep(jitter)).then(() => killHub(i))
      if (what === 'channel')
        channelKilling = channelKilling.then(() => sleep(jitter)).then(() => killChannel(i))
      sent++
      await send(i)
      if (i % 1000 === 999) log(`t=${now()} ms  ${i + 1} events accepted, ${shown.length} notifications`)
    }
    await Promise.all([hubKilling, channelKilling])
    await home.waitForHub(20_000)
    lastNews = now()
    log(`t=${now()} ms  all ${sent} sent; waiting for the client to see them`)

    const seenAll = () => new Set(shown.map((s) => s.index)).size >= accepted.size
    while (!seenAll() && now() - lastNews < QUIET_MS) await sleep(50)
    // A kill may have taken the last acks with it: the hub sends those events again and the channel,
    // having shown them, acks them. Stopping before that would count rows a live pair would clear.
    const waited = now()
    while (deliveriesLeft(home.dir) > 0 && now() - waited < DRAIN_MS) await sleep(100)
    await sleep(SETTLE_MS)
  } catch (err) {
    await stop()
    if (!options.keepHomeOnFailure) rmSync(home.dir, { recursive: true, force: true })
    throw err
  }
  await stop()

  /** The live hub gets SIGTERM, so it flushes its acks; any other process of the run, SIGKILL. */
  async function stop(): Promise<void> {
    await channel?.client.close().catch(() => {})
    const live = await fetch(`${home.url}/health`, { signal: AbortSignal.timeout(2_000) })
      .then(async (res) => ((await res.json()) as { pid: number }).pid)
      .catch(() => home.hubPid())
    const others = () =>
      [...new Set([...hubChildren.map((c) => c.pid ?? 0), ...channelPids, ...hubsOfHome(home.dir)])].filter(
        (p) => p !== 0 && p !== live && alive(p),
      )
    // Hubs that lost the port exit on their own; one still starting could take the port once it is free.
    await waitFor(() => others().length === 0, 5_000, 'losing hubs to exit').catch(() => {})
    if (live !== null && alive(live)) {
      process.kill(live, 'SIGTERM')
      await waitFor(() => !alive(live), 10_000, `hub ${live} to stop`).catch(() =>
        process.kill(live, 'SIGKILL'),
      )
    }
    const left = others()
    for (const p of left) {
      log(`still running after the hub stopped, killed: ${p} ${commandLine(p)}`)
      process.kill(p, 'SIGKILL')
    }
    await waitFor(() => !left.some(alive), 5_000, 'every process of the run to exit')
  }

  // --- the count ------------------------------------------------------------------------
  const figures = count(accepted, shown, result.findings)
  const store = openSqliteStore(join(home.dir, 'switchboard.db'))
  const subscribers = await store.listSubscribers()
  await store.close()
  const pendingInStore = subscribers.reduce((sum, s) => sum + s.pending, 0)
  if (subscribers.length !== 1 || pendingInStore > 0)
    result.findings.push(
      `subscribers after the run: ${subscribers.map((s) => `${s.name} (${s.pending} pending)`).join(', ')}`,
    )
  explain(result.findings, { accepted, shown, kills, db: join(home.dir, 'switchboard.db') })

  const broken = figures.lost + figures.shownTwice + figures.outOfOrder + pendingInStore > 0
  if (broken && options.keepHomeOnFailure) {
    result.home = home.dir
    const trace = { seed, kills, accepted: Object.fromEntries(accepted), shown }
    writeFileSync(join(home.dir, 'chaos-trace.json'), JSON.stringify(trace))
  } else rmSync(home.dir, { recursive: true, force: true })
  return {
    ...result,
    sent,
    accepted: accepted.size,
    ...figures,
    retries,
    hubKills: hubGen,
    channelKills: channelGen,
    durationMs: now(),
    pendingInStore,
  }
}

class HarnessError extends Error {}

const content = (index: number) => `chaos ${String(index).padStart(5, '0')}`

/** Lost, shown twice and out of order, from what was accepted (by index) and shown (in order). */
export function count(accepted: Map<number, unknown>, shown: { index: number }[], findings: string[]) {
  const seen = new Set<number>()
  let shownTwice = 0
  let outOfOrder = 0
  let highest = -1
  for (const s of shown) {
    if (!accepted.has(s.index))
      findings.push(`a notification no sender was answered for: ${JSON.stringify(s)}`)
    if (seen.has(s.index)) {
      shownTwice++
      continue
    }
    seen.add(s.index)
    if (s.index < highest) outOfOrder++
    highest = Math.max(highest, s.index)
  }
  const lost = [...accepted.keys()].filter((i) => !seen.has(i)).length
  return { seen: seen.size, lost, shownTwice, outOfOrder }
}

/** For each broken promise: when it happened, which generation showed it, and the kills around it. */
function explain(
  findings: string[],
  run: { accepted: Map<number, Accepted>; shown: Shown[]; kills: Kill[]; db: string },
): void {
  const db = new Database(run.db, { readonly: true })
  const stored = db.prepare(
    `SELECT e.seq, e.id, group_concat(d.subscriber) AS pending FROM events e
     LEFT JOIN deliveries d ON d.seq = e.seq WHERE e.content = ? GROUP BY e.seq`,
  )
  const inStore = (i: number) =>
    (stored.all(content(i)) as { seq: number; id: string; pending: string | null }[])
      .map((r) => `${r.id} seq ${r.seq}${r.pending === null ? '' : ` pending for ${r.pending}`}`)
      .join(' + ') || 'nothing'
  const near = (at: number) => {
    const before = run.kills.filter((k) => k.at <= at).at(-1)
    const after = run.kills.find((k) => k.at > at)
    const say = (k: Kill) =>
      `${k.what} kill ${k.n} (event ${k.index}) ${at - k.at >= 0 ? '+' : ''}${at - k.at} ms`
    return [before, after].flatMap((k) => (k ? [say(k)] : [])).join(', ') || 'no kill'
  }
  const where = (s: Shown) => `${s.id} at ${s.at} ms by channel ${s.channel} (hub ${s.hub}), ${near(s.at)}`
  const byIndex = new Map<number, Shown[]>()
  for (const s of run.shown) byIndex.set(s.index, [...(byIndex.get(s.index) ?? []), s])
  try {
    for (const [i, a] of run.accepted)
      if (!byIndex.has(i))
        findings.push(
          `LOST ${content(i)}: ${a.status} ${a.id} at ${a.at} ms from hub ${a.hub} after ${a.attempts} ` +
            `attempt(s), never shown; ${near(a.at)}; store holds ${inStore(i)}`,
        )
    for (const [i, copies] of byIndex)
      if (copies.length > 1)
        findings.push(
          `TWICE ${content(i)} (accepted as ${run.accepted.get(i)?.id}): ${copies.map(where).join(' | ')}; ` +
            `store holds ${inStore(i)}`,
        )
    let highest: Shown | null = null
    const first = new Set<number>()
    for (const s of run.shown) {
      if (first.has(s.index)) continue
      first.add(s.index)
      if (highest && s.index < highest.index)
        findings.push(`LATE ${content(s.index)} ${where(s)}, after ${content(highest.index)}`)
      if (!highest || s.index > highest.index) highest = s
    }
  } finally {
    db.close()
  }
}

/** Kill indices spread over the run: one per equal slice, never a hub and a channel kill at one index. */
function killPlan(random: () => number, o: ChaosOptions): Map<number, 'hub' | 'channel'> {
  const plan = new Map<number, 'hub' | 'channel'>()
  if (2 * (o.hubKills + o.channelKills) > o.events) throw new Error('more kills than the events can spread')
  for (const [what, n] of [
    ['hub', o.hubKills],
    ['channel', o.channelKills],
  ] as const)
    for (let k = 0; k < n; k++) {
      const lo = Math.floor((k * o.events) / n)
      const hi = Math.floor(((k + 1) * o.events) / n)
      let i = lo + Math.floor(random() * (hi - lo))
      while (plan.has(i)) i = lo + ((i - lo + 1) % (hi - lo))
      plan.set(i, what)
    }
  return plan
}

/** Deliveries not acknowledged yet, read beside the running hub (WAL lets a reader in). */
function deliveriesLeft(home: string): number {
  const db = new Database(join(home, 'switchboard.db'), { readonly: true })
  try {
    const row = db.prepare("SELECT count(*) AS n FROM deliveries WHERE subscriber <> ''").get()
    return (row as { n: number }).n
  } finally {
    db.close()
  }
}

/** Hubs a channel started on this home carry it on their command line; ours are tracked by pid. */
function hubsOfHome(dir: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', `serve --home ${dir}`])
      .toString()
      .trim()
      .split('\n')
      .map(Number)
  } catch {
    return []
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return '?'
  }
}
