// Gemini CLI's settings.json, as far as Switchboard's BeforeTool hook goes: add it, take it out.
// Gemini runs a BeforeTool command hook before each tool its matcher names, and reads its answer
// (core/gemini-hooks.ts); `timeout` is in milliseconds there. The file is JSON, read and written whole
// with its indentation and final newline kept (cli/claude-settings.ts), every other key and hook as
// it was; owner-only, never through a link.
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { GEMINI_ASK, GEMINI_HOOK_EVENT } from '../core/gemini-hooks.js'
import {
  HOOK_COMMAND,
  type Hook,
  type HookTarget,
  isOurHook,
  NOT_DRIVEN,
  readSettings,
  socketRequest,
  writeSettings,
} from './claude-settings.js'

/**
 * The tools whose call waits for a person: the ones that change things (a shell command, a file
 * written or edited). Gemini's read-only tools (read_file, glob, grep_search, …) go on unasked, as
 * its own default mode lets them; anchored, as Gemini takes the matcher as a regular expression.
 */
export const GEMINI_MATCHER = '^(run_shell_command|write_file|replace)$'
/** The hook's name in Gemini's /hooks panel (and in its key, `name:command`). */
export const GEMINI_HOOK_NAME = 'switchboard'
/** The hook's own timeout outlives curl's, so that what ends first is curl, and `ask` is printed. */
const GEMINI_MARGIN_SECONDS = 10
/** A dialog's request may take this long past the hub's wait (the hub answers first). */
const DIALOG_MARGIN_SECONDS = 30

type Group = { matcher?: string; sequential?: boolean; hooks?: Hook[] } & Record<string, unknown>
type GeminiHook = Hook & { name: string }

/**
 * `~/.gemini/settings.json` (Gemini takes GEMINI_CLI_HOME for the home when it is set); a project's
 * `<dir>/.gemini/settings.json`.
 */
export function geminiSettingsFile(project?: string): string {
  if (project) return join(resolve(project), '.gemini', 'settings.json')
  return join(resolve(process.env.GEMINI_CLI_HOME || homedir()), '.gemini', 'settings.json')
}

/**
 * The hook as install writes it: curl down the hub's socket, or `switchboard hook BeforeTool --agent
 * gemini`; either prints `ask` when no answer comes (no hub, a refusal, curl's time up), since a
 * hook that says nothing lets Gemini run the tool under yolo. In a session the hub drives (over ACP,
 * never yolo) it says nothing: Gemini then asks the hub as its ACP client, once.
 */
export function geminiHook(target: HookTarget): GeminiHook {
  const seconds = target.waitSeconds + DIALOG_MARGIN_SECONDS
  const timeout = (seconds + GEMINI_MARGIN_SECONDS) * 1000
  const command =
    target.via === 'command'
      ? `${HOOK_COMMAND} ${GEMINI_HOOK_EVENT} --agent gemini`
      : `${NOT_DRIVEN} ${socketRequest(GEMINI_HOOK_EVENT, target.curl, target.socketPath, seconds, 'gemini')} 2>/dev/null || echo '${JSON.stringify(GEMINI_ASK)}'`
  return { type: 'command', name: GEMINI_HOOK_NAME, command, timeout }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function groupsOf(settings: Record<string, unknown>): Group[] | null {
  const groups = isObject(settings.hooks) ? settings.hooks[GEMINI_HOOK_EVENT] : undefined
  return Array.isArray(groups) ? (groups as Group[]) : null
}

const isOurGroup = (g: Group) => (g.hooks ?? []).some(isOurHook)

/** Puts Switchboard's BeforeTool hook in, after any others (in place of an earlier install's). */
export function addGeminiHook(file: string, target: HookTarget): void {
  const at = readSettings(file)
  const settings: Record<string, unknown> = at.settings
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  settings.hooks = hooks
  const groups = groupsOf(settings) ?? []
  hooks[GEMINI_HOOK_EVENT] = groups
  const group: Group = { matcher: GEMINI_MATCHER, hooks: [geminiHook(target)] }
  const i = groups.findIndex(isOurGroup)
  if (i === -1) groups.push(group)
  else groups[i] = group
  writeSettings(file, at)
}

/** Whether Switchboard's hook is in `file` (a file that is not there holds none). */
export function hasGeminiHook(file: string): boolean {
  if (!existsSync(file)) return false
  return (groupsOf(readSettings(file).settings) ?? []).some(isOurGroup)
}

/**
 * Takes Switchboard's hook out and leaves every other hook and key as it was (a group of the
 * person's that holds it keeps their own hooks). Returns how many went.
 */
export function removeGeminiHook(file: string): number {
  if (!existsSync(file)) return 0
  const at = readSettings(file)
  const groups = groupsOf(at.settings)
  if (!groups) return 0
  let removed = 0
  const kept: Group[] = []
  for (const group of groups) {
    const theirs = (group.hooks ?? []).filter((h) => !isOurHook(h))
    removed += (group.hooks?.length ?? 0) - theirs.length
    if (theirs.length === group.hooks?.length) kept.push(group)
    else if (theirs.length) kept.push({ ...group, hooks: theirs })
  }
  if (!removed) return 0
  const settings: Record<string, unknown> = at.settings
  const hooks = settings.hooks as Record<string, unknown>
  if (kept.length) hooks[GEMINI_HOOK_EVENT] = kept
  else delete hooks[GEMINI_HOOK_EVENT]
  if (Object.keys(hooks).length === 0) delete settings.hooks
  writeSettings(file, at)
  return removed
}
