// What `serve` and `start` tell a person about Claude Code: how to connect it when nothing is, and
// what is connected when something is (the plugin, the hooks, the channel as an MCP server, channels
// that registered with the hub), read from Claude Code's own files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { banner } from './banner.js'
import { claudeConnection } from './claude-connection.js'

let home: string
let project: string
const hub = { pid: 4242, home: '/home/me/.switchboard', host: '127.0.0.1', port: 7420, log: 'hub.log' }

function write(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(value))
}

const shown = (channels: string[] = []) =>
  banner(hub, true, { claude: claudeConnection(project, home), channels })

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'banner-'))
  project = join(home, 'project')
  mkdirSync(project)
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

it('says how to connect Claude Code when nothing is connected', () => {
  expect(shown()).toContain('Connect Claude Code (once):')
})

it('says the plugin is installed instead of how to install it again', () => {
  write(join(home, '.claude', 'plugins', 'installed_plugins.json'), {
    version: 2,
    plugins: { 'switchboard@switchboard': [{ scope: 'user' }] },
  })
  const text = shown()
  expect(text).not.toContain('Connect Claude Code')
  expect(text).not.toContain('claude plugin install')
  expect(text).toContain('Claude Code has Switchboard:')
  expect(text).toContain('  plugin     switchboard@switchboard; a session with its channel:')
  expect(text).toContain('claude --dangerously-load-development-channels plugin:switchboard@switchboard')
})

it('says the hooks are installed, and which channels registered with the hub', () => {
  write(join(home, '.claude', 'settings.json'), {
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'switchboard hook Stop' }] }] },
  })
  const text = shown(['api', 'web'])
  expect(text).not.toContain('Connect Claude Code')
  expect(text).toContain(
    `  hooks      in ${join(home, '.claude', 'settings.json')}: every session reaches the hub`,
  )
  expect(text).toContain('  channels   api, web have registered with this hub')
})

it('says switchboard channel is an MCP server where it is one', () => {
  write(join(home, '.claude.json'), { mcpServers: { sb: { command: 'switchboard', args: ['channel'] } } })
  const text = shown()
  expect(text).not.toContain('Connect Claude Code')
  expect(text).toContain(`  MCP server sb in ${join(home, '.claude.json')}; a session with its channel:`)
  expect(text).toContain('claude --dangerously-load-development-channels server:sb')
})
