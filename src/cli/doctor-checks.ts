// What `switchboard doctor` looks at, one function per check. Each says what it found and, for a
// problem, the command that fixes it. Nothing here changes anything.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { findClaude } from '../claude/process.js'
import { HubApiError } from '../client/api-client.js'
import { START_COMMAND, stoppedHow } from '../client/autostart.js'
import { CLAUDE_HOOK_EVENTS } from '../core/claude-hooks.js'
import { type HubConfig, paths, redactDatabaseUrl } from '../core/config.js'
import type { HubStatus } from '../core/hub-protocol.js'
import { probeDatabase } from '../store/open.js'
import { AGENT_HOOK_FILES, hookFilesOf } from './agent-hook-files.js'
import { claudeConnection } from './claude-connection.js'
import { hookForm, hookSocket, installedHooks, settingsFile } from './claude-settings.js'

/** `problem`: something does not work until fixed (non-zero exit); `warn`: works, with less. */
export type Verdict = 'ok' | 'warn' | 'problem'

export interface Check {
  name: string
  verdict: Verdict
  detail: string
  fix?: string
}

/** Claude Code added channels in this version. */
const CHANNELS_SINCE = [2, 1, 80]

export function checkHome(home: string): Check[] {
  if (!existsSync(home))
    return [{ name: 'home', verdict: 'warn', detail: `${home} does not exist yet (made on first use)` }]
  const loose = (file: string, mode: number) => existsSync(file) && (statSync(file).mode & 0o777) !== mode
  const checks: Check[] = []
  if (loose(home, 0o700))
    checks.push({
      name: 'home',
      verdict: 'problem',
      detail: `${home} is mode ${octal(home)}; it holds secrets, so only its owner may enter`,
      fix: `chmod 700 ${home}`,
    })
  for (const file of [paths.database(home), paths.adminToken(home)])
    if (loose(file, 0o600))
      checks.push({
        name: 'home',
        verdict: 'problem',
        detail: `${file} is mode ${octal(file)}; it holds secrets`,
        fix: `chmod 600 ${file}`,
      })
  return checks.length ? checks : [{ name: 'home', verdict: 'ok', detail: `${home}, owner only` }]
}

function octal(file: string): string {
  return (statSync(file).mode & 0o777).toString(8).padStart(3, '0')
}

/** The hub of this home: up (with what it says of itself), down, or its port taken by a stranger. */
export async function checkHub(
  config: HubConfig,
  status: () => Promise<HubStatus>,
): Promise<{ checks: Check[]; status: HubStatus | null }> {
  try {
    const s = await status()
    const where = `${s.fingerprint ? 'https' : 'http'}://${s.host}:${s.port}${s.socket ? ` and ${s.socket}` : ''}`
    const clear: Check[] = s.inClear
      ? [
          {
            name: 'hub',
            verdict: 'warn',
            detail: 'plain HTTP beyond loopback (--insecure): anyone on the network can read what passes',
            fix: 'switchboard serve without --insecure (it makes a certificate), or with --tls-cert and --tls-key',
          },
        ]
      : []
    return {
      checks: [{ name: 'hub', verdict: 'ok', detail: `running (pid ${s.pid}) on ${where}` }, ...clear],
      status: s,
    }
  } catch (err) {
    if (!(err instanceof HubApiError)) throw err
    if (err.status === 502)
      return {
        checks: [
          {
            name: 'hub',
            verdict: 'problem',
            detail: `port ${config.port} is held by another program, not this home's hub`,
            fix: `switchboard serve --port <a free port> (or set "port" in ${join(config.home, 'config.json')})`,
          },
        ],
        status: null,
      }
    const how = stoppedHow(config.home)
    if (how)
      return {
        checks: [
          {
            name: 'hub',
            verdict: 'warn',
            detail: `stopped ${how}: channels wait for it and do not start it`,
            fix: START_COMMAND,
          },
        ],
        status: null,
      }
    return {
      checks: [
        {
          name: 'hub',
          verdict: 'warn',
          detail: `not running; port ${config.port} is free (a channel starts the hub when it needs one)`,
          fix: 'switchboard serve',
        },
      ],
      status: null,
    }
  }
}

/**
 * Postgres only (SQLite is the home's file): can this machine reach it, and which hubs are alive on it.
 * Whether this machine reaches it is the question, hub or none, so doctor asks the database itself; it
 * only reads, and never opens the store (which would migrate it): the hub is the store's one writer.
 */
export async function checkDatabase(config: HubConfig): Promise<Check[]> {
  if (!config.databaseUrl) return []
  const where = redactDatabaseUrl(config.databaseUrl)
  let hubs: string[]
  try {
    hubs = (await probeDatabase(config.databaseUrl)).hubs
  } catch (err) {
    return [
      {
        name: 'database',
        verdict: 'problem',
        detail: `cannot use the database ${where}: ${(err as Error).message || (err as NodeJS.ErrnoException).code}`,
        fix: 'start Postgres, or correct SWITCHBOARD_DATABASE_URL (or --database-url, "databaseUrl" in config.json)',
      },
    ]
  }
  const list = hubs.join(', ')
  return [
    {
      name: 'database',
      verdict: 'ok',
      detail: `Postgres ${where}; ${hubs.length} hub${hubs.length === 1 ? '' : 's'} alive${list ? ` (${list})` : ''}`,
    },
  ]
}

export async function checkClaude(env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  let bin: string
  try {
    bin = findClaude(env)
  } catch {
    return [
      {
        name: 'claude',
        verdict: 'problem',
        detail: 'Claude Code not found (CLAUDE_CODE_PATH, or claude on PATH)',
        fix: 'npm install -g @anthropic-ai/claude-code',
      },
    ]
  }
  let version: number[]
  try {
    const { stdout } = await promisify(execFile)(bin, ['--version'], { timeout: 15_000, env })
    version = (/(\d+)\.(\d+)\.(\d+)/.exec(stdout) ?? []).slice(1).map(Number)
    if (version.length !== 3) throw new Error(`unexpected answer: ${stdout.trim().slice(0, 80)}`)
  } catch (err) {
    return [
      {
        name: 'claude',
        verdict: 'problem',
        detail: `${bin} --version failed: ${(err as Error).message.split('\n')[0]}`,
        fix: 'npm install -g @anthropic-ai/claude-code',
      },
    ]
  }
  const found = `Claude Code ${version.join('.')} at ${bin}`
  if (compare(version, CHANNELS_SINCE) < 0)
    return [
      {
        name: 'claude',
        verdict: 'problem',
        detail: `${found}; channels need ${CHANNELS_SINCE.join('.')} or later`,
        fix: 'claude update',
      },
    ]
  return [{ name: 'claude', verdict: 'ok', detail: `${found}; channels supported` }]
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < b.length; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0)
  return 0
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

/** How Claude Code would start the channel: the plugin (enabled), or `switchboard channel` as an MCP server. */
export function checkChannelRegistered(cwd: string, home = homedir()): Check[] {
  const { plugin, pluginDisabledIn, mcpServer } = claudeConnection(cwd, home)
  if (plugin && pluginDisabledIn === null)
    return [{ name: 'channel', verdict: 'ok', detail: `plugin ${plugin} installed` }]
  const checks: Check[] = []
  if (plugin && pluginDisabledIn !== null)
    checks.push({
      name: 'channel',
      verdict: 'warn',
      detail: `plugin ${plugin} is installed but disabled (${pluginDisabledIn}): Claude Code does not load it, so no session has the channel`,
      // `plugin enable` finds the scope it was disabled in; a project's scope, from the project.
      fix: `claude plugin enable ${plugin}${pluginDisabledIn.startsWith(join(home, '.claude')) ? '' : ` (in ${cwd})`}`,
    })
  if (mcpServer)
    return [
      ...checks,
      { name: 'channel', verdict: 'ok', detail: `switchboard channel is an MCP server in ${mcpServer.file}` },
    ]
  if (checks.length) return checks
  return [
    {
      name: 'channel',
      verdict: 'warn',
      detail: 'Claude Code has neither the plugin nor `switchboard channel` as an MCP server',
      fix: 'claude plugin install switchboard@switchboard (after: claude plugin marketplace add <this repository>)',
    },
  ]
}

/** Written by the plugin's launcher (plugin/launch.mjs) when it could not start Switchboard; its next start removes it. */
export const pluginLaunchLog = (home: string) => join(home, 'logs', 'plugin-launch.json')

/** Why the plugin last failed to start Switchboard, which only Claude Code's hidden debug log says otherwise. */
export function checkPluginLaunch(home: string): Check[] {
  const failed = readJson(pluginLaunchLog(home)) as { at?: string; reason?: string; fix?: string } | null
  if (typeof failed?.reason !== 'string') return []
  return [
    {
      name: 'plugin',
      verdict: 'problem',
      detail: `the plugin could not start Switchboard${failed.at ? ` (${failed.at})` : ''}: ${failed.reason}`,
      fix: failed.fix ?? 'run `npm ci` in the Switchboard checkout the plugin came from',
    },
  ]
}

/**
 * Switchboard's hooks in Claude Code's user settings: every event there, posting down this home's
 * socket (or as `switchboard hook` commands). An earlier install's HTTP hooks sent a token to whoever
 * held the hub's port and obeyed their answer: those are a problem until installed again.
 */
export function checkHooks(socketPath: string | undefined): Check[] {
  const file = settingsFile()
  const found = installedHooks(file)
  const events = Object.keys(found)
  const fix = 'switchboard install claude --hooks'
  if (!events.length)
    return [
      {
        name: 'hooks',
        verdict: 'ok',
        detail: 'not installed (sessions without channels then reach no one)',
        fix,
      },
    ]
  const missing = CLAUDE_HOOK_EVENTS.filter((e) => !found[e])
  const hooks = Object.values(found).filter((h) => h !== undefined)
  const http = hooks.filter((h) => hookForm(h) === 'http')
  const elsewhere = hooks
    .filter((h) => hookForm(h) === 'socket')
    .map(hookSocket)
    .find((s) => s !== socketPath)
  const problems = [
    missing.length ? `missing for ${missing.join(', ')} (an older install)` : null,
    http.length
      ? `${http.length} are an earlier install's HTTP hooks, which hand a token to whatever listens on the hub's port and obey its answer`
      : null,
    elsewhere !== undefined
      ? `they post to ${elsewhere}, not this hub's socket (${socketPath ?? 'none'})`
      : null,
  ].filter((p): p is string => p !== null)
  if (problems.length)
    return [{ name: 'hooks', verdict: 'problem', detail: `in ${file}: ${problems.join('; ')}`, fix }]
  const how = hooks.some((h) => hookForm(h) === 'socket')
    ? `to the hub's socket ${socketPath}`
    : 'as `switchboard hook <Event>` commands'
  return [{ name: 'hooks', verdict: 'ok', detail: `installed in ${file}, ${how} (${events.length} events)` }]
}

/** Switchboard's hooks in the other agents: where each is installed, from the user's file and the projects recorded. */
export function checkAgentHooks(home: string): Check[] {
  return AGENT_HOOK_FILES.map((entry) => {
    const fix = entry.install
    try {
      const files = hookFilesOf(entry, home).filter((file) => entry.has(file))
      return files.length
        ? { name: entry.label, verdict: 'ok', detail: `its ${entry.kind} installed in ${files.join(', ')}` }
        : { name: entry.label, verdict: 'ok', detail: `its ${entry.kind} not installed`, fix }
    } catch (err) {
      return { name: entry.label, verdict: 'warn', detail: (err as Error).message, fix }
    }
  })
}

export function checkOperators(operators: number | null): Check[] {
  if (operators === null) return []
  return [
    operators
      ? { name: 'operators', verdict: 'ok', detail: `${operators} may answer permission prompts` }
      : {
          name: 'operators',
          verdict: 'warn',
          detail: 'nobody may answer permission prompts from outside the terminal',
          fix: 'switchboard sender add <name> --operator',
        },
  ]
}
