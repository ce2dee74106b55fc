// The one place settings are read: a flag wins over a variable, which wins over config.json, which
// wins over the default. Every mistake is one line naming the setting and where it came from, and
// all of them are found in one pass (`switchboard config` prints them all; a command stops at the first).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { durationSeconds } from '../decision-timeout.js'
import type { Setting } from './define.js'
import { SETTING_NAMES, SETTINGS, type SettingName, type Settings } from './table.js'

export type Source = 'flag' | 'variable' | 'config.json' | 'default'

export interface Origin {
  from: Source
  /** `--port`, `SWITCHBOARD_PORT` or the config.json file; null for the default. */
  where: string | null
}

/** What the command line gave, by setting name: a flag's text, or true for a flag that takes none. */
export type FlagValues = Partial<Record<SettingName, string | boolean>>

export interface Resolution {
  values: Settings
  origins: Record<SettingName, Origin>
  /** One line each. */
  problems: string[]
  /** Settings whose value was refused where it came from: they hold their default. */
  refused: ReadonlySet<SettingName>
  /** The config.json read (whether or not it exists). */
  file: string
}

type Env = Record<string, string | undefined>

/** `--port` of `--port <port>`. */
export const flagName = (spec: Setting) => spec.flag?.spec.split(' ')[0] ?? ''

const spec = (name: SettingName) => SETTINGS[name] as Setting

/** The setting's raw value and where it is from, before any check. */
function pick(name: SettingName, flags: FlagValues, env: Env, file: ConfigFile): [unknown, Origin] {
  const s = spec(name)
  const flag = flags[name]
  if (s.flag && flag !== undefined)
    return [typeof flag === 'string' ? s.text(flag) : flag, { from: 'flag', where: flagName(s) }]
  // An empty variable is one nobody set: `SWITCHBOARD_LOG_FILE= switchboard …` turns it off.
  const variable = env[s.variable]
  if (variable?.trim()) return [s.text(variable), { from: 'variable', where: s.variable }]
  if (s.inFile && Object.hasOwn(file.entries, name))
    return [file.entries[name], { from: 'config.json', where: file.path }]
  return [s.default, { from: 'default', where: null }]
}

interface ConfigFile {
  path: string
  entries: Record<string, unknown>
  problems: string[]
}

/** config.json, each key it should not hold one problem; a file that cannot be read is one. */
function readConfigFile(home: string): ConfigFile {
  const path = join(home, 'config.json')
  const file: ConfigFile = { path, entries: {}, problems: [] }
  if (!existsSync(path)) return file
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    const e = err as NodeJS.ErrnoException
    file.problems.push(`${path}: ${e.code ? `cannot be read (${e.code})` : `not valid JSON (${e.message})`}`)
    return file
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    file.problems.push(`${path}: the settings are one JSON object, e.g. {"port": 7420}`)
    return file
  }
  for (const [key, value] of Object.entries(json)) {
    const s = Object.hasOwn(SETTINGS, key) ? spec(key as SettingName) : null
    if (s?.inFile) file.entries[key] = value
    // Unknown keys are refused, so that a typo does not pass for a setting.
    else file.problems.push(`${path}: ${key}: ${s ? `not a config.json key (${s.why})` : 'no such setting'}`)
  }
  return file
}

function check(name: SettingName, raw: unknown, origin: Origin, home: string, cwd: string) {
  const s = spec(name)
  if (origin.from === 'default') return { value: raw }
  const parsed = s.schema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where =
      origin.from === 'config.json'
        ? `${origin.where}: ${[name, ...(issue?.path ?? [])].join('.')}`
        : origin.where
    return { problem: `${where}: ${issue?.message ?? 'invalid'}` }
  }
  const value = parsed.data
  if (s.path && typeof value === 'string')
    return { value: resolve(origin.from === 'config.json' ? home : cwd, value) }
  return { value }
}

/** Every setting, resolved and checked: what a command runs with, and what `switchboard config` shows. */
export function resolveSettings(
  flags: FlagValues = {},
  env: Env = process.env,
  cwd = process.cwd(),
): Resolution {
  const values = {} as Record<SettingName, unknown>
  const origins = {} as Record<SettingName, Origin>
  const problems: string[] = []
  const refused = new Set<SettingName>()
  const take = (name: SettingName, file: ConfigFile, home: string) => {
    const [raw, origin] = pick(name, flags, env, file)
    const checked = check(name, raw, origin, home, cwd)
    origins[name] = origin
    if ('problem' in checked) {
      problems.push(checked.problem as string)
      refused.add(name)
      values[name] = spec(name).default
    } else values[name] = checked.value
  }
  // The home first: config.json is in it.
  take('home', { path: '', entries: {}, problems: [] }, cwd)
  const home = values.home as string
  const file = readConfigFile(home)
  problems.push(...file.problems)
  for (const name of SETTING_NAMES) if (name !== 'home') take(name, file, home)
  problems.push(...crossChecks(values as Settings, origins, file.path, refused))
  return { values: values as Settings, origins, problems, refused, file: file.path }
}

/** How a message names where a setting came from, in a sentence about several. */
function label(name: SettingName, origin: Origin): string {
  if (origin.from === 'flag' || origin.from === 'variable') return origin.where ?? name
  return `${name} in ${origin.where}`
}

/** What one setting's schema cannot see: settings that go together, or must not. */
function crossChecks(
  values: Settings,
  origins: Record<SettingName, Origin>,
  file: string,
  refused: Set<SettingName>,
): string[] {
  const problems: string[] = []
  // A setting already refused holds its default: checking it against others would only mislead.
  const tls = !refused.has('tlsCert') && !refused.has('tlsKey') && !refused.has('insecure')
  const { tlsCert, tlsKey } = values
  if (tls && (tlsCert === null) !== (tlsKey === null)) {
    const given = origins[tlsCert === null ? 'tlsKey' : 'tlsCert'].from
    const named = (name: 'tlsCert' | 'tlsKey') =>
      given === 'flag' ? flagName(spec(name)) : given === 'variable' ? spec(name).variable : name
    problems.push(
      `${given === 'config.json' ? `${file}: ` : ''}${named('tlsCert')} and ${named('tlsKey')} go together: the certificate and its key, both PEM files`,
    )
  } else if (tls && tlsCert !== null && values.insecure)
    problems.push(
      `${label('insecure', origins.insecure)} is plain HTTP; it cannot go with ${label('tlsCert', origins.tlsCert)} and ${label('tlsKey', origins.tlsKey)}`,
    )
  problems.push(...timeoutChecks(values, origins, refused))
  // config.json is no place for a secret unless only its owner can read it.
  const secretInFile = (['adminToken', 'transcriptionKey'] as const).find(
    (name) => origins[name].from === 'config.json',
  )
  if (secretInFile && (statSync(file).mode & 0o077) !== 0)
    problems.push(
      `${file}: ${secretInFile}: a file holding a secret must be its owner's alone (chmod 600 ${file})`,
    )
  return problems
}

/**
 * A decision's timeout that could never do what it says: a deny with nothing to run out, a warning
 * at or after the end, or a `terminal` outcome later than the terminal's dialog goes back anyway
 * (hookWaitSeconds) — a driven session has no terminal, so nothing would ever happen.
 */
function timeoutChecks(values: Settings, origins: Record<SettingName, Origin>, refused: Set<SettingName>) {
  const names = ['decisionTimeout', 'decisionTimeoutOutcome', 'decisionWarning', 'hookWaitSeconds'] as const
  if (names.some((name) => refused.has(name))) return []
  const timeout = durationSeconds(values.decisionTimeout) ?? null
  const warning = durationSeconds(values.decisionWarning) ?? null
  const outcome = values.decisionTimeoutOutcome
  const at = (name: SettingName) => (origins[name].from === 'default' ? name : label(name, origins[name]))
  if (timeout === null)
    return outcome === 'deny'
      ? [`${at('decisionTimeoutOutcome')}: "deny" needs a decisionTimeout to run out; it is off`]
      : []
  // The default warning is simply not sent for a timeout that short; one asked for is refused.
  if (warning !== null && warning >= timeout && origins.decisionWarning.from !== 'default')
    return [
      `${at('decisionWarning')}: ${values.decisionWarning} is not before the end of a ${values.decisionTimeout} decisionTimeout`,
    ]
  if (outcome === 'terminal' && timeout > values.hookWaitSeconds)
    return [
      `${at('decisionTimeout')}: ${values.decisionTimeout} with the outcome "terminal" can never run out: a terminal's dialog goes back at hookWaitSeconds (${values.hookWaitSeconds} s) first, and a driven session has no terminal`,
    ]
  return []
}

/** Each process's command-line settings by home, for settings read again while it runs (live). */
const startedWith = new Map<string, FlagValues>()

/** Keeps what the command line gave a home's process, for `liveSettings`. */
export function rememberFlags(home: string, flags: FlagValues): void {
  startedWith.set(home, flags)
}

/**
 * A setting read again each time it is used (replyFileRoots: an edit of config.json needs no
 * restart): the flags the process started with, the environment, config.json as it is now.
 */
export function liveSettings(home: string): Resolution {
  return resolveSettings({ ...startedWith.get(home), home })
}
