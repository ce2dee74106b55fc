// Delivery you can prove (issue 23), the cases where the channel itself changes under the session: a
// reconnect through /mcp, two channels of two servers in one session, a channel killed and the
// session resumed. Real Claude Code CLI offline against the fake Messages API; every event ends in
// the session's transcript exactly once, through its own channel, and its receipt reads in_context.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { textOf } from '../fakes/anthropic.js'
import { CLAUDE_BIN, switchboardChannel } from '../helpers/claude.js'
import { e2eWorld, printSession, startDrivingHub, startedSession, waitForChannel } from '../helpers/e2e.js'
import { alive, waitFor } from '../helpers/home.js'
import { PLUGIN_CHANNEL } from '../helpers/plugin.js'
import {
  channelProcesses,
  deliveriesOf,
  inContextByServer,
  inContextCounts,
  postWebhook,
  sendDuringLongTurn,
  transcriptSummary,
  waitForState,
} from '../helpers/receipts.js'
import { TmuxSession } from '../helpers/tmux.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

/** Quicker tries than the default: a dropped event is written again after two seconds. */
const QUICK = { SWITCHBOARD_CONFIRM_MS: '2000' }

function expectOnceEach(ids: string[]): void {
  const counts = inContextCounts(world)
  expect(
    Object.fromEntries(ids.map((id) => [id, counts.get(id) ?? 0])),
    `--- transcript:\n${transcriptSummary(world)}`,
  ).toEqual(Object.fromEntries(ids.map((id) => [id, 1])))
}

/** Claude Code's own debug log of the interactive session (what it did with its MCP servers). */
const debugLog = () => join(world.claude.home, 'claude-debug-tmux.log')

function debugTail(): string {
  try {
    return readFileSync(debugLog(), 'utf8')
      .split('\n')
      .filter((l) => /MCP|mcp|[Cc]hannel/.test(l))
      .slice(-40)
      .join('\n')
  } catch {
    return '(no debug log)'
  }
}

/** A fake model that holds the turn an event `start the long turn` begins, until `release()`. */
function holdingModel(): { release: () => void } {
  let release!: () => void
  const held = new Promise<void>((r) => {
    release = r
  })
  world.fake.respond((request) =>
    textOf(request.messages).includes('start the long turn') &&
    !textOf(request.messages).includes('while held')
      ? { text: 'working on it for a long while', pause: { at: 4, until: held } }
      : { text: 'noted' },
  )
  return { release }
}

/** Interactive Claude Code under tmux with these user-scope servers on the dev channels flag. */
async function interactive(servers: Record<string, string>, extra: string[] = []): Promise<TmuxSession> {
  await startDrivingHub(world)
  for (const [server, name] of Object.entries(servers)) {
    const channel = switchboardChannel(world.home, name)
    world.claude.addUserMcpServer(server, { ...channel, env: { ...channel.env, ...QUICK } })
  }
  const terminal = new TmuxSession(
    [
      CLAUDE_BIN,
      '--dangerously-load-development-channels',
      ...Object.keys(servers).map((s) => `server:${s}`),
      '--debug-file',
      debugLog(),
      ...extra,
    ],
    { cwd: world.claude.cwd, env: world.claude.env(world.fake.url), timeoutSeconds: 240 },
  )
  world.closers.push(() => terminal.kill())
  await terminal.waitForScreen(/I am using this for local development/)
  terminal.keys('Enter')
  await terminal.waitForScreen(/❯/)
  return terminal
}

/** The row of a menu on screen that `❯` points at (the input prompt's `❯` is at the line's start). */
function selected(screen: string): string | undefined {
  return screen.split('\n').find((l) => /^\s+❯/.test(l))
}

/** Moves the `❯` of the menu on screen down to the row matching `row`, then Enter. */
async function choose(terminal: TmuxSession, row: RegExp): Promise<void> {
  for (let i = 0; i < 10; i++) {
    let at: string | undefined
    await waitFor(
      () => {
        at = selected(terminal.screen())
        return at !== undefined
      },
      10_000,
      'a menu',
    )
    if (row.test(at as string)) {
      terminal.keys('Enter')
      return
    }
    terminal.keys('Down')
    // The spinner of a running turn redraws the screen each second: wait for the pointer itself.
    await waitFor(() => selected(terminal.screen()) !== at, 5_000, 'the menu to move')
  }
  throw new Error(`no menu row ${row}\n--- screen:\n${terminal.screen()}`)
}

it('confirms events sent while an interactive session is idle, then across an /mcp reconnect: the new channel confirms what the old one left queued, none shown twice', {
  timeout: 240_000,
}, async () => {
  const secret = await world.home.addSource('ci')
  const { release } = holdingModel()
  const terminal = await interactive({ switchboard: 'tmux' })
  const failing = (err: Error) => {
    throw new Error(`${err.message}\n--- screen:\n${terminal.screen()}\n--- debug log:\n${debugTail()}`)
  }
  await waitForChannel(world)

  // Idle: each event its own turn, in context once.
  const idle: string[] = []
  for (let i = 0; i < 3; i++) {
    idle.push(await postWebhook(world, 'ci', secret, `idle event ${i}`))
    await waitForState(world, [idle[i] as string], 'in_context', 30_000).catch(failing)
  }

  // A long turn: events sent meanwhile are queued by Claude Code, written once, acknowledged by nobody.
  const queued = await sendDuringLongTurn(world, secret, 3, 'while held')
  await waitForState(world, queued, 'queued', 30_000).catch(failing)
  const [old] = channelProcesses(world)
  expect(old).toBeDefined()

  // /mcp → switchboard → Reconnect: Claude Code ends the old channel process and starts a new one.
  terminal.keys('-l', '/mcp')
  await terminal.waitForScreen(/❯ \/mcp/)
  terminal.keys('Enter')
  await terminal.waitForScreen(/MCP servers/)
  await choose(terminal, /switchboard/)
  await terminal.waitForScreen(/Reconnect/)
  await choose(terminal, /Reconnect/)
  await terminal.waitForScreen(/Reconnected to switchboard/).catch(failing)
  await waitFor(() => !alive(old as number), 15_000, 'the old channel process to end')
  await waitFor(() => channelProcesses(world).length === 1, 15_000, 'the new channel process')
  await waitForChannel(world)
  const after: string[] = []
  for (let i = 0; i < 2; i++)
    after.push(await postWebhook(world, 'ci', secret, `while held, reconnected ${i}`))

  release()
  await waitForState(world, [...queued, ...after], 'in_context', 60_000).catch(failing)
  // The new channel, handed the old one's unacknowledged events, found them queued and never wrote them.
  for (const id of queued) expect((await deliveriesOf(world, id))[0]?.tries).toBe(1)

  // Idle again, through the new channel.
  const later: string[] = []
  for (let i = 0; i < 2; i++) {
    later.push(await postWebhook(world, 'ci', secret, `idle after reconnect ${i}`))
    await waitForState(world, [later[i] as string], 'in_context', 30_000).catch(failing)
  }
  expectOnceEach([...idle, ...queued, ...after, ...later])
})

it('confirms the events of two channels of two servers in one session each through its own channel, and a loaded server off the channels list confirms none of them', {
  timeout: 240_000,
}, async () => {
  const alpha = await world.home.addSource('alpha')
  const beta = await world.home.addSource('beta')
  world.fake.respond(() => ({ text: 'noted' }))
  // `gamma` runs the channel too, subscribed to everything, but is not on the channels flag: Claude
  // Code drops every notification it writes, whatever the other two's lines say about the same ids.
  const gamma = switchboardChannel(world.home, 'gamma')
  world.claude.addUserMcpServer('gamma', {
    ...gamma,
    env: {
      ...gamma.env,
      SWITCHBOARD_DELIVERY: 'channel',
      SWITCHBOARD_CONFIRM_MS: '1000',
      SWITCHBOARD_CONFIRM_TRIES: '2',
    },
  })
  for (const [server, topic] of [
    ['alpha', 'alpha'],
    ['beta', 'beta'],
  ] as const) {
    const channel = switchboardChannel(world.home, server)
    channel.args.push('--topics', topic)
    world.claude.addUserMcpServer(server, { ...channel, env: { ...channel.env, ...QUICK } })
  }
  await startDrivingHub(world)
  const terminal = new TmuxSession(
    [CLAUDE_BIN, '--dangerously-load-development-channels', 'server:alpha', 'server:beta'],
    { cwd: world.claude.cwd, env: world.claude.env(world.fake.url), timeoutSeconds: 240 },
  )
  world.closers.push(() => terminal.kill())
  await terminal.waitForScreen(/I am using this for local development/)
  terminal.keys('Enter')
  const failing = (err: Error) => {
    throw new Error(`${err.message}\n--- screen:\n${terminal.screen()}`)
  }
  await waitFor(() => channelProcesses(world).length === 3, 30_000, 'three channel processes')

  const ids: { id: string; server: string }[] = []
  for (let i = 0; i < 3; i++) {
    ids.push({ id: await postWebhook(world, 'alpha', alpha, `for alpha ${i}`), server: 'alpha' })
    ids.push({ id: await postWebhook(world, 'beta', beta, `for beta ${i}`), server: 'beta' })
  }
  for (const { id, server } of ids) {
    const [receipt] = await waitForState(world, [id], 'in_context', 60_000).catch(failing)
    expect(receipt?.subscriber).toBe(server)
  }
  // Gamma was handed every one of them too; none reached Claude through it, so none is confirmed by it.
  const gammas = await waitForState(
    world,
    ids.map((e) => e.id),
    'unconfirmed',
    60_000,
  ).catch(failing)
  for (const r of gammas) expect(r).toMatchObject({ subscriber: 'gamma', in_context: null })
  expect(gammas[0]?.reason).toMatch(/channels are not enabled for this server/)
  // In context once each, through its own server's channel, never through the other's.
  expectOnceEach(ids.map((e) => e.id))
  const byServer = inContextByServer(world)
  expect(Object.fromEntries(byServer)).toEqual(Object.fromEntries(ids.map((e) => [`${e.id} ${e.server}`, 1])))
})

it('ends in context exactly once the events a killed channel left waiting, once the session is resumed (--resume)', {
  timeout: 240_000,
}, async () => {
  const secret = await world.home.addSource('ci')
  const first = await startedSession(world, PLUGIN_CHANNEL, QUICK)
  const sessionId = String(first.lines.find((l) => l.type === 'system')?.session_id)
  const { release } = holdingModel()
  const before = await postWebhook(world, 'ci', secret, 'before anything happened')
  await waitForState(world, [before], 'in_context', 30_000)

  // Events queued by Claude Code during a long turn: written, acknowledged by nobody yet.
  const queued = await sendDuringLongTurn(world, secret, 3, 'while held')
  await waitForState(world, queued, 'queued', 30_000)

  // The channel dies without a word; the hub keeps what comes meanwhile.
  const [channel] = channelProcesses(world)
  expect(channel).toBeDefined()
  process.kill(channel as number, 'SIGKILL')
  await waitFor(() => !alive(channel as number), 10_000, 'the channel to die')
  const orphaned: string[] = []
  for (let i = 0; i < 2; i++)
    orphaned.push(await postWebhook(world, 'ci', secret, `while held, no channel ${i}`))

  // The turn ends (the queued events enter it), then the session.
  release()
  await waitFor(
    () => queued.every((id) => inContextCounts(world).get(id) === 1),
    30_000,
    'the queued events in the turn',
  )
  await first.waitForTurns(3)
  await first.close()
  const away = await postWebhook(world, 'ci', secret, 'while the session was away')

  const resumed = printSession(world, [...PLUGIN_CHANNEL, '--resume', sessionId], QUICK)
  // A cold start of the CLI, its plugin's launcher and the channel: slow on a busy machine.
  await waitForChannel(world, 60_000).catch((err: Error) => {
    let debug = ''
    try {
      debug = readFileSync(resumed.debugFile, 'utf8')
        .split('\n')
        .filter((l) => /MCP|mcp|hannel/.test(l))
        .slice(-30)
        .join('\n')
    } catch {
      // no debug log yet
    }
    throw new Error(
      `${err.message}\n--- channel processes: ${channelProcesses(world).join(' ')}\n--- stderr:\n${resumed.stderr.join('').slice(-2000)}\n--- debug:\n${debug}`,
    )
  })
  await resumed.waitForMcpServer()
  await resumed.sendUntilChannelWired('back again')
  const all = [before, ...queued, ...orphaned, away]
  await waitForState(world, all, 'in_context', 60_000)
  expectOnceEach(all)
})
