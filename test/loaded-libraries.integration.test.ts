// What a switchboard process loads, seen from outside it: every module it resolves is recorded by a
// preloaded hook (helpers/record-imports.mjs), not by anything in the hub. A hub loads a chat platform's
// library only for a bridge configured on that platform, web-push only when a browser is to be pushed
// to, the Postgres driver only on Postgres; `status` with no hub loads no database driver and no
// server, and of zod only what it uses (`--version`: e2e/startup-modules.e2e.test.ts). What is not
// loaded costs no start-up (`npm run bench:startup`).
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { bridgeAddArgs, FAKES } from './helpers/bridge-world.js'
import { CLI, runCli } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import { ImportRecord } from './helpers/imports.js'

const world = homePerTest()
let record: ImportRecord

beforeEach(() => {
  record = ImportRecord.create()
})
afterEach(() => record.close())

const PLATFORM_LIBRARIES = ['discord.js', 'grammy', '@slack/bolt']
const HUB_ONLY = ['better-sqlite3', 'pg', 'hono', '@hono/node-server', 'ws', 'web-push']

function serve(): ChildProcess {
  return spawn(process.execPath, [CLI, 'serve'], { env: record.env(world.home.env), stdio: 'ignore' })
}

/** SIGTERM, as a service manager stops it; the recorder writes what CommonJS loaded as the hub exits. */
async function stop(hub: ChildProcess): Promise<void> {
  const exited = once(hub, 'exit')
  hub.kill('SIGTERM')
  await exited
}

it('a hub with no bridge, on SQLite, loads no chat platform’s library, no web-push and no Postgres driver', async () => {
  const hub = serve()
  world.opened.push({ close: () => hub.kill('SIGKILL') })
  await world.home.waitForHub()
  // A command answered: the hub is past its start-up, serving.
  expect(await world.home.cli('status')).toContain('bridges: none')
  await stop(hub)
  const loaded = record.packages()
  // The recorder saw the hub: its HTTP framework and its database.
  expect(loaded).toContain('hono')
  expect(loaded).toContain('better-sqlite3')
  for (const library of [...PLATFORM_LIBRARIES, 'web-push', 'pg']) expect(loaded).not.toContain(library)
})

it('a hub with a Telegram bridge loads grammy, and neither Discord’s nor Slack’s library', async () => {
  const telegram = await FAKES.telegram()
  world.opened.push(telegram)
  await world.home.cli(...bridgeAddArgs(telegram))
  const hub = serve()
  world.opened.push({ close: () => hub.kill('SIGKILL') })
  await world.home.waitForHub()
  await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge to connect', 20_000)
  await stop(hub)
  const loaded = record.packages()
  expect(loaded).toContain('grammy')
  expect(loaded).not.toContain('discord.js')
  expect(loaded).not.toContain('@slack/bolt')
})

it('switchboard status with no hub loads no database driver, no server, no platform library and no logger', async () => {
  const status = await runCli(['status'], record.env(world.home.env))
  expect(status.stdout).toContain('hub: not running')
  const loaded = record.packages()
  // The recorder saw it: commander parsed the command line.
  expect(loaded).toContain('commander')
  // Nor the logger: a command that never starts a hub has nothing to tell about starting one.
  for (const library of [...HUB_ONLY, ...PLATFORM_LIBRARIES, '@modelcontextprotocol/sdk', 'pino'])
    expect(loaded).not.toContain(library)
})

it('switchboard status with no hub loads zod’s English messages and no other language’s', async () => {
  const status = await runCli(['status'], record.env(world.home.env))
  expect(status.stdout).toContain('hub: not running')
  const sources = record.sources()
  // The recorder saw zod: the settings the home and the port came in are checked with it.
  expect(sources.some((s) => /node_modules\/zod\/v4\/core\//.test(s))).toBe(true)
  expect(sources.filter((s) => /node_modules\/zod\/v4\/locales\/(?!en\.js$)/.test(s))).toEqual([])
})

it('switchboard status with no hub loads the settings’ table and none of the schemas of the hub protocol or of events', async () => {
  const status = await runCli(['status'], record.env(world.home.env))
  expect(status.stdout).toContain('hub: not running')
  const sources = record.sources()
  expect(sources).toContain('src/core/settings/table.ts')
  for (const schemas of ['src/core/hub-protocol.ts', 'src/core/event.ts', 'src/core/receipts.ts'])
    expect(sources).not.toContain(schemas)
})
