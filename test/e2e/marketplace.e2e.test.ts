// The documented way: add this repository as a marketplace, install the plugin, enable its channel
// with --channels plugin:switchboard@switchboard.
import { expect, it } from 'vitest'
import { textOf } from '../fakes/anthropic.js'
import { claudeCommand, ROOT } from '../helpers/claude.js'
import { e2eWorld, startedSession } from '../helpers/e2e.js'

const world = e2eWorld({ channelPlugin: 'switchboard', channelMarketplace: 'switchboard' })

it('installs from the marketplace entry and delivers events through the installed plugin', async () => {
  expect(claudeCommand(world.claude, ['plugin', 'marketplace', 'add', ROOT])).toMatch(
    /added marketplace: switchboard/,
  )
  expect(claudeCommand(world.claude, ['plugin', 'install', 'switchboard@switchboard'])).toMatch(
    /installed plugin/,
  )
  expect(claudeCommand(world.claude, ['plugin', 'list'])).toMatch(/switchboard@switchboard[\s\S]*enabled/)

  const secret = await world.home.addSource('alerts')
  const session = await startedSession(world, ['--channels', 'plugin:switchboard@switchboard'])

  const res = await fetch(`${world.home.url}/hooks/alerts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'disk almost full on db-1',
  })
  expect(res.status).toBe(202)
  await session.waitForResults(2)
  const shown = textOf(world.fake.requests.at(-1)?.messages)
  expect(shown).toMatch(
    /<channel source="plugin:switchboard:switchboard"[^>]*origin="alerts"[^>]*>\s*disk almost full on db-1/,
  )
})
