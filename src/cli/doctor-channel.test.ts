// `switchboard doctor` on how Claude Code starts the channel: the plugin installed and enabled, the
// plugin installed but disabled (Claude Code's enabledPlugins, user-wide or in the project), or an
// MCP server running `switchboard channel`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { checkChannelRegistered } from './doctor-checks.js'

let home: string
let project: string

/** A JSON file as Claude Code writes it. */
function write(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(value, null, 2))
}

/** What `claude plugin install switchboard@switchboard` leaves, enabled or (`plugin disable`) not. */
function installPlugin(enabled: boolean, settings = join(home, '.claude', 'settings.json')): void {
  write(join(home, '.claude', 'plugins', 'installed_plugins.json'), {
    version: 2,
    plugins: { 'switchboard@switchboard': [{ scope: 'user', installPath: '/x', version: '0.1.0' }] },
  })
  write(settings, { enabledPlugins: { 'switchboard@switchboard': enabled } })
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'doctor-channel-'))
  project = join(home, 'project')
  mkdirSync(project)
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

it('passes the plugin installed and enabled', () => {
  installPlugin(true)
  expect(checkChannelRegistered(project, home)).toEqual([
    { name: 'channel', verdict: 'ok', detail: 'plugin switchboard@switchboard installed' },
  ])
})

it('says the plugin is installed but disabled, with the command that enables it', () => {
  installPlugin(false)
  expect(checkChannelRegistered(project, home)).toEqual([
    {
      name: 'channel',
      verdict: 'warn',
      detail: `plugin switchboard@switchboard is installed but disabled (${join(home, '.claude', 'settings.json')}): Claude Code does not load it, so no session has the channel`,
      fix: 'claude plugin enable switchboard@switchboard',
    },
  ])
})

it('reads the project’s own choice before the user’s, as Claude Code does', () => {
  installPlugin(true)
  const local = join(project, '.claude', 'settings.local.json')
  write(local, { enabledPlugins: { 'switchboard@switchboard': false } })
  expect(checkChannelRegistered(project, home)).toEqual([
    expect.objectContaining({
      verdict: 'warn',
      detail: expect.stringContaining(`installed but disabled (${local})`),
      fix: `claude plugin enable switchboard@switchboard (in ${project})`,
    }),
  ])
})

it('passes a disabled plugin when switchboard channel is an MCP server, and says both', () => {
  installPlugin(false)
  write(join(project, '.mcp.json'), {
    mcpServers: { switchboard: { command: 'switchboard', args: ['channel'] } },
  })
  const checks = checkChannelRegistered(project, home)
  expect(checks.map((c) => c.verdict)).toEqual(['warn', 'ok'])
  expect(checks[1]?.detail).toBe(`switchboard channel is an MCP server in ${join(project, '.mcp.json')}`)
})
