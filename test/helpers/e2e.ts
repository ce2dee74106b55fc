// What every end-to-end test needs: a fake Messages API, a Switchboard home, a Claude Code HOME,
// and the things to close afterwards, set up before each test and torn down after it.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { FakeAnthropic } from '../fakes/anthropic.js'
import { CLAUDE_BIN, ClaudeHome, type ClaudeHomeOptions, PrintSession } from './claude.js'
import { CLI, type CliRun, runCli, TestHome, waitFor } from './home.js'
import { SseReader } from './sse.js'

export interface World {
  fake: FakeAnthropic
  home: TestHome
  claude: ClaudeHome
  /** Closed in reverse order after the test. */
  closers: (() => unknown)[]
}

/** A `-p` session on this world's Switchboard home, closed after the test; nothing sent yet. */
export function printSession(world: World, args: string[], env: Record<string, string> = {}): PrintSession {
  const session = new PrintSession(args, {
    cwd: world.claude.cwd,
    env: world.claude.env(world.fake.url, {
      SWITCHBOARD_HOME: world.home.dir,
      SWITCHBOARD_PORT: String(world.home.port),
      ...env,
    }),
  })
  world.closers.push(() => session.close())
  return session
}

/**
 * A `-p` session that has taken its first line, sent once a channel is connected to the hub (the hub
 * may be one that channel starts) and Claude Code counts its server as connected, and repeated until
 * Claude Code has wired the channel's notifications: Claude Code 2.1.330 wires them as a turn starts,
 * for the servers it has taken in by then (docs/transcript-receipts.md). `channels: false` for a
 * session that loads the server without the channels flag, which is never wired.
 */
export async function startedSession(
  world: World,
  args: string[],
  env: Record<string, string> = {},
  { channels = true }: { channels?: boolean } = {},
): Promise<PrintSession> {
  const session = printSession(world, args, env)
  await world.home.waitForHub(30_000)
  await waitForChannel(world)
  await session.waitForMcpServer()
  world.fake.respond(() => ({ text: 'ready' }))
  if (channels) await session.sendUntilChannelWired('get ready')
  else {
    session.send('get ready')
    await session.waitForResults(1)
  }
  return session
}

/**
 * Waits until a channel is connected to the hub (the hub may be one that channel starts) and its
 * session has set it up (the hub knows its rung): a line sent before that may start a turn in a
 * session that then never registers the channel.
 */
export async function waitForChannel(world: World, ms = 30_000): Promise<string> {
  let name = ''
  await waitFor(
    async () => {
      const answer = await adminCall<{
        channels: { name: string; connected: boolean; rung: string | null }[]
      }>(world, 'GET', '/api/channels').catch(() => null)
      name = answer?.json.channels?.find((c) => c.connected && c.rung)?.name ?? ''
      return name !== ''
    },
    ms,
    'a channel connected to the hub',
  )
  return name
}

/**
 * The environment of a hub, or a CLI command, whose driven sessions run the real CLI offline against
 * the fake API, in the world's HOME.
 */
export function drivingEnv(world: World, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...world.claude.env(world.fake.url),
    SWITCHBOARD_HOME: world.home.dir,
    SWITCHBOARD_PORT: String(world.home.port),
    CLAUDE_CODE_PATH: CLAUDE_BIN,
    ...extra,
  }
}

/** `switchboard serve` with drivingEnv, answering; stopped after the test (unless it ended before). */
export async function startDrivingHub(
  world: World,
  extra: Record<string, string> = {},
): Promise<ChildProcess> {
  const hub = spawn(process.execPath, [CLI, 'serve'], { env: drivingEnv(world, extra), stdio: 'ignore' })
  world.closers.push(async () => {
    if (hub.exitCode !== null || hub.signalCode !== null) return
    hub.kill('SIGTERM')
    await once(hub, 'exit')
  })
  await world.home.waitForHub(10_000)
  return hub
}

/** `switchboard routine add` of `spec`, written to a file in the home as a person would: its run. */
export async function addRoutine(
  world: World,
  spec: { name: string } & Record<string, unknown>,
): Promise<CliRun> {
  const file = join(world.home.dir, `${spec.name}.json`)
  writeFileSync(file, JSON.stringify(spec))
  return runCli(['routine', 'add', file], drivingEnv(world))
}

/** One request to the hub's admin API, with the home's admin token. */
export async function adminCall<T>(
  world: World,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const token = readFileSync(join(world.home.dir, 'admin-token'), 'utf8').trim()
  const res = await fetch(`${world.home.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as T }
}

/** Opens a sender's stream of replies, then sends a chat message into the sessions as that sender. */
export async function chatAs(world: World, token: string, text: string) {
  const replies = await SseReader.open(world.home.url, token)
  world.closers.push(() => replies.close())
  const posted = await fetch(`${world.home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: text,
  })
  return { replies, posted }
}

export function e2eWorld(options: ClaudeHomeOptions = {}): World {
  const world = { closers: [] } as unknown as World
  beforeEach(async () => {
    world.fake = await new FakeAnthropic().start()
    world.home = await TestHome.create()
    world.claude = new ClaudeHome(options)
    // A hub the CLI starts (`sender add` before any session, say) drives sessions as the tests' own do.
    Object.assign(world.home.extraEnv, drivingEnv(world))
  })
  afterEach(async () => {
    for (const close of world.closers.splice(0).reverse()) await close()
    await world.fake.close()
    await world.home.cleanup()
    world.claude.cleanup()
  })
  return world
}
