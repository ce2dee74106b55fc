// What of Switchboard Claude Code has, read from Claude Code's own files: the plugin (and whether
// Claude Code has it enabled), `switchboard channel` as an MCP server, Switchboard's hooks. The
// banner says what is connected; doctor checks it. Nothing here changes anything.
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { installedHooks } from './claude-settings.js'

export interface ClaudeConnection {
  /** The plugin's key (`switchboard@switchboard`) when it is installed. */
  plugin: string | null
  /** The settings file in which Claude Code has the installed plugin disabled; null: enabled. */
  pluginDisabledIn: string | null
  /** An MCP server that runs `switchboard channel`: its name and the file it is in. */
  mcpServer: { name: string; file: string } | null
  /** The user's settings file, when Switchboard's hooks are in it. */
  hooks: string | null
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

/** `cwd`: the project Claude Code would start in (its .mcp.json and its own settings count). */
export function claudeConnection(cwd: string, home = homedir()): ClaudeConnection {
  const installed = readJson(join(home, '.claude', 'plugins', 'installed_plugins.json')) as {
    plugins?: Record<string, unknown>
  } | null
  const plugin = Object.keys(installed?.plugins ?? {}).find((key) => key.startsWith('switchboard@')) ?? null
  const settings = join(home, '.claude', 'settings.json')
  return {
    plugin,
    pluginDisabledIn: plugin ? pluginDisabledIn(plugin, cwd, home) : null,
    mcpServer: channelServer(cwd, home),
    hooks: Object.keys(installedHooks(settings)).length ? settings : null,
  }
}

/**
 * The settings file in which Claude Code has the plugin disabled (`enabledPlugins`, `false`), or
 * null when it is enabled. The most particular file that names it decides, as in Claude Code: the
 * project's local settings, the project's, then the user's; named nowhere, an installed plugin is on.
 */
function pluginDisabledIn(plugin: string, cwd: string, home: string): string | null {
  for (const file of [
    join(cwd, '.claude', 'settings.local.json'),
    join(cwd, '.claude', 'settings.json'),
    join(home, '.claude', 'settings.json'),
  ]) {
    const enabled = (readJson(file) as { enabledPlugins?: Record<string, unknown> } | null)?.enabledPlugins
    if (enabled && typeof enabled === 'object' && Object.hasOwn(enabled, plugin))
      return enabled[plugin] === false ? file : null
  }
  return null
}

/** An MCP server running `switchboard channel`, user-wide (~/.claude.json) or the project's (.mcp.json). */
function channelServer(cwd: string, home: string): { name: string; file: string } | null {
  for (const file of [join(home, '.claude.json'), join(cwd, '.mcp.json')]) {
    const config = readJson(file) as {
      mcpServers?: Record<string, { command?: string; args?: string[] }>
    } | null
    const found = Object.entries(config?.mcpServers ?? {}).find(
      ([, s]) => /switchboard/.test(s.command ?? '') && (s.args ?? []).includes('channel'),
    )
    if (found) return { name: found[0], file }
  }
  return null
}
