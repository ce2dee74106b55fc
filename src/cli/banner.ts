// What a person sees once the hub runs (`serve`, `npm start`, `start`): where the dashboard is, where
// the home and the logs are, how to connect Claude Code (or what of it is connected already), and how
// to stop it. For scripts, one JSON line.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { dialHost } from '../core/config.js'
import { PACKAGE_ROOT } from '../core/install-root.js'
import { VERSION } from '../core/version.js'
import type { ClaudeConnection } from './claude-connection.js'

export interface Running {
  pid: number
  home: string
  host: string
  port: number
  /** Where the hub's logs go: a file, or "stderr". */
  log: string
  /** It speaks TLS (bound beyond loopback). */
  tls?: boolean
}

export function bannerJson(hub: Running): string {
  const url = `${hub.tls ? 'https' : 'http'}://${dialHost(hub.host)}:${hub.port}`
  return `${JSON.stringify({ running: true, version: VERSION, ...hub, url })}\n`
}

/** What the banner says is connected: Claude Code's files, and the channels the hub has on record. */
export interface Connected {
  claude: ClaudeConnection
  /** Channels that registered with this hub (its subscribers that are not its own). */
  channels: string[]
}

const DEV_CHANNELS = 'claude --dangerously-load-development-channels'

/** `foreground`: this terminal holds the hub (Ctrl-C stops it); otherwise it runs in the background. */
export function banner(hub: Running, foreground: boolean, connected: Connected): string {
  const url = `${hub.tls ? 'https' : 'http'}://${dialHost(hub.host)}:${hub.port}`
  return [
    `Switchboard ${VERSION}: the hub runs (pid ${hub.pid}) on ${url}`,
    `  dashboard  switchboard open      (signs this browser in)`,
    `  home       ${hub.home}`,
    `  logs       ${hub.log}`,
    ...claudeLines(connected),
    `Stop it: ${foreground ? 'Ctrl-C here, or ' : ''}switchboard stop`,
    '',
  ].join('\n')
}

/** What of Switchboard Claude Code has; how to connect it only when it has none of it. */
function claudeLines({ claude, channels }: Connected): string[] {
  const lines: string[] = []
  if (claude.plugin && claude.pluginDisabledIn)
    lines.push(
      `  plugin     ${claude.plugin}, disabled in ${claude.pluginDisabledIn}: claude plugin enable ${claude.plugin}`,
    )
  else if (claude.plugin)
    lines.push(
      `  plugin     ${claude.plugin}; a session with its channel:`,
      `             ${DEV_CHANNELS} plugin:${claude.plugin}`,
    )
  if (claude.mcpServer)
    lines.push(
      `  MCP server ${claude.mcpServer.name} in ${claude.mcpServer.file}; a session with its channel:`,
      `             ${DEV_CHANNELS} server:${claude.mcpServer.name}`,
    )
  if (claude.hooks) lines.push(`  hooks      in ${claude.hooks}: every session reaches the hub`)
  if (channels.length)
    lines.push(
      `  channels   ${channels.join(', ')} ${channels.length === 1 ? 'has' : 'have'} registered with this hub`,
    )
  if (lines.length) return ['Claude Code has Switchboard:', ...lines]
  const marketplace = existsSync(join(PACKAGE_ROOT, '.claude-plugin', 'marketplace.json'))
  return [
    'Connect Claude Code (once):',
    ...(marketplace
      ? [
          `  claude plugin marketplace add ${PACKAGE_ROOT}`,
          '  claude plugin install switchboard@switchboard',
          `  ${DEV_CHANNELS} plugin:switchboard@switchboard`,
        ]
      : [
          '  claude mcp add -s user switchboard -- switchboard channel',
          `  ${DEV_CHANNELS} server:switchboard`,
        ]),
  ]
}
