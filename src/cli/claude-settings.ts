// Claude Code's settings file, as far as Switchboard's hook entries go: read, add, remove, check. What
// install adds, remove takes out again, and nothing else: every other hook and key, and the file's
// indentation, stay as they were. The file is replaced whole and owner-only, never written through a
// link, and carries no secret: the hooks reach the hub through the home's owner-only socket.
import { existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { Agent } from '../core/agents.js'
import {
  CLAUDE_HOOK_EVENTS,
  type ClaudeHookEvent,
  DIALOG_HOOK_EVENTS,
  FORMER_HOOK_EVENTS,
  HOOK_HEADERS,
  HOOK_MATCHERS,
  HOOK_ROUTE_PATH,
} from '../core/claude-hooks.js'
import { DRIVEN_ENV } from '../core/driven.js'
import { invalid } from '../core/errors.js'
import { replacePrivateFile } from '../core/private-file.js'
import { SETTINGS } from '../core/settings/table.js'

const CHANNEL_NAME_ENV = SETTINGS.channelName.variable

/** The command hooks' program: `switchboard hook <Event>` (and, alone, the hook rung before HTTP hooks). */
export const HOOK_COMMAND = 'switchboard hook'
/** Seconds a hook that only reports (not a dialog) may take before Claude Code gives up on it. */
const REPORT_TIMEOUT = 10
/** Seconds SessionStart's command may take: it may start the hub. */
const START_TIMEOUT = 30
/** A dialog's hook times out this long after the hub's own deadline (the hub answers first). */
const DIALOG_MARGIN = 30
/** The host the socket hooks name: nothing resolves it, the request goes down the socket. */
const SOCKET_ORIGIN = 'http://switchboard'

export type Hook = {
  type: string
  command?: string
  url?: string
  headers?: Record<string, string>
  allowedEnvVars?: string[]
  timeout?: number
}
type HookEntry = { matcher?: string; hooks: Hook[] }
type Settings = { hooks?: Record<string, HookEntry[]> } & Record<string, unknown>

/**
 * How the hooks reach the hub. `socket`: curl posts the hook's input down the home's socket (a few
 * ms a hook; nobody but the home's owner can listen there). `command`: `switchboard hook <Event>`,
 * which finds the hub as the CLI does (the socket, or a hub that proved itself) and costs a Node
 * start each time: for a machine without curl, or a home whose socket path is too long.
 */
export type HookTarget =
  | { via: 'socket'; curl: string; socketPath: string; waitSeconds: number }
  | { via: 'command'; waitSeconds: number }

/** `~/.claude/settings.json`; for a project, its `.claude/settings.local.json`, which git leaves out. */
export function settingsFile(project?: string): string {
  return project
    ? join(resolve(project), '.claude', 'settings.local.json')
    : join(homedir(), '.claude', 'settings.json')
}

/** Where an install before this one put a project's hooks (shared through git): taken out again. */
export function sharedProjectSettings(project: string): string {
  return join(resolve(project), '.claude', 'settings.json')
}

export interface Read {
  settings: Settings
  /** The file's indentation and final newline, kept when it is written again. */
  indent: string
  newline: boolean
}

/**
 * Refuses a client's settings or config file that is a link: whatever it points at is not the file
 * to change (Claude Code's and Gemini CLI's settings, Codex's config).
 */
export function notALink(file: string, kind = 'settings file'): void {
  try {
    if (lstatSync(file).isSymbolicLink())
      throw invalid(
        `${file} is a symbolic link; Switchboard changes only a ${kind} that is a file of its own`,
      )
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
}

/** A JSON settings file (Claude Code's, Gemini CLI's): an empty one when there is none. */
export function readSettings(file: string): Read {
  notALink(file)
  if (!existsSync(file)) return { settings: {}, indent: '  ', newline: true }
  const text = readFileSync(file, 'utf8')
  try {
    const settings = JSON.parse(text) as Settings
    if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new Error('not an object')
    return { settings, indent: /\n([ \t]+)"/.exec(text)?.[1] ?? '  ', newline: text.endsWith('\n') }
  } catch (err) {
    throw invalid(`${file}: not valid JSON (${(err as Error).message}); fix it first`)
  }
}

/** Writes it back whole, owner-only, with the indentation and final newline it had. */
export function writeSettings(file: string, { settings, indent, newline }: Read): void {
  mkdirSync(dirname(file), { recursive: true })
  notALink(file)
  replacePrivateFile(file, `${JSON.stringify(settings, null, indent)}${newline ? '\n' : ''}`)
}

/** A socket hook's command: recognised by its route on the socket's made-up origin. */
function isSocketCommand(command: string): boolean {
  return command.includes(`${SOCKET_ORIGIN}${HOOK_ROUTE_PATH}`)
}

/** A hook install wrote: `switchboard hook …`, a socket hook's curl, an earlier install's HTTP hook. */
export function isOurHook(h: Hook): boolean {
  if (h.type === 'command' && typeof h.command === 'string')
    return (
      h.command === HOOK_COMMAND || h.command.startsWith(`${HOOK_COMMAND} `) || isSocketCommand(h.command)
    )
  if (h.type !== 'http' || typeof h.url !== 'string') return false
  // An earlier install's HTTP hook, carrying a token to whatever held the hub's port.
  try {
    const url = new URL(h.url)
    return url.pathname.startsWith(HOOK_ROUTE_PATH) && HOOK_HEADERS.timeout in (h.headers ?? {})
  } catch {
    return false
  }
}

const isOurs = (entry: HookEntry) => entry.hooks?.some(isOurHook) ?? false

/** Switchboard's hook entries in this file, by event: what `doctor` checks. */
export function installedHooks(file: string): Partial<Record<string, Hook>> {
  const hooks = readSettings(file).settings.hooks ?? {}
  const found: Partial<Record<string, Hook>> = {}
  for (const [event, entries] of Object.entries(hooks)) {
    const hook = entries.flatMap((e) => e.hooks ?? []).find(isOurHook)
    if (hook) found[event] = hook
  }
  return found
}

/** How an installed hook reaches the hub, for `doctor`. */
export function hookForm(hook: Hook): 'socket' | 'command' | 'http' {
  if (hook.type === 'http') return 'http'
  return typeof hook.command === 'string' && isSocketCommand(hook.command) ? 'socket' : 'command'
}

/** The socket a socket hook posts to, as written in its command. */
export function hookSocket(hook: Hook): string | null {
  const m = /--unix-socket '((?:[^']|'\\'')*)'/.exec(hook.command ?? '')
  return m?.[1] ? m[1].replaceAll(`'\\''`, `'`) : null
}

/** A word the shell takes as it is. */
function quoted(word: string): string {
  return `'${word.replaceAll(`'`, `'\\''`)}'`
}

/**
 * What a socket hook's command starts with: in a session the hub drives, whose prompts reach the hub
 * through the agent's own protocol, the hook ends here, succeeding silently (no second prompt).
 */
export const NOT_DRIVEN = `[ "\${${DRIVEN_ENV}:-}" = 1 ] ||`

/**
 * The shell command of a socket hook. A session the hub drives asks it through the control protocol
 * (nothing to send); anything that fails (no hub, a refusal) prints nothing and exits 0, which leaves
 * the dialog to the terminal, without a "hook failed" line at every turn while the hub is stopped.
 */
function socketCommand(
  event: ClaudeHookEvent,
  curl: string,
  socketPath: string,
  timeout: number,
  agent: Agent,
): string {
  return [NOT_DRIVEN, socketRequest(event, curl, socketPath, timeout, agent), '2>/dev/null || true'].join(' ')
}

/**
 * curl posting a hook's input (its stdin) down the home's socket to the hook route, printing the
 * hub's answer: the part of a socket hook every agent's shares (`timeout` in seconds).
 */
export function socketRequest(
  event: string,
  curl: string,
  socketPath: string,
  timeout: number,
  agent: Agent,
): string {
  return [
    quoted(curl),
    '-sf',
    `--max-time ${timeout}`,
    `--unix-socket ${quoted(socketPath)}`,
    `-H 'content-type: application/json'`,
    `-H '${HOOK_HEADERS.timeout}: ${timeout}'`,
    // The session's own subscriber name when its environment sets one; the hub binds it once.
    `-H "${HOOK_HEADERS.name}: \${${CHANNEL_NAME_ENV}:-}"`,
    // Another agent's hook (Codex's, Gemini CLI's) says whose it is; Claude Code's says nothing.
    ...(agent === 'claude' ? [] : [`-H '${HOOK_HEADERS.agent}: ${agent}'`]),
    '--data-binary @-',
    quoted(`${SOCKET_ORIGIN}${HOOK_ROUTE_PATH}${event}`),
  ].join(' ')
}

/** The program of a command hook: `switchboard hook <Event>`, naming the agent when not Claude Code. */
export function hookCommand(event: ClaudeHookEvent, agent: Agent = 'claude'): string {
  return `${HOOK_COMMAND} ${event}${agent === 'claude' ? '' : ` --agent ${agent}`}`
}

/** The hook of one event, as install writes it (for Claude Code, or another agent that speaks its hooks). */
export function hookFor(event: ClaudeHookEvent, target: HookTarget, agent: Agent = 'claude'): Hook {
  const dialog = DIALOG_HOOK_EVENTS.includes(event)
  const timeout = dialog ? target.waitSeconds + DIALOG_MARGIN : REPORT_TIMEOUT
  // A session's start is the CLI: it starts the hub when none runs, once a session, so the hooks
  // after it find one.
  if (event === 'SessionStart')
    return { type: 'command', command: `${HOOK_COMMAND} ${event}`, timeout: START_TIMEOUT }
  if (target.via === 'command') return { type: 'command', command: hookCommand(event, agent), timeout }
  return {
    type: 'command',
    command: socketCommand(event, target.curl, target.socketPath, timeout, agent),
    timeout,
  }
}

/** Takes Switchboard's entries out of `hooks`; returns how many went. */
function takeOut(hooks: Record<string, HookEntry[]>, events: readonly string[]): number {
  let removed = 0
  for (const event of events) {
    const entries = hooks[event]
    if (!entries) continue
    const kept = entries.filter((entry) => !isOurs(entry))
    removed += entries.length - kept.length
    // An event whose only entries were ours was added by install: it goes with them.
    if (kept.length) hooks[event] = kept
    else if (kept.length !== entries.length) delete hooks[event]
  }
  return removed
}

/**
 * Puts Switchboard's hooks in (again: an older set of them is replaced, in place where it was, and
 * the entries of events an earlier install hooked and this one does not are taken out).
 */
export function addHooks(file: string, target: HookTarget): void {
  const at = readSettings(file)
  const hooks = at.settings.hooks ?? {}
  at.settings.hooks = hooks
  takeOut(hooks, FORMER_HOOK_EVENTS)
  for (const event of CLAUDE_HOOK_EVENTS) {
    const entries = hooks[event] ?? []
    hooks[event] = entries
    const matcher = HOOK_MATCHERS[event]
    const entry: HookEntry = { ...(matcher ? { matcher } : {}), hooks: [hookFor(event, target)] }
    const i = entries.findIndex(isOurs)
    if (i === -1) entries.push(entry)
    else entries[i] = entry
  }
  writeSettings(file, at)
}

/** Takes Switchboard's entries out and leaves every other hook as it was. Returns how many went. */
export function removeHooks(file: string): number {
  if (!existsSync(file)) return 0
  const at = readSettings(file)
  const hooks = at.settings.hooks
  if (!hooks) return 0
  const removed = takeOut(hooks, Object.keys(hooks))
  if (!removed) return 0
  if (Object.keys(hooks).length === 0) delete at.settings.hooks
  writeSettings(file, at)
  return removed
}
