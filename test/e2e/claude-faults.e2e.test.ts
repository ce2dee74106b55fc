// Claude Code's own faults (issue 37, item 3), with the real CLI offline against the fake Messages API:
// a CLI killed mid-turn, a transcript that stops being written (a full disk), a hook that answers too
// late, a channel Claude Code takes in late. Each event ends in context or `unconfirmed` with why,
// operators hear of it, it goes down the ladder, and nothing waits without a bound.
import { execFileSync, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { textOf } from '../fakes/anthropic.js'
import { PrintSession } from '../helpers/claude.js'
import {
  adminCall,
  drivingEnv,
  e2eWorld,
  printSession,
  startDrivingHub,
  startedSession,
  waitForChannel,
} from '../helpers/e2e.js'
import { CLI, waitFor } from '../helpers/home.js'
import { PLUGIN_CHANNEL } from '../helpers/plugin.js'
import {
  channelProcesses,
  deliveriesOf,
  inContextCounts,
  postWebhook,
  sendDuringLongTurn,
  waitForState,
} from '../helpers/receipts.js'
import { SseReader } from '../helpers/sse.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

/** The Claude Code processes running in `cwd`, by pid. */
function claudeProcessesIn(cwd: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const argv0 = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? ''
      if (/claude(\.exe)?$/.test(argv0) && readlinkSync(`/proc/${entry}/cwd`) === cwd)
        found.push(Number(entry))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found
}

/** A promise the test resolves: the fake model holds a turn's stream until then. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((r) => {
    open = r
  })
  return { opened, open }
}

/**
 * The model holds the turn that starts the long turn until the test opens the gate (opened after the
 * test at the latest); a request that also carries `label`, and every other, is answered `answer`.
 */
function holdTheLongTurn(label: string, answer: string) {
  const held = gate()
  world.closers.push(held.open)
  world.fake.respond((request) =>
    textOf(request.messages).includes('start the long turn') && !textOf(request.messages).includes(label)
      ? { text: 'working on it for a long while', pause: { at: 4, until: held.opened } }
      : { text: answer },
  )
  return held
}
it("marks unconfirmed, tells operators and sends with the session's next line the event a driven CLI SIGKILLed mid-turn had queued", {
  timeout: 90_000,
}, async () => {
  const secret = await world.home.addSource('ci')
  const operator = await world.home.addSender('ops', true)
  await startDrivingHub(world)
  const ops = await SseReader.open(world.home.url, operator)
  world.closers.push(() => ops.close())
  holdTheLongTurn('in flight when the CLI died', 'ok')
  const { json: session } = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'start the long turn',
    options: { cwd: world.claude.cwd },
    topics: ['ci'],
  })
  await waitFor(
    () => world.fake.requests.some((r) => textOf(r.messages).includes('start the long turn')),
    30_000,
    'the long turn to start',
  )
  // The model is answering: the CLI queues the event's line behind the turn.
  const id = await postWebhook(world, 'ci', secret, 'in flight when the CLI died')
  await waitForState(world, [id], 'queued', 20_000)
  const [pid] = claudeProcessesIn(world.claude.cwd)
  expect(pid).toBeDefined()
  process.kill(pid as number, 'SIGKILL')

  const [receipt] = await waitForState(world, [id], 'unconfirmed', 20_000)
  expect(receipt).toMatchObject({ subscriber: `session:${session.id}`, in_context: null })
  expect(receipt?.reason).toMatch(
    /^the CLI ended before the line carrying it entered the conversation \(the CLI exited with signal SIGKILL/,
  )
  const notice = await ops.waitFor('notice', 10_000)
  expect(notice.data).toMatchObject({ event: id })
  expect(String((notice.data as { text: string }).text)).toMatch(/goes in with the session's next line/)

  // Down the ladder: the session's next line (which resumes it) carries the event first.
  const next = await adminCall(world, 'POST', `/api/sessions/${session.id}/messages`, { text: 'next line' })
  expect(next.status).toBe(202)
  const [again] = await waitForState(world, [id], 'in_context', 60_000)
  expect(again?.tries).toBe(2)
  await waitFor(
    () => world.fake.requests.some((r) => textOf(r.messages).includes('in flight when the CLI died')),
    30_000,
    'the model to be shown the event',
  )
  // Taken once: a later line does not carry it again.
  await adminCall(world, 'POST', `/api/sessions/${session.id}/messages`, { text: 'next line once more' })
  await waitFor(
    () => world.fake.requests.some((r) => textOf(r.messages).includes('next line once more')),
    30_000,
    'the third line',
  )
  const last = world.fake.requests.at(-1)
  expect(textOf(last?.messages ?? []).split('in flight when the CLI died').length - 1).toBe(1)
})

it("hands back what a hook that gave up never carried: pending, said, and taken by the session's next hook", {
  timeout: 120_000,
}, async () => {
  const env = drivingEnv(world)
  writeFileSync(join(world.claude.cwd, '.switchboard.json'), JSON.stringify({ topics: ['ci'] }))
  const hub = await startDrivingHub(world)
  // Whatever happens, the hub runs again before it is stopped.
  world.closers.push(() => hub.kill('SIGCONT'))
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })
  // Each hook waits 2 s for the hub, not 10: the test's hub is stopped longer than that.
  const settings = join(world.claude.home, '.claude', 'settings.json')
  writeFileSync(
    settings,
    readFileSync(settings, 'utf8')
      .replace(/--max-time \d+/g, '--max-time 2')
      .replace(/(x-switchboard-timeout: )\d+/g, '$12'),
  )
  const secret = await world.home.addSource('ci')
  const operator = await world.home.addSender('ops', true)
  const ops = await SseReader.open(world.home.url, operator)
  world.closers.push(() => ops.close())
  world.fake.respond(() => ({ text: 'ok' }))
  const { SWITCHBOARD_DRIVEN: _, ...person } = env
  const session = new PrintSession([], {
    cwd: world.claude.cwd,
    env: { ...person, SWITCHBOARD_CHANNEL_NAME: 'by-hooks' },
  })
  world.closers.push(() => session.close())
  session.send('first prompt')
  await session.waitForResults(1)

  const id = await postWebhook(world, 'ci', secret, 'waits for the hook')
  // The hub stops answering (a machine out of breath): the prompt's hook gives up, Claude goes on.
  hub.kill('SIGSTOP')
  session.send('second prompt')
  await session.waitForResults(2)
  hub.kill('SIGCONT')
  const asked = (text: string) => world.fake.requests.find((r) => textOf(r.messages).includes(text))
  expect(textOf(asked('second prompt')?.messages)).not.toContain('waits for the hook')
  // The hub, running again, finds the hook gone: what it took for it is pending again, and said.
  await waitFor(
    async () => (await deliveriesOf(world, id))[0]?.reason?.includes('hook gave up') ?? false,
    20_000,
    'the event handed back',
  )
  expect((await deliveriesOf(world, id))[0]).toMatchObject({
    subscriber: 'by-hooks',
    state: 'stored',
    written: null,
  })
  const notice = await ops.waitFor('notice', 10_000)
  expect(String((notice.data as { text: string }).text)).toMatch(
    /: event ev_\w+ not handed over: the session's hook gave up before the hub answered \(its 2 s timeout ran out/,
  )

  // The session's next hook takes it into the conversation.
  session.send('third prompt')
  await session.waitForResults(3)
  expect(textOf(asked('third prompt')?.messages)).toContain('waits for the hook')
  await waitForState(world, [id], 'in_context', 30_000)
})

/** A folder on a tmpfs of its own, `size` big (mounting needs root), unmounted after the test. */
function smallDisk(size: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'claude-small-disk-'))
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status !== 0) {
    rmSync(dir, { recursive: true })
    return null
  }
  world.closers.unshift(() => {
    spawnSync('umount', ['-l', dir])
    rmSync(dir, { recursive: true, force: true })
  })
  return dir
}

/** Writes into `dir` until its disk is full. */
function fill(dir: string): void {
  spawnSync('sh', ['-c', `cat /dev/zero > '${join(dir, 'filler')}'`])
}

const canMount = process.getuid?.() === 0

it.skipIf(!canMount)(
  "says an event is unconfirmed because the transcript's disk is full, tells operators, and the hook takes it (needs root to mount a tmpfs)",
  {
    timeout: 90_000,
  },
  async () => {
    const config = smallDisk('2m')
    expect(config).not.toBeNull()
    copyFileSync(join(world.claude.home, '.claude.json'), join(config as string, '.claude.json'))
    const secret = await world.home.addSource('ci')
    const operator = await world.home.addSender('ops', true)
    const session = await startedSession(world, PLUGIN_CHANNEL, {
      CLAUDE_CONFIG_DIR: config as string,
      SWITCHBOARD_CONFIRM_MS: '300',
      SWITCHBOARD_CONFIRM_TRIES: '2',
    })
    const ops = await SseReader.open(world.home.url, operator)
    world.closers.push(() => ops.close())
    world.fake.respond(() => ({ text: 'noted' }))
    const before = await postWebhook(world, 'ci', secret, 'while the disk had room')
    await waitForState(world, [before], 'in_context', 30_000)

    fill(config as string)
    // The transcript's last page may still have room: a long line uses it up.
    session.send(`a long line ${'x'.repeat(16_384)}`)
    await session.waitForTurns(2)
    const id = await postWebhook(world, 'ci', secret, 'after the disk filled up')
    const [receipt] = await waitForState(world, [id], 'unconfirmed', 30_000)
    // Claude Code took it and went on answering; only its transcript could not say so.
    expect(receipt).toMatchObject({ tries: 1, in_context: null })
    expect(receipt?.reason).toMatch(
      /^the disk holding the session's transcript is full \(\d+ bytes free in .*\): Claude Code answers, but writes down nothing it was shown$/,
    )
    // Not written again: the model was shown it once.
    const shown = world.fake.requests.at(-1)
    expect(textOf(shown?.messages).split('after the disk filled up').length - 1).toBe(1)
    const notice = await ops.waitFor('notice', 10_000)
    expect(notice.data).toMatchObject({ event: id })
    // Down the ladder: the session's hook takes it, once.
    const subscriber = receipt?.subscriber as string
    const take = () =>
      adminCall<{ events: { id: string }[] }>(world, 'POST', '/api/hook/take', { subscriber })
    expect((await take()).json.events.map((e) => e.id)).toEqual([id])
    expect((await take()).json.events).toEqual([])
  },
)

it.skipIf(!canMount)(
  "tells operators when a driven session's CLI reports its transcript writes lost (session_writes_lost; needs root to mount a tmpfs)",
  {
    timeout: 90_000,
  },
  async () => {
    const config = smallDisk('2m') as string
    copyFileSync(join(world.claude.home, '.claude.json'), join(config, '.claude.json'))
    // The hub first: one a command starts would run its sessions without the small disk.
    await startDrivingHub(world, { CLAUDE_CONFIG_DIR: config })
    const operator = await world.home.addSender('ops', true)
    const ops = await SseReader.open(world.home.url, operator)
    world.closers.push(() => ops.close())
    world.fake.respond(() => ({ text: 'ok' }))
    const { json: session } = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
      prompt: 'first',
      options: { cwd: world.claude.cwd },
    })
    const turns = async (n: number) =>
      waitFor(
        async () =>
          (
            await adminCall<{ lines: { line: { type: string } }[] }>(
              world,
              'GET',
              `/api/sessions/${session.id}/lines`,
            )
          ).json.lines.filter((l) => l.line.type === 'result').length >= n,
        30_000,
        `${n} turns`,
      )
    await turns(1)
    fill(config)
    await adminCall(world, 'POST', `/api/sessions/${session.id}/messages`, {
      text: `long ${'x'.repeat(16_384)}`,
    })
    await turns(2)
    // Stopped, the CLI exits 0 and says, last, what it could not save.
    await adminCall(world, 'POST', `/api/sessions/${session.id}/stop`)
    const notice = await ops.waitFor('notice', 10_000)
    expect(notice.data).toMatchObject({ session: `session:${session.id}` })
    expect(String((notice.data as { text: string }).text)).toMatch(
      /: Claude Code could not save lines of the session's transcript \(ENOSPC: the disk is full\); what it was shown this run, events included, may be missing when it is resumed$/,
    )
  },
)

/**
 * Makes the world's `switchboard` (what the plugin's launcher starts) a channel whose answers to
 * Claude Code, its initialize answer first, are held `ms` after it starts: a server Claude Code takes
 * in late, as under load.
 */
function slowChannel(ms: number): void {
  const shim = join(world.claude.bin, 'switchboard')
  const main = join(import.meta.dirname, '../../dist/cli/main.js')
  writeFileSync(
    shim,
    `#!${process.execPath}
const { spawn } = require('node:child_process')
const child = spawn(process.execPath, [${JSON.stringify(main)}, ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'inherit'] })
const held = []
let open = false
setTimeout(() => { open = true; for (const c of held.splice(0)) process.stdout.write(c) }, ${ms})
child.stdout.on('data', (c) => (open ? process.stdout.write(c) : held.push(c)))
child.on('exit', (code) => process.exit(code ?? 1))
process.on('SIGTERM', () => child.kill('SIGTERM'))
`,
    { mode: 0o755 },
  )
}

it('says unconfirmed, with why, the events of a channel Claude Code set up after the first turn began, tells operators, and the hook takes them', {
  timeout: 90_000,
}, async () => {
  slowChannel(6_000)
  const secret = await world.home.addSource('ci')
  const operator = await world.home.addSender('ops', true)
  const ops = await SseReader.open(world.home.url, operator)
  world.closers.push(() => ops.close())
  const session = printSession(world, PLUGIN_CHANNEL, {
    SWITCHBOARD_CONFIRM_MS: '500',
    SWITCHBOARD_CONFIRM_TRIES: '2',
  })
  world.fake.respond(() => ({ text: 'noted' }))
  await waitFor(
    async () => (await world.home.subscribers()).length > 0,
    30_000,
    'the channel to reach the hub',
  )
  // The first line comes while Claude Code still waits for the channel's answer: its turn begins
  // with the server pending, and the channel is never wired in it.
  session.send('first line')
  const id = await postWebhook(world, 'ci', secret, 'for a channel set up late')
  await session.waitForResults(1)
  const init = session.lines.find((l) => l.type === 'system' && l.subtype === 'init')
  expect(init?.mcp_servers).toEqual([expect.objectContaining({ status: 'pending' })])

  const [receipt] = await waitForState(world, [id], 'unconfirmed', 30_000)
  expect(receipt).toMatchObject({ tries: 2, in_context: null })
  expect(receipt?.reason).toMatch(
    /^Claude Code set the channel up late, after the session's turn had begun \(.*\): it wires a channel's notifications as a turn begins, so none reach Claude before the session's next turn$/,
  )
  const notice = await ops.waitFor('notice', 10_000)
  expect(notice.data).toMatchObject({ event: id })
  expect(world.fake.requests.some((r) => textOf(r.messages).includes('for a channel set up late'))).toBe(
    false,
  )
  const subscriber = receipt?.subscriber as string
  const take = () => adminCall<{ events: { id: string }[] }>(world, 'POST', '/api/hook/take', { subscriber })
  expect((await take()).json.events.map((e) => e.id)).toEqual([id])
  expect((await take()).json.events).toEqual([])
})

it("keeps at the hub, unacknowledged, the event a channel session's CLI SIGKILLed mid-turn had queued, and ends it in context once the session is resumed", {
  timeout: 120_000,
}, async () => {
  const secret = await world.home.addSource('ci')
  const first = await startedSession(world, PLUGIN_CHANNEL, { SWITCHBOARD_CONFIRM_MS: '2000' })
  const sessionId = String(first.lines.find((l) => l.type === 'system')?.session_id)
  const held = holdTheLongTurn('queued when the CLI died', 'noted')
  const [queued] = await sendDuringLongTurn(world, secret, 1, 'queued when the CLI died')
  const [receipt] = await waitForState(world, [queued as string], 'queued', 30_000)
  const subscriber = receipt?.subscriber as string
  const [pid] = claudeProcessesIn(world.claude.cwd)
  expect(pid).toBeDefined()
  process.kill(pid as number, 'SIGKILL')
  await first.close()
  // The channel ended with its CLI, acknowledging nothing: the hub holds the event for the session.
  await waitFor(async () => channelProcesses(world).length === 0, 10_000, 'the channel to end')
  expect(await world.home.pending(subscriber)).toBeGreaterThanOrEqual(1)
  expect(inContextCounts(world).get(queued as string)).toBeUndefined()

  held.open()
  // Resumed at once: the new channel tells the dead process's queue records from a live queue by
  // Claude Code's start, to 10 ms (claude-started.ts).
  const resumed = printSession(world, [...PLUGIN_CHANNEL, '--resume', sessionId], {
    SWITCHBOARD_CONFIRM_MS: '2000',
  })
  await waitForChannel(world, 60_000)
  await resumed.waitForMcpServer()
  await resumed.sendUntilChannelWired('back again')
  await waitForState(world, [queued as string], 'in_context', 60_000)
  expect(inContextCounts(world).get(queued as string)).toBe(1)
})
