// What a person sees once the hub runs (`serve`, `npm start`, `start`): where the dashboard is, where
// the home and the logs are, how to connect Claude Code, and how to stop it. For scripts, one JSON line.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { dialHost } from '../core/config.js'
import { VERSION } from '../core/version.js'

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

/** The folder of this Switchboard (a checkout, or the installed package): a plugin marketplace. */
const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export function bannerJson(hub: Running): string {
  const url = `${hub.tls ? 'https' : 'http'}://${dialHost(hub.host)}:${hub.port}`
  return `${JSON.stringify({ running: true, version: VERSION, ...hub, url })}\n`
}

/** `foreground`: this terminal holds the hub (Ctrl-C stops it); otherwise it runs in the background. */
export function banner(hub: Running, foreground: boolean): string {
  const url = `${hub.tls ? 'https' : 'http'}://${dialHost(hub.host)}:${hub.port}`
  const marketplace = existsSync(join(PACKAGE_ROOT, '.claude-plugin', 'marketplace.json'))
  return [
    `Switchboard ${VERSION}: the hub runs (pid ${hub.pid}) on ${url}`,
    `  dashboard  switchboard open      (signs this browser in)`,
    `  home       ${hub.home}`,
    `  logs       ${hub.log}`,
    'Connect Claude Code (once):',
    ...(marketplace
      ? [
          `  claude plugin marketplace add ${PACKAGE_ROOT}`,
          '  claude plugin install switchboard@switchboard',
          '  claude --dangerously-load-development-channels plugin:switchboard@switchboard',
        ]
      : [
          '  claude mcp add -s user switchboard -- switchboard channel',
          '  claude --dangerously-load-development-channels server:switchboard',
        ]),
    `Stop it: ${foreground ? 'Ctrl-C here, or ' : ''}switchboard stop`,
    '',
  ].join('\n')
}
