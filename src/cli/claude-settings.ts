// Claude Code's settings file, as far as Switchboard's hook entries go: read, add, remove, check.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { invalid } from '../core/errors.js'

export const HOOK_COMMAND = 'switchboard hook'
export const HOOK_EVENTS = ['UserPromptSubmit', 'PostToolUse'] as const

type HookEntry = { matcher?: string; hooks: { type: string; command: string }[] }
type Settings = { hooks?: Record<string, HookEntry[]> } & Record<string, unknown>

/** `~/.claude/settings.json`, or a project's `.claude/settings.json`. */
export function settingsFile(project?: string): string {
  return project ? join(project, '.claude', 'settings.json') : join(homedir(), '.claude', 'settings.json')
}

function read(file: string): Settings {
  if (!existsSync(file)) return {}
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Settings
  } catch (err) {
    throw invalid(`${file}: not valid JSON (${(err as Error).message}); fix it first`)
  }
}

function write(file: string, settings: Settings): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`)
}

const isOurs = (entry: HookEntry) => entry.hooks?.some((h) => h.command === HOOK_COMMAND) ?? false

/** The hook events Switchboard's hook is registered for in this file. */
export function installedHookEvents(file: string): string[] {
  const hooks = read(file).hooks ?? {}
  return HOOK_EVENTS.filter((event) => (hooks[event] ?? []).some(isOurs))
}

export function addHooks(file: string): void {
  const settings = read(file)
  const hooks = settings.hooks ?? {}
  settings.hooks = hooks
  for (const event of HOOK_EVENTS) {
    const entries = hooks[event] ?? []
    hooks[event] = entries
    if (!entries.some(isOurs))
      entries.push({
        ...(event === 'PostToolUse' ? { matcher: '*' } : {}),
        hooks: [{ type: 'command', command: HOOK_COMMAND }],
      })
  }
  write(file, settings)
}

/** Takes Switchboard's entries out and leaves every other hook as it was. Returns how many went. */
export function removeHooks(file: string): number {
  if (!existsSync(file)) return 0
  const settings = read(file)
  let removed = 0
  for (const [event, entries] of Object.entries(settings.hooks ?? {})) {
    const kept = entries.filter((entry) => !isOurs(entry))
    removed += entries.length - kept.length
    if (settings.hooks) {
      if (kept.length) settings.hooks[event] = kept
      else delete settings.hooks[event]
    }
  }
  if (settings.hooks && Object.keys(settings.hooks).length === 0) delete settings.hooks
  if (removed) write(file, settings)
  return removed
}
