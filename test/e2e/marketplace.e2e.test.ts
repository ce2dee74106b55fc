// The documented way: add this repository as a marketplace, install the plugin, enable its channel
// with --channels plugin:switchboard@switchboard.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { FakeAnthropic, textOf } from '../fakes/anthropic.js'
import { ClaudeHome, claudeCommand, PrintSession, ROOT } from '../helpers/claude.js'
import { TestHome, waitFor } from '../helpers/home.js'

let fake: FakeAnthropic
let home: TestHome
let claude: ClaudeHome
const closers: (() => unknown)[] = []

beforeEach(async () => {
  fake = await new FakeAnthropic().start()
  home = await TestHome.create()
  claude = new ClaudeHome({ channelPlugin: 'switchboard', channelMarketplace: 'switchboard' })
})

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  await fake.close()
  await home.cleanup()
  claude.cleanup()
})

it('installs from the marketplace entry and delivers events through the installed plugin', async () => {
  expect(claudeCommand(claude, ['plugin', 'marketplace', 'add', ROOT])).toMatch(
    /added marketplace: switchboard/,
  )
  expect(claudeCommand(claude, ['plugin', 'install', 'switchboard@switchboard'])).toMatch(/installed plugin/)
  expect(claudeCommand(claude, ['plugin', 'list'])).toMatch(/switchboard@switchboard[\s\S]*enabled/)

  const secret = await home.addSource('alerts')
  const session = new PrintSession(['--channels', 'plugin:switchboard@switchboard'], {
    cwd: claude.cwd,
    env: claude.env(fake.url, { SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) }),
  })
  closers.push(() => session.close())
  fake.respond(() => ({ text: 'ok' }))
  session.send('get ready')
  await session.waitForResults(1)
  await waitFor(
    async () => (await fetch(`${home.url}/health`).catch(() => null))?.ok === true,
    10_000,
    'the hub',
  )

  const res = await fetch(`${home.url}/hooks/alerts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'disk almost full on db-1',
  })
  expect(res.status).toBe(202)
  await session.waitForResults(2)
  const shown = textOf(fake.requests.at(-1)?.messages)
  expect(shown).toMatch(
    /<channel source="plugin:switchboard:switchboard"[^>]*origin="alerts"[^>]*>\s*disk almost full on db-1/,
  )
})
