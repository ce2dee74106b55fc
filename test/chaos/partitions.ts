// The delivery promise when the network splits and every process lives. Two hubs, Postgres, a
// channel and a chat platform each in a network namespace of their own (netns.ts), one veth pair
// per link:
//
//        pg ─── hubA ─── chan          hubA ─── hubB (forwarding between hubs)
//        pg ─── hubB ─── chan          hubA ─── platform ─── hubB
//
// One sender (this process, on each hub's Unix socket, which no cut touches) posts numbered webhooks
// with idempotency keys, to the hub that last answered, the other one when it does not. The channel's
// MCP client counts what it is shown. Each scenario cuts links (`ip link set down` on the far end:
// silent drops), heals them, waits for the client to have everything, and counts: lost, shown twice,
// out of order; the hubs' logs give the order in which they held each lease (the fencing).
//
// The platform is the fake Telegram (platform.ts), which each hub's Telegram bridge (the real grammy
// client) polls over its own link; a person on it is an operator, so permission prompts go to them.
import { type ChildProcess, execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { paths } from '../../src/core/config.js'
import { hubRequest } from '../../src/core/hub-dial.js'
import { PLATFORM_LOST_MIN_MS } from '../../src/core/settings/table.js'
import { ChannelNotification } from '../helpers/channel-client.js'
import { alive, CLI, TestHome, waitFor } from '../helpers/home.js'
import { type PostgresServer, startPostgres } from '../helpers/postgres.js'
import { seededRandom } from '../helpers/seeded-random.js'
import { type ChaosFigures, count } from './chaos.js'
import { Netns } from './netns.js'
import { type NsPlatform, startNsPlatform } from './platform.js'

export interface PartitionOptions {
  /** How long the flapping link flaps (scenario 4). */
  flapMs: number
  /** How long each calm stretch around a cut lasts, events flowing. */
  calmMs: number
  seed?: number
  log?: (line: string) => void
  /** The `switchboard` entry to run: this tree's dist/cli/main.js unless another build is to be tried. */
  cli?: string
  /** Keeps the homes (hub and channel logs) when a target was missed. */
  keepOnFailure?: boolean
}

/** What every chaos run counts from the client (chaos.ts), per scenario here. */
export interface ScenarioResult
  extends Pick<ChaosFigures, 'sent' | 'accepted' | 'seen' | 'lost' | 'shownTwice' | 'outOfOrder'> {
  name: string
  /** Moments a hub was reachable and the channel had not caught up within CATCH_UP_MS. */
  stalls: number
  /** Who held which lease when, as the hubs' logs say, in order. */
  fencing: string[]
  /** Two hubs running one lease's work at once, from the same logs. */
  overlaps: number
  /** Scenarios 1 and 3: the cut-off hub live again, holding nothing another hub took. */
  rejoined?: boolean
  /** Scenarios 1 and 3: the hub cut off, the other, and the leases of work it held that should move. */
  cut?: { victim: HubName; survivor: HubName; held: string[]; at: number }
  /**
   * For each of those leases, from the hubs' logs (ms from the run's start): when the cut-off hub
   * stopped its work (fenced, lost or handed over) and when the other hub took it; null if it did not.
   */
  handOvers?: { lease: string; stoppedAt: number | null; takenAt: number | null }[]
  /** Scenario 3: what reached the chat and the session across the move, each once when all is well. */
  chat?: {
    /** The hub holding the bridge once the cut-off hub gave it up; null if none took it. */
    bridgeMovedTo: HubName | null
    /** The permission prompt raised after the cut, as often as the chat shows it. */
    prompts: number
    /** The session's reply sent after the cut, as often as the chat shows it. */
    replies: number
    /** The person's line written during the cut, as often as the session was shown it. */
    lines: number
  }
  findings: string[]
  durationMs: number
}

export interface PartitionResult {
  seed: number
  scenarios: ScenarioResult[]
  homes: string[] | null
}

/** Leases last this long here: a cut-off hub fences itself and the other takes over within it. */
const LEASE_MS = 2_000
/** The hub and the channel look at their link this often (the heartbeat setting). */
const HEARTBEAT_MS = 1_000
/** The channel has what was accepted within this long of a hub being reachable to it. */
const CATCH_UP_MS = 20_000
/** After the last cut heals, whatever is missing by then is not coming. */
const DRAIN_MS = 30_000
/** One webhook every this many ms: a steady stream, light enough for two shared cores. */
const PACE_MS = 25
/** A hub that does not answer a webhook within this long is passed over for the other. */
const SEND_TIMEOUT_MS = 2_000
/** The namespace of the fake chat platform. */
export const PLATFORM = 'platform'
/** The lease of the hubs' Telegram bridge. */
const BRIDGE = 'bridge:telegram'
/** The person on Telegram, an operator: the session's prompts go to them, their lines to it. */
const ALICE = { id: '10001', name: 'Alice' }

export type HubName = 'hubA' | 'hubB'
const HUBS: HubName[] = ['hubA', 'hubB']
const other = (hub: HubName): HubName => (hub === 'hubA' ? 'hubB' : 'hubA')

interface Shown {
  index: number
  id: string
  at: number
}

interface LogLine {
  hub: HubName
  time: number
  msg: string
  lease?: string
  leases?: string[]
  subscriber?: string
}

/** A hub in its namespace, its log in its home, reached by this process on its Unix socket. */
class NsHub {
  process: ChildProcess | null = null
  fingerprint = ''
  id = ''

  constructor(
    readonly name: HubName,
    readonly home: TestHome,
    private readonly netns: Netns,
    private readonly cli: string,
  ) {}

  get socket(): string {
    return paths.hubSocket(this.home.dir, this.home.port)
  }

  get logFile(): string {
    return join(this.home.dir, `${this.name}.log`)
  }

  /** host:port#sha256:… as the channel (in `chan`) names it. */
  forChannel(): string {
    return `${this.netns.address('chan', this.name)}:${this.home.port}#sha256:${this.fingerprint}`
  }

  async start(): Promise<void> {
    const out = openSync(this.logFile, 'a')
    // Advertised on the hubs' own link: where the other hub forwards a request about a session here.
    const advertise = `${this.netns.address(other(this.name), this.name)}:${this.home.port}`
    this.process = this.netns.spawn(
      this.name,
      process.execPath,
      [this.cli, 'serve', '--host', '0.0.0.0', '--advertise', advertise],
      { env: this.home.env, stdio: ['ignore', 'ignore', out] },
    )
    closeSync(out)
    await waitFor(async () => (await this.get('/health', 1_000))?.status === 200, 30_000, `${this.name}`)
    const info = JSON.parse(readFileSync(paths.hubInfo(this.home.dir), 'utf8')) as { fingerprint: string }
    this.fingerprint = info.fingerprint
    this.id = readFileSync(paths.hubId(this.home.dir), 'utf8').trim()
  }

  async get(path: string, timeoutMs = 2_000): Promise<{ status: number; body: string } | null> {
    const token = this.home.extraEnv.SWITCHBOARD_ADMIN_TOKEN as string
    return hubRequest(
      { socketPath: this.socket },
      'GET',
      path,
      { authorization: `Bearer ${token}` },
      undefined,
      timeoutMs,
    ).catch(() => null)
  }

  /** The hub's view of the cluster and its channels; null while it cannot say (its store is away). */
  async status(): Promise<{
    connected: { name: string }[]
    hubs: { id: string; holds: string[] }[]
  } | null> {
    const answer = await this.get('/api/status')
    return answer?.status === 200 ? JSON.parse(answer.body) : null
  }

  async stop(): Promise<void> {
    const pid = this.process?.pid
    if (!pid || !alive(pid)) return
    process.kill(pid, 'SIGTERM')
    await waitFor(() => !alive(pid), 10_000, `${this.name} to stop`).catch(() => process.kill(pid, 'SIGKILL'))
  }

  logLines(): LogLine[] {
    let text = ''
    try {
      text = readFileSync(this.logFile, 'utf8')
    } catch {
      return []
    }
    const lines: LogLine[] = []
    for (const line of text.split('\n'))
      try {
        const json = JSON.parse(line) as Omit<LogLine, 'hub'>
        if (typeof json.time === 'number') lines.push({ ...json, hub: this.name })
      } catch {}
    return lines
  }
}

export async function runPartitions(options: PartitionOptions): Promise<PartitionResult> {
  const seed = options.seed ?? Date.now() % 2 ** 31
  const random = seededRandom(seed)
  const log = options.log ?? (() => {})
  const cli = options.cli ?? CLI
  const t0 = Date.now()
  const now = () => Date.now() - t0

  const netns = Netns.create(['pg', 'hubA', 'hubB', 'chan', PLATFORM])
  let pg: PostgresServer | null = null
  let platform: NsPlatform | null = null
  const homes: TestHome[] = []
  let client: Client | null = null
  const hubs = new Map<HubName, NsHub>()
  const hub = (name: HubName) => hubs.get(name) as NsHub
  /** The leases a hub holds, as it says; null while it cannot say. */
  const holds = async (name: HubName) =>
    (await hub(name).status())?.hubs.find((h) => h.id === hub(name).id)?.holds ?? null
  const scenarios: ScenarioResult[] = []
  let failed = true
  try {
    netns.link('hubA', 'pg')
    netns.link('hubB', 'pg')
    netns.link('chan', 'hubA')
    netns.link('chan', 'hubB')
    netns.link('hubA', 'hubB')
    netns.link('hubA', PLATFORM)
    netns.link('hubB', PLATFORM)
    platform = await startNsPlatform(netns, PLATFORM)
    const telegram = platform.telegram
    pg = await startPostgres({
      netns: {
        name: netns.ns('pg'),
        listen: HUBS.map((h) => netns.address(h, 'pg')),
        trust: netns.range,
      },
    })
    const database = await pg.newDatabase()
    const adminToken = `sba_${randomBytes(24).toString('hex')}`
    for (const name of HUBS) {
      const home = await TestHome.create()
      homes.push(home)
      Object.assign(home.extraEnv, {
        SWITCHBOARD_DATABASE_URL: pg.url(database, netns.address(name, 'pg')),
        SWITCHBOARD_ADMIN_TOKEN: adminToken,
        SWITCHBOARD_LEASE_MS: String(LEASE_MS),
        SWITCHBOARD_HEARTBEAT_MS: String(HEARTBEAT_MS),
        // A bridge hands its lease over as soon as the setting allows.
        SWITCHBOARD_PLATFORM_LOST_MS: String(PLATFORM_LOST_MIN_MS),
      })
      hubs.set(name, new NsHub(name, home, netns, cli))
      // Each hub's bridge dials the platform's address on its own link.
      await switchboard(netns, name, home, cli, [
        'bridge',
        'add',
        'telegram',
        '--token',
        telegram.credentials.token,
        '--api-root',
        platform.apiRoot(name),
      ])
    }
    // hubA first: it takes the exclusive leases (the bridge, retention), and the channel dials it first.
    await hub('hubA').start()
    await waitFor(
      async () => (await holds('hubA'))?.includes(BRIDGE) === true,
      15_000,
      `hubA to take ${BRIDGE}`,
    )
    await hub('hubB').start()
    const added = await switchboard(netns, 'hubA', hub('hubA').home, cli, ['source', 'add', 'chaos'])
    const secret = /secret: (\S+)/.exec(added)?.[1] ?? ''
    await switchboard(netns, 'hubA', hub('hubA').home, cli, [
      'access',
      'allow',
      `telegram:${ALICE.id}`,
      '--operator',
    ])
    log(`t=${now()} ms  hubs up: ${HUBS.map((h) => `${h} ${hub(h).id}`).join(', ')}`)

    // --- the channel and its client --------------------------------------------------------------
    const channelHome = await TestHome.create()
    homes.push(channelHome)
    Object.assign(channelHome.extraEnv, {
      SWITCHBOARD_ADMIN_TOKEN: adminToken,
      SWITCHBOARD_HUBS: HUBS.map((h) => hub(h).forChannel()).join(','),
      SWITCHBOARD_HEARTBEAT_MS: String(HEARTBEAT_MS),
    })
    const shown: Shown[] = []
    /** What the session was shown that is not a numbered webhook: the chat's lines. */
    const chatShown: { content: string; chatId: string }[] = []
    const [chanCommand, chanArgs] = netns.argv('chan', process.execPath, [cli, 'channel', '--name', 'chaos'])
    const transport = new StdioClientTransport({
      command: chanCommand,
      args: chanArgs,
      env: channelHome.env as Record<string, string>,
      stderr: 'pipe',
    })
    const channelLog: string[] = []
    transport.stderr?.on('data', (chunk) => channelLog.push(String(chunk)))
    client = new Client({ name: 'claude-code', version: '0.0.0' })
    client.setNotificationHandler(ChannelNotification, ({ params }) => {
      const part = /^part (\d+)$/.exec(params.content)?.[1]
      if (part === undefined) chatShown.push({ content: params.content, chatId: params.meta?.chat_id ?? '' })
      else shown.push({ index: Number(part), id: params.meta?.event_id ?? '?', at: now() })
    })
    await client.connect(transport)

    // --- the sender ---------------------------------------------------------------------------
    const accepted = new Map<number, { at: number; hub: HubName }>()
    let next = 0
    let preferred: HubName = 'hubA'
    let sending: Promise<void> | null = null
    let sendingStops = false
    const sendOne = async (index: number) => {
      for (let attempt = 0; ; attempt++) {
        const answer = await hubRequest(
          { socketPath: hub(preferred).socket },
          'POST',
          '/hooks/chaos',
          {
            authorization: `Bearer ${secret}`,
            'content-type': 'text/plain',
            'idempotency-key': `k${index}`,
          },
          `part ${index}`,
          SEND_TIMEOUT_MS,
        ).catch(() => null)
        if (answer?.status === 202 || answer?.status === 200) {
          accepted.set(index, { at: now(), hub: preferred })
          return
        }
        if (answer && answer.status < 500 && answer.status !== 429)
          throw new Error(`event ${index}: HTTP ${answer.status} ${answer.body}`)
        preferred = other(preferred)
        if (attempt > 60) throw new Error(`event ${index}: refused by both hubs for a minute`)
        await sleep(50)
      }
    }
    const startSending = () => {
      sendingStops = false
      sending = (async () => {
        while (!sendingStops) {
          await sendOne(next++)
          await sleep(PACE_MS)
        }
      })()
    }
    const stopSending = async () => {
      sendingStops = true
      await sending
    }
    /** Everything accepted over half a second ago has been shown. */
    const caughtUp = () => {
      const seen = new Set(shown.map((s) => s.index))
      const before = now() - 500
      for (const [i, a] of accepted) if (a.at <= before && !seen.has(i)) return false
      return true
    }
    const connectedTo = async (name: HubName) =>
      (await hub(name).status())?.connected.some((c) => c.name === 'chaos') ?? false
    const bridgeHolder = async (): Promise<HubName | null> => {
      for (const name of HUBS) if ((await holds(name))?.includes(BRIDGE)) return name
      return null
    }
    const channelHub = async (): Promise<HubName | null> => {
      for (const name of HUBS) if (await connectedTo(name)) return name
      return null
    }
    await waitFor(async () => (await channelHub()) !== null, 15_000, 'the channel on a hub')

    /** Runs one scenario between events `from` and the sender's next, and counts it. */
    const scenario = async (
      name: string,
      body: (r: ScenarioResult) => Promise<void>,
    ): Promise<ScenarioResult> => {
      const started = now()
      const startTime = Date.now()
      const from = next
      const r: ScenarioResult = {
        name,
        sent: 0,
        accepted: 0,
        seen: 0,
        lost: 0,
        shownTwice: 0,
        outOfOrder: 0,
        stalls: 0,
        fencing: [],
        overlaps: 0,
        findings: [],
        durationMs: 0,
      }
      log(`t=${now()} ms  scenario: ${name}`)
      startSending()
      try {
        await body(r)
      } finally {
        await stopSending()
      }
      for (const [a, b] of [
        ['hubA', 'pg'],
        ['hubB', 'pg'],
        ['chan', 'hubA'],
        ['chan', 'hubB'],
        ['hubA', PLATFORM],
        ['hubB', PLATFORM],
      ] as const)
        netns.heal(a, b)
      const to = next
      await waitFor(
        () => {
          const seen = new Set(shown.map((s) => s.index))
          for (const i of accepted.keys()) if (i >= from && i < to && !seen.has(i)) return false
          return true
        },
        DRAIN_MS,
        'every accepted event at the client',
      ).catch(() => {})
      await sleep(1_000) // a late repeat still gets its chance to show
      const mine = new Map([...accepted].filter(([i]) => i >= from && i < to))
      const figures = count(
        mine,
        shown.filter((s) => s.index >= from && s.index < to),
        r.findings,
      )
      const missing = [...mine.keys()].filter((i) => !shown.some((s) => s.index === i))
      if (missing.length) r.findings.push(`never shown: ${missing.slice(0, 20).join(' ')}`)
      const lines = HUBS.flatMap((h) => hub(h).logLines()).filter((l) => l.time >= startTime)
      const order = fencingOrder(lines, t0)
      if (r.cut) {
        const { victim, survivor } = r.cut
        r.handOvers = handOvers(lines, r.cut, t0)
        // Said in words: a lease that moved before the cut (the fencing lines show when) has neither.
        for (const h of r.handOvers)
          if (h.stoppedAt === null || h.takenAt === null)
            r.findings.push(
              `${h.lease} after the cut: ${victim} ${h.stoppedAt === null ? 'never stopped it' : 'stopped it'}, ${survivor} ${h.takenAt === null ? 'never took it' : 'took it'}`,
            )
      }
      Object.assign(r, figures, {
        sent: to - from,
        accepted: mine.size,
        fencing: order.lines,
        overlaps: order.overlaps.length,
        durationMs: now() - started,
      })
      r.findings.push(...order.overlaps)
      log(`t=${now()} ms  ${name}: ${JSON.stringify({ ...figures, stalls: r.stalls, overlaps: r.overlaps })}`)
      return r
    }

    /** Waits until the channel is on `where` (any hub when null) and has caught up; a stall if not. */
    const catchUp = async (r: ScenarioResult, what: string, where: HubName | null) => {
      const since = now()
      try {
        await waitFor(
          async () => caughtUp() && (where ? await connectedTo(where) : (await channelHub()) !== null),
          CATCH_UP_MS,
          what,
        )
        log(`t=${now()} ms  ${what}: caught up in ${now() - since} ms`)
      } catch {
        r.stalls++
        r.findings.push(
          `STALL ${what}: after ${CATCH_UP_MS} ms the channel ${caughtUp() ? 'had everything' : 'had not caught up'}, on ${(await channelHub()) ?? 'no hub'}`,
        )
      }
    }

    // --- 1. a hub cut off from Postgres, its channel still connected to it ----------------------------
    scenarios.push(
      await scenario('hub cut off from Postgres', async (r) => {
        const victim = (await channelHub()) ?? 'hubA'
        const survivor = other(victim)
        await sleep(options.calmMs)
        // What it runs under a lease (the bridge, retention…), not its own or its channels' leases.
        const held = ((await holds(victim)) ?? []).filter((n) => !/^(hub|subscriber):/.test(n))
        r.cut = { victim, survivor, held, at: Date.now() }
        netns.cut(victim, 'pg')
        log(`t=${now()} ms  cut ${victim} from pg; it held ${held.join(', ') || 'no work'}`)
        await catchUp(r, `${victim} cut off from Postgres`, survivor)
        await waitFor(
          async () => {
            const now = await holds(survivor)
            return now !== null && held.every((n) => now.includes(n))
          },
          CATCH_UP_MS,
          `${survivor} to hold what ${victim} held`,
        ).catch(() => r.findings.push(`${survivor} did not take all of ${held.join(', ')}`))
        await sleep(options.calmMs)
        netns.heal(victim, 'pg')
        log(`t=${now()} ms  healed ${victim}–pg`)
        r.rejoined = await waitFor(
          async () => {
            const view = await hub(victim).status()
            const self = view?.hubs.find((h) => h.id === hub(victim).id)
            return self !== undefined && self.holds.length === 0
          },
          CATCH_UP_MS,
          `${victim} to rejoin as a follower`,
        ).then(
          () => true,
          () => false,
        )
        if (!r.rejoined) r.findings.push(`${victim} did not rejoin as a follower holding nothing`)
        await sleep(options.calmMs)
      }),
    )

    // --- 2. the channel cut off from its hub, then from both, then one back ----------------------
    scenarios.push(
      await scenario('channel cut off from its hubs', async (r) => {
        const first = (await channelHub()) ?? 'hubA'
        const second = other(first)
        await sleep(options.calmMs)
        netns.cut('chan', first)
        log(`t=${now()} ms  cut chan from ${first}`)
        await catchUp(r, `channel cut off from ${first}`, second)
        netns.cut('chan', second)
        log(`t=${now()} ms  cut chan from ${second} too`)
        await sleep(options.calmMs)
        netns.heal('chan', first)
        log(`t=${now()} ms  healed chan–${first}`)
        await catchUp(r, `${first} back after both were cut`, first)
        netns.heal('chan', second)
        await sleep(options.calmMs)
      }),
    )

    // --- 3. a hub cut off from the chat platform, keeping Postgres and its channel ------------------
    const session = client
    /** How often the chat shows a message of the bot's saying `text`. */
    const said = (text: string) =>
      telegram.sent().filter((m) => m.userId === telegram.botId && m.text.includes(text)).length
    const linesShown = (text: string) => chatShown.filter((e) => e.content.includes(text)).length
    scenarios.push(
      await scenario('hub cut off from a chat platform', async (r) => {
        await sleep(options.calmMs)
        // The hub running the bridge, as one look found it (a second look may find none, between a
        // renewal and the next under load, and a guess cut the hub that did not hold it); after
        // scenario 2 the channel is back on it too, so the prompt and the reply are raised on the hub
        // that can no longer send them.
        let holder: HubName | null = null
        await waitFor(
          async () => {
            holder = await bridgeHolder()
            return holder !== null
          },
          CATCH_UP_MS,
          `a hub to hold ${BRIDGE}`,
        )
        const victim: HubName = holder ?? 'hubA'
        const survivor = other(victim)
        // A line before the cut, from the operator: the chat the session's reply goes to.
        await telegram.dm(ALICE, 'before the platform cut')
        await waitFor(() => linesShown('before the platform cut') > 0, CATCH_UP_MS, 'the line before the cut')
        const chatId = chatShown.find((e) => e.content.includes('before the platform cut'))?.chatId ?? ''
        r.cut = { victim, survivor, held: [BRIDGE], at: Date.now() }
        netns.cut(victim, PLATFORM)
        log(`t=${now()} ms  cut ${victim} from the platform; the channel is on ${await channelHub()}`)
        await telegram.dm(ALICE, 'written during the platform cut')
        await session.notification({
          method: 'notifications/claude/channel/permission_request',
          params: {
            request_id: 'hjkmn',
            tool_name: 'Bash',
            description: 'run the tests',
            input_preview: '{"command":"npm test"}',
          },
        })
        const replied = session.callTool({
          name: 'reply',
          arguments: { chat_id: chatId, text: 'a reply after the platform cut' },
        })
        let movedTo: HubName | null = null
        await waitFor(async () => (await holds(survivor))?.includes(BRIDGE) === true, CATCH_UP_MS, 'the move')
          .then(() => {
            movedTo = survivor
            log(`t=${now()} ms  ${survivor} holds ${BRIDGE}`)
          })
          .catch(() => r.findings.push(`${survivor} did not take ${BRIDGE} from ${victim}`))
        await waitFor(
          () =>
            said('a reply after the platform cut') > 0 &&
            said('$ npm test') > 0 &&
            linesShown('written during the platform cut') > 0,
          CATCH_UP_MS,
          'the prompt and the reply in the chat, the line in the session',
        )
          .then(() => log(`t=${now()} ms  prompt and reply in the chat, the line in the session`))
          .catch(() =>
            r.findings.push('the prompt, the reply or the line written during the cut did not arrive'),
          )
        await replied.catch((err) => r.findings.push(`the reply tool failed: ${(err as Error).message}`))
        netns.heal(victim, PLATFORM)
        log(`t=${now()} ms  healed ${victim}–platform`)
        // It stood aside for a lease after giving the bridge up and takes it back only if nobody holds
        // it: a few leases after the heal it is still a follower. (Late copies get their chance too.)
        await sleep(3 * LEASE_MS)
        const [victimHolds, survivorHolds] = [await holds(victim), await holds(survivor)]
        r.rejoined =
          victimHolds !== null && !victimHolds.includes(BRIDGE) && survivorHolds?.includes(BRIDGE) === true
        if (!r.rejoined)
          r.findings.push(
            `after the heal ${victim} holds ${victimHolds?.join(', ')}; ${survivor} ${survivorHolds?.join(', ')}`,
          )
        r.chat = {
          bridgeMovedTo: movedTo,
          prompts: said('$ npm test'),
          replies: said('a reply after the platform cut'),
          lines: linesShown('written during the platform cut'),
        }
        log(`t=${now()} ms  in the chat: ${JSON.stringify(r.chat)}`)
      }),
    )
    // --- 4. links that flap while events flow ------------------------------------------------------
    scenarios.push(
      await scenario('links flapping', async (r) => {
        const links = [
          ['chan', 'hubA'],
          ['hubA', 'pg'],
          ['chan', 'hubB'],
          ['hubB', 'pg'],
        ] as const
        const end = now() + options.flapMs
        let flaps = 0
        while (now() < end) {
          const [near, far] = links[Math.floor(random() * links.length)] as (typeof links)[number]
          netns.cut(near, far)
          await sleep(1_000 + random() * 2_000)
          netns.heal(near, far)
          flaps++
          await sleep(1_000 + random() * 2_000)
        }
        log(`t=${now()} ms  ${flaps} flaps`)
        await catchUp(r, 'after the flapping', null)
      }),
    )

    failed = scenarios.some(missed)
    if (failed) log(`channel log:\n${channelLog.join('').slice(-20_000)}`)
  } finally {
    await client?.close().catch(() => {})
    for (const h of hubs.values()) await h.stop().catch(() => {})
    await pg?.stop().catch(() => {})
    await platform?.close().catch(() => {})
    netns.destroy()
    if (!(failed && options.keepOnFailure))
      for (const home of homes) rmSync(home.dir, { recursive: true, force: true })
  }
  return { seed, scenarios, homes: failed && options.keepOnFailure ? homes.map((h) => h.dir) : null }
}

/**
 * Runs `switchboard args…` in the hub's namespace with its home, and gives what it printed. Not
 * execFileSync: the fake platform lives in this process, and a second of a blocked event loop is a
 * poll it answers late, which the hub's bridge takes for a platform out of reach.
 */
async function switchboard(
  netns: Netns,
  name: HubName,
  home: TestHome,
  cli: string,
  args: string[],
): Promise<string> {
  const [command, argv] = netns.argv(name, process.execPath, [cli, ...args])
  return (await execFileAsync(command, argv, { env: home.env })).stdout
}

/** Whether a scenario missed a target. */
export function missed(r: ScenarioResult): boolean {
  return (
    r.lost + r.shownTwice + r.outOfOrder + r.stalls + r.overlaps > 0 ||
    r.seen !== r.accepted ||
    r.rejoined === false ||
    (r.handOvers ?? []).some((h) => h.stoppedAt === null || h.takenAt === null || h.takenAt <= h.stoppedAt) ||
    (r.chat !== undefined &&
      (r.chat.bridgeMovedTo !== r.cut?.survivor ||
        r.chat.prompts !== 1 ||
        r.chat.replies !== 1 ||
        r.chat.lines !== 1))
  )
}

/** The log line says the hub stopped the work of `lease`: fenced, told it lost it, or handed it over. */
function stops(l: LogLine, lease: string): boolean {
  if (l.msg.startsWith('no lease renewal reached the store in time')) return (l.leases ?? []).includes(lease)
  return (
    l.lease === lease &&
    (l.msg.startsWith('lease lost; its work stops here') || l.msg.startsWith('handed over'))
  )
}

/** For each lease the cut-off hub held: when, after the cut, it stopped that work and the other took it. */
function handOvers(
  lines: LogLine[],
  cut: NonNullable<ScenarioResult['cut']>,
  t0: number,
): NonNullable<ScenarioResult['handOvers']> {
  const after = lines.filter((l) => l.time >= cut.at).sort((a, b) => a.time - b.time)
  return cut.held.map((lease) => {
    const stopped = after.find((l) => l.hub === cut.victim && stops(l, lease))
    const taken = after.find(
      (l) =>
        l.hub === cut.survivor && l.lease === lease && l.msg.startsWith('lease taken; its work starts here'),
    )
    return { lease, stoppedAt: stopped ? stopped.time - t0 : null, takenAt: taken ? taken.time - t0 : null }
  })
}

/**
 * From the hubs' logs: each time a hub stopped work under a lease (fenced, or told it lost it) and
 * each time one took a lease and started its work, in order; and any moment two ran one lease's work.
 */
function fencingOrder(lines: LogLine[], t0: number): { lines: string[]; overlaps: string[] } {
  const out: string[] = []
  const overlaps: string[] = []
  const running = new Map<string, HubName>()
  const at = (l: LogLine) => `+${l.time - t0} ms`
  for (const l of [...lines].sort((a, b) => a.time - b.time)) {
    if (l.msg.startsWith('no lease renewal reached the store in time')) {
      const leases = (l.leases ?? []).filter((n) => !n.startsWith('subscriber:'))
      const channels = (l.leases ?? []).length - leases.length
      out.push(
        `${at(l)} ${l.hub} fenced: stops ${leases.join(', ') || 'no work'}, ends ${channels} channel(s)`,
      )
      for (const n of leases) if (running.get(n) === l.hub) running.delete(n)
    } else if (l.msg.startsWith('lease lost; its work stops here') && l.lease) {
      out.push(`${at(l)} ${l.hub} lost ${l.lease}: stops it`)
      if (running.get(l.lease) === l.hub) running.delete(l.lease)
    } else if (l.msg.startsWith('handed over') && l.lease) {
      out.push(`${at(l)} ${l.hub} hands over ${l.lease}: stopped it, releases it`)
      if (running.get(l.lease) === l.hub) running.delete(l.lease)
    } else if (l.msg.includes('has not answered this hub in time')) {
      out.push(`${at(l)} ${l.hub} hears nothing from its platform: gives the bridge up`)
    } else if (l.msg.startsWith('lease taken; its work starts here') && l.lease) {
      const holder = running.get(l.lease)
      if (holder && holder !== l.hub)
        overlaps.push(`TWO HOLDERS ${l.lease}: ${l.hub} started it ${at(l)} while ${holder} still ran it`)
      running.set(l.lease, l.hub)
      out.push(`${at(l)} ${l.hub} takes ${l.lease}`)
    } else if (l.msg === 'channel connected' || l.msg === 'channel disconnected') {
      out.push(`${at(l)} ${l.hub} ${l.msg === 'channel connected' ? 'gets' : 'drops'} the channel`)
    }
  }
  return { lines: out, overlaps }
}

const execFileAsync = promisify(execFile)
