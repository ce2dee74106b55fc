// Claude Code's settings file, as far as Switchboard's hook entries go: read, add, remove, check. What
// install adds, remove takes out again, and nothing else: every other hook and key, and the file's
// indentation, stay as they were.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  CLAUDE_HOOK_EVENTS,
  type ClaudeHookEvent,
  FORMER_HOOK_EVENTS,
  HOOK_HEADERS,
  HOOK_MATCHERS,
} from '../core/claude-hooks.js'
import { DRIVEN_ENV } from '../core/driven.js'
import { invalid } from '../core/errors.js'
import { SETTINGS } from '../core/settings/table.js'

const CHANNEL_NAME_ENV = SETTINGS.channelName.variable

/** The command entry of the hook rung before the HTTP hooks (still taken out by remove). */
export const HOOK_COMMAND = 'switchboard hook'
/** The hook route's path, less its event: an HTTP hook whose URL ends so is Switchboard's. */
const ROUTE_PATH = '/api/claude-hooks/'
/** Seconds a hook that only reports (not a dialog) may take before Claude Code gives up on it. */
const REPORT_TIMEOUT = 10
/** Seconds SessionStart's command may take: it may start the hub. */
const START_TIMEOUT = 30
/** A dialog's hook times out this long after the hub's own deadline (the hub answers first). */
const DIALOG_MARGIN = 30

type Hook = {
  type: string
  command?: string
  url?: string
  headers?: Record<string, string>
  allowedEnvVars?: string[]
  timeout?: number
}
type HookEntry = { matcher?: string; hooks: Hook[] }
type Settings = { hooks?: Record<string, HookEntry[]> } & Record<string, unknown>

/** How the hooks reach the hub: HTTP (what the pinned CLI supports), or `switchboard hook <Event>`. */
export interface HookTarget {
  /** The hub's URL (http://127.0.0.1:7420); null: command hooks. */
  hubUrl: string | null
  token: string
  /** How long a dialog may wait for a remote answer (hookWaitSeconds). */
  waitSeconds: number
}

/** `~/.claude/settings.json`, or a project's `.claude/settings.json`. */
export function settingsFile(project?: string): string {
  return project ? join(project, '.claude', 'settings.json') : join(homedir(), '.claude', 'settings.json')
}

interface Read {
  settings: Settings
  /** The file's indentation and final newline, kept when it is written again. */
  indent: string
  newline: boolean
}

function read(file: string): Read {
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

function write(file: string, { settings, indent, newline }: Read): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(settings, null, indent)}${newline ? '\n' : ''}`)
}

function isOurHook(h: Hook): boolean {
  if (h.type === 'command')
    return h.command === HOOK_COMMAND || (h.command?.startsWith(`${HOOK_COMMAND} `) ?? false)
  if (h.type !== 'http' || typeof h.url !== 'string') return false
  try {
    const url = new URL(h.url)
    return url.pathname.startsWith(ROUTE_PATH) && HOOK_HEADERS.timeout in (h.headers ?? {})
  } catch {
    return false
  }
}

const isOurs = (entry: HookEntry) => entry.hooks?.some(isOurHook) ?? false

/** Switchboard's hook entries in this file, by event: what `doctor` checks. */
export function installedHooks(file: string): Partial<Record<string, Hook>> {
  const hooks = read(file).settings.hooks ?? {}
  const found: Partial<Record<string, Hook>> = {}
  for (const [event, entries] of Object.entries(hooks)) {
    const hook = entries.flatMap((e) => e.hooks ?? []).find(isOurHook)
    if (hook) found[event] = hook
  }
  return found
}

/** The hook of one event, as install writes it. */
export function hookFor(event: ClaudeHookEvent, target: HookTarget): Hook {
  const dialog = event === 'PermissionRequest'
  const timeout = dialog ? target.waitSeconds + DIALOG_MARGIN : REPORT_TIMEOUT
  // A session's start is a command: it starts the hub when none runs (an HTTP hook cannot), once a
  // session, so the hooks after it find one.
  if (event === 'SessionStart')
    return { type: 'command', command: `${HOOK_COMMAND} ${event}`, timeout: START_TIMEOUT }
  if (target.hubUrl === null) return { type: 'command', command: `${HOOK_COMMAND} ${event}`, timeout }
  return {
    type: 'http',
    url: `${target.hubUrl}${ROUTE_PATH}${event}`,
    headers: {
      authorization: `Bearer ${target.token}`,
      [HOOK_HEADERS.timeout]: String(timeout),
      // Claude Code fills these in from the session's environment (empty when unset).
      [HOOK_HEADERS.name]: `$${CHANNEL_NAME_ENV}`,
      [HOOK_HEADERS.driven]: `$${DRIVEN_ENV}`,
    },
    allowedEnvVars: [CHANNEL_NAME_ENV, DRIVEN_ENV],
    timeout,
  }
}

/**
 * Puts Switchboard's hooks in (again: an older set of them is replaced, in place where it was, and
 * the entries of events an earlier install hooked and this one does not are taken out).
 */
export function addHooks(file: string, target: HookTarget): void {
  const at = read(file)
  const hooks = at.settings.hooks ?? {}
  at.settings.hooks = hooks
  for (const event of FORMER_HOOK_EVENTS) {
    const kept = hooks[event]?.filter((entry) => !isOurs(entry))
    if (kept?.length) hooks[event] = kept
    else if (kept) delete hooks[event]
  }
  for (const event of CLAUDE_HOOK_EVENTS) {
    const entries = hooks[event] ?? []
    hooks[event] = entries
    const matcher = HOOK_MATCHERS[event]
    const entry: HookEntry = { ...(matcher ? { matcher } : {}), hooks: [hookFor(event, target)] }
    const i = entries.findIndex(isOurs)
    if (i === -1) entries.push(entry)
    else entries[i] = entry
  }
  write(file, at)
}

/** Takes Switchboard's entries out and leaves every other hook as it was. Returns how many went. */
export function removeHooks(file: string): number {
  if (!existsSync(file)) return 0
  const at = read(file)
  const hooks = at.settings.hooks
  if (!hooks) return 0
  let removed = 0
  for (const [event, entries] of Object.entries(hooks)) {
    const kept = entries.filter((entry) => !isOurs(entry))
    if (kept.length === entries.length) continue
    removed += entries.length - kept.length
    // An event whose only entries were ours was added by install: it goes with them.
    if (kept.length) hooks[event] = kept
    else delete hooks[event]
  }
  if (!removed) return 0
  if (Object.keys(hooks).length === 0) delete at.settings.hooks
  write(file, at)
  return removed
}
