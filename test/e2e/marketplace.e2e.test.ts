// The documented way: add this repository as a marketplace, install the plugin, enable its channel
// with --channels plugin:switchboard@switchboard.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { claudeCommand, ROOT } from '../helpers/claude.js'
import { e2eWorld } from '../helpers/e2e.js'
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

it('installs from the marketplace entry and delivers events through the installed plugin', async () => {
  install()
  const shown = await webhookShown(
    world,
    ['--channels', 'plugin:switchboard@switchboard'],
    {},
    'disk almost full on db-1',
  )
  expect(shown).toMatch(SHOWN)
})

it('delivers through the installed plugin when no switchboard is on PATH', async () => {
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
