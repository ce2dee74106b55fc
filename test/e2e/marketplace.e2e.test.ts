// The documented way: add this repository as a marketplace, install the plugin, enable its channel
// with --channels plugin:switchboard@switchboard; the hub's own sessions, which load it too, stay out.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { claudeCommand, ROOT } from '../helpers/claude.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'
import { pathWithoutSwitchboard, webhookShown } from '../helpers/plugin.js'

const world = e2eWorld({ channelPlugin: 'switchboard', channelMarketplace: 'switchboard' })

const SHOWN =
  /<channel source="plugin:switchboard:switchboard"[^>]*origin="alerts"[^>]*>\s*disk almost full on db-1/

function install(): void {
  expect(claudeCommand(world.claude, ['plugin', 'marketplace', 'add', ROOT])).toMatch(
    /added marketplace: switchboard/,
  )
  expect(claudeCommand(world.claude, ['plugin', 'install', 'switchboard@switchboard'])).toMatch(
    /installed plugin/,
  )
  expect(claudeCommand(world.claude, ['plugin', 'list'])).toMatch(/switchboard@switchboard[\s\S]*enabled/)
}

// Installing runs the real CLI three times, synchronously, before the session does: on a loaded
// machine that alone can take most of vitest's default 30 s.
const INSTALL_AND_RUN = { timeout: 90_000 }

it(
  'installs from the marketplace entry and delivers events through the installed plugin',
  INSTALL_AND_RUN,
  async () => {
    install()
    const shown = await webhookShown(
      world,
      ['--channels', 'plugin:switchboard@switchboard'],
      {},
      'disk almost full on db-1',
    )
    expect(shown).toMatch(SHOWN)
  },
)

it('delivers through the installed plugin when no switchboard is on PATH', INSTALL_AND_RUN, async () => {
  install()
  // The installed copy is the plugin folder alone, in ~/.claude/plugins/cache: the launcher finds the
  // checkout through the marketplace Claude Code recorded.
  const plugins = join(world.claude.home, '.claude/plugins')
  const installed = JSON.parse(readFileSync(join(plugins, 'installed_plugins.json'), 'utf8'))
  const copy: string = installed.plugins['switchboard@switchboard'][0].installPath
  expect(copy.startsWith(join(plugins, 'cache'))).toBe(true)
  expect(existsSync(join(copy, 'launch.mjs'))).toBe(true)
  expect(existsSync(join(copy, 'dist'))).toBe(false)
  const PATH = pathWithoutSwitchboard(join(world.claude.home, 'bare-bin'))
  const shown = await webhookShown(
    world,
    ['--channels', 'plugin:switchboard@switchboard'],
    { PATH },
    'disk almost full on db-1',
  )
  expect(shown).toMatch(SHOWN)
})

it('keeps the channel the plugin starts inside a driven session off the hub: no extra subscriber', {
  timeout: 90_000,
}, async () => {
  install()
  await startDrivingHub(world)
  world.fake.respond(() => ({ text: 'ready' }))
  type Line = { line: { type: string; subtype?: string; mcp_servers?: { name: string; status: string }[] } }
  const { json } = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'get ready',
    options: { cwd: world.claude.cwd },
  })
  const idle = () =>
    waitFor(
      async () =>
        (await adminCall<{ status: string }>(world, 'GET', `/api/sessions/${json.id}`)).json.status ===
        'idle',
      60_000,
      'the turn to end',
    )
  await idle()
  // Claude Code connects plugin servers beside the first turn: a later turn's init says it is up.
  const pluginUp = async () => {
    const { lines } = (await adminCall<{ lines: Line[] }>(world, 'GET', `/api/sessions/${json.id}/lines`))
      .json
    return lines.some(
      ({ line }) =>
        line.subtype === 'init' &&
        line.mcp_servers?.some(
          (s) => s.name === 'plugin:switchboard:switchboard' && s.status === 'connected',
        ),
    )
  }
  for (let turn = 0; !(await pluginUp()); turn++) {
    expect(turn, 'the plugin server to be connected').toBeLessThan(10)
    await adminCall(world, 'POST', `/api/sessions/${json.id}/messages`, { text: 'again' })
    await idle()
  }
  // The session itself is the hub's subscriber; its CLI's channel is none.
  expect(await world.home.subscribers()).toEqual([`session:${json.id}`])
  const status = await adminCall<{ connected: { name: string }[] }>(world, 'GET', '/api/status')
  expect(status.json.connected.map((c) => c.name)).toEqual([`session:${json.id}`])
})
