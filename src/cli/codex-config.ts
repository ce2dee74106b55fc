// Codex's config.toml, as far as Switchboard's PermissionRequest hook goes: add it, take it out, and
// record Codex's trust in it. Codex runs a hook from config.toml only once `hooks.state."<key>"`
// holds the hash Codex computes of it (shared/AGENTS.md §1c); the key is the file, the event and the
// hook's place (`<file>:permission_request:<group>:<handler>`). The file is read and written whole
// with smol-toml: every key and value Switchboard does not own stays as it was (comments and layout
// do not: TOML libraries for Node that keep them lost nested tables when tried). Replaced whole,
// owner-only, never through a link.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parse, stringify } from 'smol-toml'
import { invalid } from '../core/errors.js'
import { replacePrivateFile } from '../core/private-file.js'
import { type Hook, type HookTarget, hookFor, isOurHook, notALink } from './claude-settings.js'

/** The one event Switchboard hooks in Codex: its permission prompts. */
const EVENT = 'PermissionRequest'
/** How Codex names the event in a hook's trust key. */
const KEY_EVENT = 'permission_request'

type Table = Record<string, unknown>
type Group = { matcher?: string; hooks?: Hook[] } & Table

/** `$CODEX_HOME/config.toml` (Codex's default home is ~/.codex); a project's `.codex/config.toml`. */
export function codexConfigFile(project?: string): string {
  if (project) return join(resolve(project), '.codex', 'config.toml')
  const home = process.env.CODEX_HOME || join(homedir(), '.codex')
  return join(resolve(home), 'config.toml')
}

function read(file: string): Table {
  notALink(file, 'config file')
  if (!existsSync(file)) return {}
  try {
    return parse(readFileSync(file, 'utf8')) as Table
  } catch (err) {
    throw invalid(`${file}: not valid TOML (${(err as Error).message.split('\n')[0]}); fix it first`)
  }
}

function write(file: string, config: Table): void {
  mkdirSync(dirname(file), { recursive: true })
  notALink(file, 'config file')
  replacePrivateFile(file, stringify(config).replace(/^\n+/, ''))
}

const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v)

const isOurGroup = (g: Group) => (g.hooks ?? []).some(isOurHook)

/** The trust key Codex gives the hook at `group`, `handler` of the event in `file`. */
export function trustKey(file: string, group: number, handler = 0): string {
  return `${file}:${KEY_EVENT}:${group}:${handler}`
}

function groupsOf(config: Table): Group[] {
  const hooks = isTable(config.hooks) ? config.hooks : {}
  const groups = hooks[EVENT]
  return Array.isArray(groups) ? (groups as Group[]) : []
}

function stateOf(config: Table): Table {
  const hooks = isTable(config.hooks) ? config.hooks : {}
  return isTable(hooks.state) ? hooks.state : {}
}

/**
 * Puts Switchboard's PermissionRequest hook in, after any others (in place of an earlier install's),
 * and returns its trust key: what `trustHook` records the hash under.
 */
export function addCodexHook(file: string, target: HookTarget): string {
  const config = read(file)
  const hooks = isTable(config.hooks) ? config.hooks : {}
  config.hooks = hooks
  const groups = groupsOf(config)
  hooks[EVENT] = groups
  const group: Group = { hooks: [hookFor(EVENT, target, 'codex')] }
  let at = groups.findIndex(isOurGroup)
  if (at === -1) at = groups.push(group) - 1
  else groups[at] = group
  write(file, config)
  return trustKey(file, at)
}

/** Whether Switchboard's hook is in `file` (a file that is not there holds none). */
export function hasCodexHook(file: string): boolean {
  return existsSync(file) && groupsOf(read(file)).some(isOurGroup)
}

/**
 * Takes Switchboard's hook out, with the trust Codex recorded for it, and leaves every other hook
 * trusted as it was: the hooks after it move up a place, and so do their keys. Returns how many went.
 */
export function removeCodexHook(file: string, stateFile = file): number {
  if (!existsSync(file)) return 0
  const config = read(file)
  const groups = groupsOf(config)
  const ours = groups.flatMap((g, i) => (isOurGroup(g) ? [i] : []))
  if (!ours.length) return 0
  const hooks = config.hooks as Table
  const kept = groups.filter((g) => !isOurGroup(g))
  if (kept.length) hooks[EVENT] = kept
  else delete hooks[EVENT]
  const stateConfig = stateFile === file ? config : read(stateFile)
  const state = stateOf(stateConfig)
  const moved: Table = {}
  const prefix = `${file}:${KEY_EVENT}:`
  for (const [key, value] of Object.entries(state)) {
    const place = key.startsWith(prefix) ? /^(\d+):(\d+)$/.exec(key.slice(prefix.length)) : null
    if (!place) {
      moved[key] = value
      continue
    }
    const group = Number(place[1])
    if (ours.includes(group)) continue
    const before = ours.filter((i) => i < group).length
    moved[trustKey(file, group - before, Number(place[2]))] = value
  }
  const stateHooks = (stateConfig.hooks ?? {}) as Table
  if (Object.keys(moved).length) stateHooks.state = moved
  else delete stateHooks.state
  for (const c of stateFile === file ? [config] : [config, stateConfig])
    if (isTable(c.hooks) && Object.keys(c.hooks).length === 0) delete c.hooks
  write(file, config)
  if (stateFile !== file) write(stateFile, stateConfig)
  return ours.length
}

/** Records that Codex may run the hook at `key`: the hash Codex computed of it (`trustHook`). */
export function recordTrust(stateFile: string, key: string, hash: string): void {
  const config = read(stateFile)
  const hooks = isTable(config.hooks) ? config.hooks : {}
  config.hooks = hooks
  const state = stateOf(config)
  hooks.state = state
  state[key] = { ...(isTable(state[key]) ? state[key] : {}), trusted_hash: hash }
  write(stateFile, config)
}
