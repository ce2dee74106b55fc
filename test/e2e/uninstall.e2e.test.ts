import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { CLAUDE_BIN, claudeCommand, ROOT } from '../helpers/claude.js'
import { e2eWorld } from '../helpers/e2e.js'
import { runCli } from '../helpers/home.js'

const world = e2eWorld()

/** PATH with Claude Code on it (or not), and the system's folders. */
function path(withClaude: boolean): string {
  const bin = join(world.claude.home, withClaude ? 'with-claude' : 'without-claude')
  mkdirSync(bin, { recursive: true })
  if (withClaude && !existsSync(join(bin, 'claude'))) symlinkSync(CLAUDE_BIN, join(bin, 'claude'))
  return `${bin}:/usr/bin:/bin`
}

/** `switchboard …` as the user runs it, in the Claude Code HOME; never throws. */
async function switchboard(withClaude: boolean, ...args: string[]) {
  const env = {
    ...world.claude.env(world.fake.url),
    SWITCHBOARD_HOME: world.home.dir,
    SWITCHBOARD_PORT: String(world.home.port),
    PATH: path(withClaude),
  }
  return runCli(args, env)
}

/** The README's set-up: marketplace and plugin, the channel and the driver as MCP servers, hooks, a hub. */
async function installEverything(): Promise<void> {
  claudeCommand(world.claude, ['plugin', 'marketplace', 'add', ROOT])
  claudeCommand(world.claude, ['plugin', 'install', 'switchboard@switchboard'])
  claudeCommand(world.claude, ['mcp', 'add', '-s', 'user', 'switchboard', '--', 'switchboard', 'channel'])
  claudeCommand(world.claude, ['mcp', 'add', 'switchboard-driver', '--', 'switchboard', 'mcp'])
  expect((await switchboard(true, 'install', 'claude', '--hooks')).code).toBe(0)
  const started = await switchboard(true, 'start')
  expect(started.code, started.stderr).toBe(0)
  expect(claudeCommand(world.claude, ['plugin', 'list'])).toContain('switchboard@switchboard')
}

function claudeSees(): { plugins: string; marketplaces: string; mcp: string; settings: string } {
  const userConfig = readFileSync(join(world.claude.home, '.claude.json'), 'utf8')
  return {
    plugins: claudeCommand(world.claude, ['plugin', 'list']),
    marketplaces: claudeCommand(world.claude, ['plugin', 'marketplace', 'list']),
    mcp: JSON.stringify({
      user: JSON.parse(userConfig).mcpServers ?? {},
      local: JSON.parse(userConfig).projects?.[world.claude.cwd]?.mcpServers ?? {},
    }),
    settings: readFileSync(join(world.claude.home, '.claude', 'settings.json'), 'utf8'),
  }
}

for (const withClaude of [true, false]) {
  const how = withClaude ? 'with claude' : 'in its files (no claude on PATH)'
  it(`takes everything out ${how}, one line a step, and finds nothing the second time`, {
    timeout: 120_000,
  }, async () => {
    await installEverything()
    const hub = world.home.hubPid()
    const first = await switchboard(withClaude, 'uninstall')
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout.split('\n')).toEqual([
      `hooks: taken out of ${join(world.claude.home, '.claude', 'settings.json')}`,
      // Installed into no other agent here: each says where it looked.
      `Codex hook: none in ${join(world.claude.home, '.codex', 'config.toml')}`,
      `Gemini CLI hook: none in ${join(world.claude.home, '.gemini', 'settings.json')}`,
      `OpenCode plugin: none in ${join(world.claude.home, '.config', 'opencode', 'plugin', 'switchboard.js')}`,
      `plugin: switchboard@switchboard uninstalled ${how}`,
      `marketplace: switchboard removed ${how}`,
      `MCP servers: removed switchboard (user), switchboard-driver (local, ${world.claude.cwd}) ${how}`,
      `hub: stopped (pid ${hub}); start it again: switchboard start (or switchboard serve)`,
      `home: kept ${world.home.dir} (events, senders, secrets, logs); --purge removes it`,
      'the command itself: npm unlink -g switchboard (after npm link), or npm uninstall -g switchboard',
      '',
    ])
    const seen = claudeSees()
    expect(seen.plugins).not.toContain('switchboard')
    expect(seen.marketplaces).not.toContain('switchboard')
    expect(seen.mcp).toBe('{"user":{},"local":{}}')
    expect(seen.settings).not.toContain('switchboard')
    // What Switchboard's entries were alone in is gone too, not left empty.
    const settings = JSON.parse(seen.settings)
    expect(Object.keys(settings)).not.toContain('enabledPlugins')
    expect(Object.keys(settings)).not.toContain('extraKnownMarketplaces')
    const userConfig = JSON.parse(readFileSync(join(world.claude.home, '.claude.json'), 'utf8'))
    expect(Object.keys(userConfig)).not.toContain('mcpServers')
    expect(Object.keys(userConfig.projects[world.claude.cwd])).not.toContain('mcpServers')

    const second = await switchboard(withClaude, 'uninstall', '--purge', '--json')
    expect(second.code).toBe(0)
    expect(JSON.parse(second.stdout)).toMatchObject({
      ok: true,
      steps: [
        { step: 'hooks', changed: false },
        { step: 'Codex hook', changed: false },
        { step: 'Gemini CLI hook', changed: false },
        { step: 'OpenCode plugin', changed: false },
        { step: 'plugin', changed: false, detail: 'not installed' },
        { step: 'marketplace', changed: false, detail: 'not added' },
        { step: 'MCP servers', changed: false, detail: 'none runs Switchboard' },
        { step: 'hub', changed: false },
        { step: 'home', changed: true, detail: `removed ${world.home.dir}` },
      ],
    })
    expect(existsSync(world.home.dir)).toBe(false)
  })
}

for (const withClaude of [true, false]) {
  const how = withClaude ? 'with claude' : 'in its files (no claude on PATH)'
  it(`keeps what the person had beside Switchboard’s entries ${how}`, { timeout: 120_000 }, async () => {
    // Their own plugin choice and MCP server, there before Switchboard's.
    const settingsFile = join(world.claude.home, '.claude', 'settings.json')
    mkdirSync(join(world.claude.home, '.claude'), { recursive: true })
    writeFileSync(settingsFile, JSON.stringify({ enabledPlugins: { 'linter@their-tools': false } }))
    claudeCommand(world.claude, ['mcp', 'add', '-s', 'user', 'their-db', '--', 'their-db-server'])
    await installEverything()
    expect((await switchboard(withClaude, 'uninstall', '--purge')).code).toBe(0)
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8'))
    expect(settings.enabledPlugins).toEqual({ 'linter@their-tools': false })
    expect(Object.keys(settings)).not.toContain('extraKnownMarketplaces')
    const userConfig = JSON.parse(readFileSync(join(world.claude.home, '.claude.json'), 'utf8'))
    expect(Object.keys(userConfig.mcpServers)).toEqual(['their-db'])
    // Claude Code reads its files as they are left.
    expect(claudeCommand(world.claude, ['mcp', 'list'])).toContain('their-db')
    expect(claudeCommand(world.claude, ['plugin', 'list'])).not.toContain('switchboard')
  })
}
