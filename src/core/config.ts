// Where a Switchboard installation keeps its state, and how every command finds its hub.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type * as z from 'zod'
import type { Agent } from './agents.js'
import { invalid } from './errors.js'
import { type FlagValues, liveSettings, rememberFlags, resolveSettings } from './settings/resolve.js'
import { SETTINGS, type Settings } from './settings/table.js'

export { advertisedHub, type HubAddress, redactDatabaseUrl } from './settings/addresses.js'

/** Longer paths do not fit in a Unix socket address; channels then use TCP. */
export const MAX_SOCKET_PATH = 100

/** What every command runs with: the settings, resolved (settings/table.ts says what each is). */
export type HubConfig = Settings & {
  /** tlsCert and tlsKey together; null: see hub/net/tls.ts. */
  tls: { cert: string; key: string } | null
}

/** Where a local client dials a hub bound to `host`: one bound to every interface answers on loopback. */
export function dialHost(host: string): string {
  return host === '0.0.0.0' ? SETTINGS.host.default : host
}

/** The settings, flag > variable > config.json > default; the first mistake is thrown, in one line. */
export function loadConfig(flags: FlagValues = {}): HubConfig {
  const { values, problems } = resolveSettings(flags)
  if (problems[0] !== undefined) throw invalid(problems[0])
  rememberFlags(values.home, flags)
  const { tlsCert, tlsKey } = values
  return { ...values, tls: tlsCert !== null && tlsKey !== null ? { cert: tlsCert, key: tlsKey } : null }
}

/** The hub's replyFileRoots, read when a reply attaches files: an edit of config.json needs no restart. */
export function replyFileRoots(home: string): string[] {
  const { values, problems } = liveSettings(home)
  if (problems[0] !== undefined) throw invalid(problems[0])
  return values.replyFileRoots
}

/** A JSON settings file checked whole: absent reads as `{}`; a bad one is one line naming where. */
export function readJsonFile<T extends z.ZodType>(
  file: string,
  schema: T,
): z.infer<T> | Record<string, never> {
  if (!existsSync(file)) return {}
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw invalid(`${file}: not valid JSON (${(err as Error).message})`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const at = issue?.path.length ? issue.path.join('.') : '(top level)'
    throw invalid(`${file}: ${at}: ${issue?.message ?? 'invalid'}`)
  }
  return parsed.data
}

export function ensureHome(home: string): void {
  if (existsSync(home) && !statSync(home).isDirectory())
    throw invalid(`the Switchboard home ${home} is a file, not a folder (--home or SWITCHBOARD_HOME)`)
  mkdirSync(home, { recursive: true, mode: 0o700 })
  mkdirSync(join(home, 'logs'), { recursive: true, mode: 0o700 })
  // A home made looser by hand (or by an older version) is tightened again: it holds secrets. A folder
  // that is no Switchboard home yet (`--home /tmp` by mistake) keeps its mode.
  if (existsSync(paths.database(home)) || existsSync(paths.adminToken(home))) {
    chmodSync(home, 0o700)
    chmodSync(join(home, 'logs'), 0o700)
  }
}

export const paths = {
  database: (home: string) => join(home, 'switchboard.db'),
  adminToken: (home: string) => join(home, 'admin-token'),
  /**
   * The token an earlier install wrote into Claude Code's settings for its HTTP hooks; nothing takes
   * it now (hooks come down the home's socket), and installing the hooks again deletes it.
   */
  formerHookToken: (home: string) => join(home, 'hook-token'),
  /** Claude Code settings files Switchboard's hooks were installed in (a project's among them), for uninstall. */
  /** Where an agent's hooks were installed, per agent (Claude Code's file kept its first name). */
  hookInstalls: (home: string, agent: Agent) => join(home, `${agent}-hooks.json`),
  hubInfo: (home: string) => join(home, 'hub.json'),
  hubId: (home: string) => join(home, 'hub-id'),
  hubLog: (home: string) => join(home, 'logs', 'hub.log'),
  /** Files people sent through a bridge, downloaded for Claude; the one part of the home a reply may attach from. */
  inbox: (home: string) => join(home, 'inbox'),
  /** Local channels reach the hub here: cheaper than TCP, and guarded by the folder's permissions. */
  hubSocket: (home: string, port: number) => join(home, `hub-${port}.sock`),
  /** The key and certificate a hub beyond loopback makes for itself when given none (0600). */
  tlsPem: (home: string) => join(home, 'tls', 'hub.pem'),
  /** The ids a channel of this subscriber name showed its session (channel/shown.ts). */
  shownLog: (home: string, subscriber: string) => join(home, 'channels', `${subscriber}.shown`),
}
