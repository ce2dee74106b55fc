// One soak: hubs, channel sessions with their MCP clients, operators on the hub's streams, and mixed
// traffic at a steady rate for a while; then a drain, and the figures (figures.ts judges them).
import { copyFileSync, mkdtempSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { seededRandom } from '../../test/helpers/seeded-random.js'
import { SoakChannel } from './channel.js'
import { type SoakFigures, soakFigures } from './figures.js'
import { startHubs } from './hubs.js'
import { Ledger } from './ledger.js'
import { type MemorySample, sampleMemory } from './memory.js'
import { Operator } from './operator.js'
import { answerDecisions, chatTraffic, decisionTraffic, GITHUB_EVENTS, webhookTraffic } from './traffic.js'

export interface SoakOptions {
  /** Traffic's whole duration, the warm-up included. */
  minutes: number
  /** The first stretch, whose figures are not judged (the hub and channels settle in). */
  warmupMinutes: number
  hubs: number
  channels: number
  operators: number
  /** Events a second in all: webhooks, chat lines and prompts. */
  perSecond: number
  seed?: number
  log?: (line: string) => void
  /** Aborted (a signal to `npm run soak`): the traffic ends, nothing is drained, everything is stopped. */
  signal?: AbortSignal
}

/** Shares of the traffic: most of it webhooks, then chat, and prompts for people. */
const MIX = { webhook: 0.6, chat: 0.3, decision: 0.1 }
/**
 * Webhook publishers (each a GitHub organisation sending one delivery after another): enough that
 * the rate holds while a loaded machine takes a few hundred ms to answer each.
 */
const WEBHOOK_PUBLISHERS = 10
const SAMPLE_EVERY_MS = 3_000
/** After the traffic: the drain ends when nothing new arrived for this long. */
const QUIET_MS = 15_000
/** Channels started at once. */
const STARTING = 10

export async function runSoak(o: SoakOptions): Promise<SoakFigures> {
  const log = o.log ?? (() => {})
  const seed = o.seed ?? Date.now() % 2 ** 31
  const random = seededRandom(seed)
  const t0 = performance.now()
  const now = () => performance.now() - t0
  const ledger = new Ledger()
  const hubs = await startHubs(o.hubs)
  const channels: SoakChannel[] = []
  const operators: Operator[] = []
  const memory: MemorySample[] = []
  let sampler: NodeJS.Timeout | undefined
  try {
    const secret = await hubs.addSource('github', '--preset', 'github')
    for (let i = 0; i < o.operators; i++)
      operators.push(await Operator.signIn(i, hubs.urls[i % hubs.urls.length] as string, hubs.adminToken))

    // Each channel follows one GitHub event and takes chat (each line is sent to one session by name).
    const topicOf = (i: number) => `github.${GITHUB_EVENTS[i % GITHUB_EVENTS.length]}`
    for (let i = 0; i < o.channels; i += STARTING) {
      o.signal?.throwIfAborted()
      const batch = Array.from({ length: Math.min(STARTING, o.channels - i) }, (_, k) => i + k)
      channels.push(
        ...(await Promise.all(
          batch.map((c) => SoakChannel.start(c, [topicOf(c), 'chat:*'], hubs.channelEnv(c), ledger, now)),
        )),
      )
      log(`${channels.length} channels started`)
    }
    const followers = new Map<string, number[]>()
    for (const c of channels) {
      const event = (c.topics[0] as string).slice('github.'.length)
      followers.set(event, [...(followers.get(event) ?? []), c.index])
    }
    await answerDecisions(operators, ledger)

    const channelPids = channels.flatMap((c) => (c.pid ? [c.pid] : []))
    const start = now()
    const at = () => now() - start
    const sample = () => memory.push(sampleMemory(at(), hubs.pids(), channelPids))
    sample()
    sampler = setInterval(sample, SAMPLE_EVERY_MS)
    const loadBefore = loadavg()[0] ?? 0
    log(
      `traffic for ${o.minutes} min (warm-up ${o.warmupMinutes}): ${o.perSecond} events/s to ${o.channels} ` +
        `channels on ${o.hubs} hub(s), ${o.operators} operators; seed ${seed}`,
    )
    o.signal?.throwIfAborted()
    const pace = { until: start + o.minutes * 60_000, now, random }
    o.signal?.addEventListener('abort', () => {
      pace.until = 0
    })
    const progress = setInterval(() => {
      const k = ledger.kinds()
      const m = memory.at(-1)
      const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`
      log(
        `t=${(at() / 1000).toFixed(0)} s  webhooks ${k.webhook.accepted}, chat ${k.chat.accepted}, ` +
          `${k.webhook.seen + k.chat.seen} notifications; hubs ${m?.hubs.map(mb).join(' ')}, channels ` +
          `${mb(m?.channelsSum ?? 0)}; load ${loadavg()[0]?.toFixed(2)}`,
      )
    }, 60_000)
    try {
      await Promise.all([
        ...webhookTraffic(
          {
            urls: hubs.urls,
            secret,
            publishers: WEBHOOK_PUBLISHERS,
            perSecond: o.perSecond * MIX.webhook,
            followers,
          },
          ledger,
          pace,
        ),
        ...chatTraffic(operators, channels, o.perSecond * MIX.chat, ledger, pace),
        decisionTraffic(channels, o.perSecond * MIX.decision, ledger, pace),
      ])
    } finally {
      clearInterval(progress)
    }
    const end = at()
    clearInterval(sampler)
    log(`traffic done at ${(end / 1000).toFixed(0)} s; draining`)
    ledger.lastNews = now()
    while (!ledger.complete && !o.signal?.aborted && now() - ledger.lastNews < QUIET_MS) await sleep(100)
    // Late repeats (a batch sent again) still get the chance to show.
    await sleep(1_000)
    o.signal?.throwIfAborted()
    const figures = soakFigures({
      options: { ...o, seed },
      ledger,
      memory,
      end,
      start,
      streamsEnded: operators.reduce((sum, op) => sum + op.streamsEnded, 0),
      load: { before: loadBefore, after: loadavg()[0] ?? 0, cores: availableParallelism() },
    })
    // A missed target is to be explained: the hubs' logs outlive their homes.
    if (figures.missed.length) {
      const kept = mkdtempSync(join(tmpdir(), 'soak-logs-'))
      for (const [i, file] of hubs.logs().entries()) copyFileSync(file, join(kept, `hub-${i}.log`))
      figures.missed.push(`the hubs' logs: ${kept}`)
    }
    return figures
  } finally {
    clearInterval(sampler)
    for (const op of operators) op.close()
    await Promise.all(channels.map((c) => c.close()))
    await hubs.stop()
  }
}
