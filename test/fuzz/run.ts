// `npm run fuzz`: over a million generated inputs across the hub's entry points, the network ones
// against one hub spawned from dist/. A hub that dies is recorded, the input that killed it looked for
// among those in flight, and the hub restarted, so one run lists every kind of failure. Exits non-zero
// on a crash, a 5xx, a dropped connection, an unexpected status, a missed delivery or RSS growth past
// the bound. FUZZ_SCALE multiplies every budget; FUZZ_SEED repeats a run; FUZZ_PHASE_SECONDS caps
// each entry point's time (code that stores megabytes per request can make a phase crawl).
import { mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { asWebhook, checkHubFrame, checkNdjson, checkWebhook, FUZZ_SOURCE } from './checks.js'
import {
  MESSAGE_STATUSES,
  type Outcome,
  runSession,
  sendHttp,
  sendRaw,
  Watcher,
  WEBHOOK_STATUSES,
} from './clients.js'
import {
  describeHttp,
  describeNdjson,
  describeRaw,
  describeSession,
  preview,
  type Secrets,
} from './describe.js'
import { FuzzHub, type HubExit } from './hub.js'
import {
  type Frame,
  frames as frameKinds,
  type HttpInput,
  type Kinds,
  messageKinds,
  ndjsonCases,
  rawKinds,
  sessionKinds,
  webhookKinds,
} from './inputs.js'

const SCALE = Number(process.env.FUZZ_SCALE ?? 1)
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31)
const PHASE_MS = Number(process.env.FUZZ_PHASE_SECONDS ?? 180) * 1000
const MB = 1024 * 1024
/** The hub's RSS may peak this far over its RSS at start; more is a blow-up. */
const RSS_PEAK_BOUND = 512 * MB
/** After the first network entry point has warmed the hub up, it may grow this much more; more is a leak. */
const RSS_GROWTH_BOUND = 128 * MB
const budget = (n: number) => Math.max(1, Math.round(n * SCALE))
const mb = (b: number | null) => (b === null ? '?' : `${(b / MB).toFixed(0)} MB`)
const oneLine = (text: string, max = 240) => {
  const line = text.replaceAll('\n', ' | ')
  return line.length > max ? `${line.slice(0, max)}…` : line
}

interface Example {
  count: number
  size: number
  text: string
  replay?: () => Promise<unknown>
}

/** What one entry point saw. Failures are keyed `kind: what`, each with its smallest example. */
class Tally {
  inputs = 0
  crashes = 0
  lostToCrash = 0
  readonly statuses = new Map<number, number>()
  readonly perKind = new Map<string, number>()
  readonly failures = new Map<string, Example>()
  /** Errors the hub logged during this entry point's run, by signature. */
  readonly logged = new Map<string, number>()
  readonly startedAt = Date.now()
  ms = 0
  /** The hub's largest RSS while this entry point ran. */
  rssMax = 0
  /** The hub's store (database and WAL) when this entry point was done. */
  storeBytes = 0
  /** Stopped at PHASE_MS before its budget was spent. */
  capped = false

  /** Whether to go on: budget left, and time. */
  more(count: number): boolean {
    this.capped = Date.now() - this.startedAt > PHASE_MS
    return this.inputs < count && !this.capped
  }

  constructor(readonly name: string) {}

  fail(key: string, size: number, text: string, replay?: () => Promise<unknown>): void {
    const seen = this.failures.get(key)
    if (!seen) this.failures.set(key, { count: 1, size, text, replay })
    else {
      seen.count++
      if (size < seen.size) Object.assign(seen, { size, text, replay })
    }
  }
}

interface Crash {
  count: number
  /** Times a single input, replayed alone, brought it about again. */
  reproduced: number
  culprit?: { kind: string; text: string; size: number }
  stderr: string
}

const tallies: Tally[] = []
const crashes = new Map<string, Crash>()
let seed = SEED

function crashOf(exit: HubExit): Crash {
  const crash = crashes.get(exit.signature) ?? { count: 0, reproduced: 0, stderr: exit.stderr }
  crashes.set(exit.signature, crash)
  return crash
}

/** Draws inputs kind by kind; a kind that keeps killing the hub is drawn less, so the run goes on. */
class Sampler<I> {
  private readonly weights = new Map<string, number>()
  private readonly buffered = new Map<string, I[]>()

  constructor(
    private readonly kinds: Kinds<I>,
    weights: Record<string, number> = {},
  ) {
    for (const kind of Object.keys(kinds)) this.weights.set(kind, weights[kind] ?? 1)
  }

  damp(kind: string): void {
    this.weights.set(kind, (this.weights.get(kind) ?? 1) / 4)
  }

  next(): { kind: string; input: I } {
    const total = [...this.weights.values()].reduce((a, b) => a + b, 0)
    let pick = Math.random() * total
    let kind = ''
    for (const [k, weight] of this.weights) {
      kind = k
      pick -= weight
      if (pick <= 0) break
    }
    let buffer = this.buffered.get(kind)
    if (!buffer?.length) {
      buffer = fc.sample(this.kinds[kind] as fc.Arbitrary<I>, { numRuns: 200, seed: seed++ })
      this.buffered.set(kind, buffer)
    }
    return { kind, input: buffer.pop() as I }
  }
}

// --- in-process entry points ---------------------------------------------------------------------

async function inProcess<I>(
  name: string,
  kinds: Kinds<I>,
  count: number,
  check: (input: I) => string | null,
  describe: (input: I) => string,
  size: (input: I) => number,
  weights: Record<string, number> = {},
): Promise<void> {
  const tally = new Tally(name)
  tallies.push(tally)
  const sampler = new Sampler(kinds, weights)
  while (tally.more(count)) {
    for (let i = 0; i < 500 && tally.inputs < count; i++) {
      const { kind, input } = sampler.next()
      tally.inputs++
      tally.perKind.set(kind, (tally.perKind.get(kind) ?? 0) + 1)
      const failure = check(input)
      // Numbers vary between equal failures: the key leaves them out, the example keeps them.
      const key = `${kind}: ${failure?.slice(0, 120).replace(/\d+/g, 'N')}`
      if (failure) tally.fail(key, size(input), `${failure}\n${describe(input)}`)
    }
    await new Promise((r) => setImmediate(r))
  }
  tally.ms = Date.now() - tally.startedAt
  progress(tally)
}

// --- network entry points ------------------------------------------------------------------------

interface Network<I> {
  name: string
  kinds: Kinds<I>
  /** Relative weights of kinds; 1 when not given. */
  weights?: Record<string, number>
  count: number
  concurrency: number
  run(input: I, worker: number): Promise<Outcome & { frames?: number }>
  describe(input: I): string
  size(input: I): number
}

async function network<I>(hub: FuzzHub, ep: Network<I>): Promise<void> {
  const tally = new Tally(ep.name)
  tallies.push(tally)
  sampled = tally
  const loggedBefore = new Map(hub.loggedErrors)
  const sampler = new Sampler(ep.kinds, ep.weights)
  // The input that kills the hub may have seen its socket close before the exit is reported.
  const recent: { kind: string; input: I; at: number; refused?: boolean }[] = []
  let gate: Promise<void> | null = null

  // Replayed alone, newest first, the input that kills the hub again is the culprit; its kind is then
  // drawn less, so a run does not spend itself restarting the hub.
  const recover = async (exit: HubExit, suspects: typeof recent) => {
    crashOf(exit).count++
    tally.crashes++
    await hub.ensure()
    for (const s of suspects.reverse().filter((s) => !s.refused)) {
      const exitsBefore = hub.exits.length
      await ep.run(s.input, 0)
      await hub.diesWithin(100)
      const again = hub.exits[exitsBefore]
      if (!again) continue
      const crash = crashOf(again)
      crash.reproduced++
      const size = ep.size(s.input)
      if (!crash.culprit || size < crash.culprit.size)
        crash.culprit = { kind: `${ep.name} / ${s.kind}`, text: ep.describe(s.input), size }
      sampler.damp(s.kind)
      await hub.ensure()
      break
    }
  }
  hub.onExit = (exit) => {
    const since = Date.now() - 1_000
    const suspects = recent.filter((r) => r.at >= since).slice(-3 * ep.concurrency)
    gate ??= recover(exit, suspects).finally(() => {
      gate = null
    })
  }

  const worker = async (w: number) => {
    while (tally.more(ep.count)) {
      while (gate) await gate
      const { kind, input } = sampler.next()
      const entry = { kind, input, at: Date.now(), refused: false }
      recent.push(entry)
      if (recent.length > 4 * ep.concurrency) recent.shift()
      const exitsBefore = hub.exits.length
      const outcome = await ep.run(input, w)
      entry.refused = outcome.refused === true
      const frames = outcome.frames ?? 1
      tally.inputs += frames
      tally.perKind.set(kind, (tally.perKind.get(kind) ?? 0) + frames)
      // A socket the dying hub took with it is the crash's doing, counted there.
      if (outcome.failure && outcome.status === undefined) await hub.diesWithin(150)
      if (hub.exits.length > exitsBefore) {
        tally.lostToCrash++
        continue
      }
      if (outcome.status) tally.statuses.set(outcome.status, (tally.statuses.get(outcome.status) ?? 0) + 1)
      if (outcome.failure) {
        const key = `${kind}: ${outcome.failure}${outcome.failure === 'dropped connection' ? ` (${outcome.detail})` : ''}`
        tally.fail(key, ep.size(input), ep.describe(input), () => ep.run(input, 0))
      }
    }
  }
  await Promise.all(Array.from({ length: ep.concurrency }, (_, w) => worker(w)))
  while (gate) await gate
  hub.onExit = () => {}
  for (const [signature, n] of hub.loggedErrors)
    if (n > (loggedBefore.get(signature) ?? 0))
      tally.logged.set(signature, n - (loggedBefore.get(signature) ?? 0))
  tally.storeBytes = hub.storeBytes()
  tally.ms = Date.now() - tally.startedAt
  progress(tally)
}

function progress(t: Tally): void {
  const statuses = [...t.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`)
  const failures = [...t.failures.values()].reduce((n, f) => n + f.count, 0)
  console.log(
    `${t.name.padEnd(24)} ${String(t.inputs).padStart(8)} inputs in ${(t.ms / 1000).toFixed(1).padStart(5)} s` +
      `  ${statuses.length ? `statuses ${statuses.join(' ')}` : ''}  failures ${failures}` +
      (t.lostToCrash ? `  lost to crashes ${t.lostToCrash}` : '') +
      (t.rssMax ? `  hub RSS max ${mb(t.rssMax)}, store ${mb(t.storeBytes)}` : '') +
      (t.capped ? `  STOPPED after ${PHASE_MS / 1000} s` : ''),
  )
}

// --- the run ---------------------------------------------------------------------------------------

const started = Date.now()
console.log(`fuzz seed ${SEED} scale ${SCALE}`)
// Stopped from outside, the run still takes its hub down (hub.ts kills it on 'exit').
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

const httpSize = (i: HttpInput) => i.path.length + JSON.stringify(i.headers).length + i.body.length
const frameText = (f: Frame) => ('text' in f ? f.text : String(f.bytes))

await inProcess('ndjson reader', { mixed: ndjsonCases }, budget(100_000), checkNdjson, describeNdjson, (c) =>
  c.lines.reduce((n, l) => n + l.length + 1, 0),
)
await inProcess(
  'hub protocol schema',
  frameKinds,
  budget(450_000),
  (f) => checkHubFrame(frameText(f)),
  (f) => preview(frameText(f)),
  (f) => frameText(f).length,
  { huge: 0.001, deep: 0.05 },
)
await inProcess(
  'webhook parser',
  webhookKinds(FUZZ_SOURCE.name, FUZZ_SOURCE.secret),
  budget(150_000),
  checkWebhook,
  (i) => describeHttp(asWebhook(i), { SECRET: FUZZ_SOURCE.secret }),
  httpSize,
  { 'body:deep': 0.03, 'body:huge': 0.25, 'body:wide': 0.25 },
)

const hub = await FuzzHub.start(['fz', 'beat'])
const secrets: Secrets = {
  SECRET: hub.secrets.fz ?? '',
  BEAT_SECRET: hub.secrets.beat ?? '',
  TOKEN: hub.token,
  ADMIN_TOKEN: hub.adminToken,
}
const watcher = new Watcher(hub)
await watcher.start()

const startRss = hub.rss() ?? 0
let maxRss = startRss
let sampled: Tally | null = null
const sampling = setInterval(() => {
  const bytes = hub.rss() ?? 0
  maxRss = Math.max(maxRss, bytes)
  if (sampled) sampled.rssMax = Math.max(sampled.rssMax, bytes)
}, 250)

let beats = 0
let missedBeats = 0
let beating = true
const beatLoop = (async () => {
  while (beating) {
    const delivered = await watcher.beat(`beat ${beats}`)
    if (delivered !== null) beats++
    if (delivered === false) missedBeats++
    await new Promise((r) => setTimeout(r, 500))
  }
})()

const agent = (concurrency: number) => new http.Agent({ keepAlive: true, maxSockets: concurrency })
const webhookAgent = agent(16)
const messageAgent = agent(16)

await network(hub, {
  name: 'webhook (HTTP)',
  kinds: webhookKinds('fz', hub.secrets.fz ?? ''),
  // Each accepted wide body may store megabytes: a few show it without filling the disk.
  weights: { 'body:wide': 0.02 },
  count: budget(150_000),
  concurrency: 16,
  run: (i) => sendHttp(hub.port, i, webhookAgent, WEBHOOK_STATUSES),
  describe: (i) => describeHttp(i, secrets),
  size: httpSize,
})
await network(hub, {
  name: 'messages (HTTP)',
  kinds: messageKinds(hub.token),
  count: budget(50_000),
  concurrency: 16,
  run: (i) => sendHttp(hub.port, i, messageAgent, MESSAGE_STATUSES),
  describe: (i) => describeHttp(i, secrets),
  size: httpSize,
})
await network(hub, {
  name: 'hub socket (frames)',
  kinds: sessionKinds,
  weights: { huge: 0.02, deep: 0.1 },
  count: budget(100_000),
  concurrency: 12,
  run: (s, w) => runSession(hub.port, hub.adminToken, s, String(w)),
  describe: describeSession,
  size: (s) => [...s.before, ...s.after].reduce((n, f) => n + frameText(f).length, 0),
})
await network(hub, {
  name: 'raw HTTP (TCP)',
  kinds: rawKinds(hub.adminToken),
  count: budget(20_000),
  concurrency: 32,
  run: (bytes) => sendRaw(hub.port, bytes),
  describe: (bytes) => describeRaw(bytes, secrets),
  size: (bytes) => bytes.length,
})

beating = false
await beatLoop
// Let the hub settle before the last RSS reading.
await new Promise((r) => setTimeout(r, 2_000))
clearInterval(sampling)
const endRss = hub.rss()

// Each 5xx example alone, to name the error the hub logged for it.
const causes = new Map<Example, string>()
for (const tally of tallies)
  for (const [key, example] of tally.failures)
    if (/answered 5/.test(key) && example.replay) {
      const mark = hub.mark()
      await example.replay()
      await new Promise((r) => setTimeout(r, 50))
      const logged = /"type":"(\w+)","message":"([^"]*)"/.exec(hub.logSince(mark))
      if (logged) causes.set(example, `${logged[1]}: ${logged[2]}`)
    }

watcher.stop()
await hub.stop()

// --- the report ------------------------------------------------------------------------------------

const out = join(tmpdir(), `switchboard-fuzz-${SEED}`)
mkdirSync(out, { recursive: true })
let saved = 0
const save = (text: string) => {
  const file = join(out, `${String(++saved).padStart(3, '0')}.txt`)
  writeFileSync(file, `${text}\n`)
  return file
}

const total = tallies.reduce((n, t) => n + t.inputs, 0)
const seconds = (Date.now() - started) / 1000
const CLASSES: [string, RegExp][] = [
  ['5xx', /answered 5/],
  ['unexpected', /unexpected status/],
  ['dropped', /dropped connection|closed by the hub|socket error/],
  ['other', /./],
]
const classOf = (key: string) => CLASSES.find(([, re]) => re.test(key))?.[0]
const col = (v: string | number, w = 9) => String(v).padStart(w)
console.log(`\n== ${total} inputs in ${seconds.toFixed(1)} s (seed ${SEED}) ==`)
console.log(
  `${'entry point'.padEnd(22)}${col('inputs')}${col('per s', 7)}${col('crashes')}${CLASSES.map(([c]) => col(c, 11)).join('')}${col('RSS max')}`,
)
for (const t of tallies) {
  const count = (c: string) =>
    [...t.failures].filter(([k]) => classOf(k) === c).reduce((n, [, f]) => n + f.count, 0)
  console.log(
    `${t.name.padEnd(22)}${col(t.inputs)}${col(Math.round(t.inputs / (t.ms / 1000)), 7)}${col(t.crashes)}` +
      `${CLASSES.map(([c]) => col(count(c), 11)).join('')}${col(t.rssMax ? mb(t.rssMax) : '-')}`,
  )
  const kinds = [...t.perKind].map(([k, n]) => `${k} ${n}`).join(', ')
  console.log(`${''.padEnd(22)}by kind: ${kinds}`)
  if (t.capped) console.log(`${''.padEnd(22)}STOPPED after ${PHASE_MS / 1000} s, short of its budget`)
}

const plateau = tallies.find((t) => t.rssMax)?.rssMax ?? startRss
const grew = maxRss - startRss > RSS_PEAK_BOUND || (endRss ?? 0) - plateau > RSS_GROWTH_BOUND
console.log(
  `hub RSS: start ${mb(startRss)}, max ${mb(maxRss)}, end ${mb(endRss)}, after warm-up ${mb(plateau)}; ` +
    `bound: max under start + ${mb(RSS_PEAK_BOUND)}, end under warm-up + ${mb(RSS_GROWTH_BOUND)}` +
    `${hub.exits.length ? ` (${hub.exits.length} restarts reset it)` : ''}${grew ? ' — EXCEEDED' : ''}`,
)
console.log(
  `watcher: ${beats} beats delivered, ${missedBeats} missed; closed by the hub ${watcher.closedByHub.length} times ${watcher.closedByHub.join(', ')}`,
)

const crashCount = [...crashes.values()].reduce((n, c) => n + c.count, 0)
console.log(`\ncrashes (hub exited): ${crashCount}`)
for (const [signature, c] of crashes) {
  const from = c.culprit ? `, reproduced ${c.reproduced} time(s) by single inputs of ${c.culprit.kind}` : ''
  console.log(`  ${signature}: ${c.count} time(s)${from}`)
  const text = `${c.culprit ? `${c.culprit.kind}\n${c.culprit.text}` : 'no single input reproduced it'}\n\nhub stderr:\n${c.stderr}`
  console.log(
    `    ${c.culprit ? oneLine(c.culprit.text) : 'not reproduced by any single input'}  [${save(text)}]`,
  )
}

let failureCount = 0
console.log('\nfailures:')
for (const t of tallies)
  for (const [key, f] of t.failures) {
    failureCount += f.count
    const cause = causes.get(f)
    console.log(`  ${t.name} / ${key}: ${f.count}${cause ? ` (hub log: ${cause})` : ''}`)
    console.log(`    ${oneLine(f.text)}  [${save(`${t.name} / ${key}\n${cause ?? ''}\n${f.text}`)}]`)
  }
if (failureCount === 0) console.log('  none')

console.log('\nerrors the hub logged:')
for (const t of tallies) for (const [signature, n] of t.logged) console.log(`  ${t.name}: ${n}× ${signature}`)
if (hub.loggedErrors.size === 0) console.log('  none')
console.log(
  `\nexamples saved in ${out}; placeholders: $PORT ${Object.keys(secrets)
    .map((s) => `$${s}`)
    .join(' ')}`,
)
console.log(`hub store at the end: ${mb(tallies.at(-1)?.storeBytes ?? 0)} (database and WAL)`)
console.log(`elapsed ${seconds.toFixed(1)} s`)

const capped = tallies.some((t) => t.capped)
const failed =
  crashCount > 0 || failureCount > 0 || missedBeats > 0 || watcher.closedByHub.length > 0 || grew || capped
await hub.home.cleanup()
process.exit(failed ? 1 : 0)
