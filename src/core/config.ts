// Where a Switchboard installation keeps its state, and how every command finds its hub.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { UserError } from './errors.js'
import { normalizeFingerprint } from './fingerprint.js'
import { hostPort } from './network.js'

export const DEFAULT_PORT = 7420
export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024
export const DEFAULT_RETENTION_DAYS = 30
export const DEFAULT_SESSION_IDLE_MINUTES = 30
/** Longer paths do not fit in a Unix socket address; channels then use TCP. */
export const MAX_SOCKET_PATH = 100

const portSchema = z.coerce
  .number({ error: 'port must be a number' })
  .int('port must be a whole number')
  .min(1, 'port must be between 1 and 65535')
  .max(65535, 'port must be between 1 and 65535')

/** The optional `config.json` in the home folder. Unknown keys are refused so typos surface. */
export const configFileSchema = z
  .object({
    port: portSchema.optional(),
    host: z.string().min(1).optional(),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .optional(),
    /** Host names (optionally `name:port`) the hub answers to besides loopback, e.g. behind a proxy. */
    allowedHosts: z.array(z.string().min(1).max(255)).optional(),
    /** How long events, replies, answered decisions, session lines and delivery logs are kept. */
    retentionDays: z.number().positive('retentionDays must be more than 0').max(36_500).optional(),
    /** Minutes a driven session's CLI may sit idle before the hub stops it (0: never); a message resumes it. */
    sessionIdleMinutes: z.number().min(0).max(100_000).optional(),
    /** Environment variables the hub passes to the Claude Code processes it starts, besides its own list. */
    sessionEnv: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'))
      .optional(),
    /** A Postgres database several hubs share (postgres://…); without it, the home's SQLite file. */
    databaseUrl: z.string().optional(),
    /** Folders a reply may attach files from, besides the session's own folder and `<home>/inbox`. */
    replyFileRoots: z.array(z.string().startsWith('/', 'replyFileRoots are absolute paths')).optional(),
  })
  .strict()

const databaseUrlSchema = z
  .string()
  .regex(/^postgres(ql)?:\/\/\S+$/, 'a database URL starts with postgres:// or postgresql://')

export interface HubConfig {
  home: string
  port: number
  host: string
  maxBodyBytes: number
  allowedHosts: string[]
  sessionEnv: string[]
  retentionDays: number
  sessionIdleMinutes: number
  /** Postgres, shared by every hub given the same URL; null: SQLite in the home. */
  databaseUrl: string | null
  /**
   * SWITCHBOARD_HUBS: hubs on one database a channel or the CLI may use, tried in this order (the
   * next one when one dies). Empty: the home's own hub on `host`:`port`.
   */
  hubs: HubAddress[]
  /**
   * SWITCHBOARD_LEASE_MS: how long work one hub at a time does (a bridge, a session) stays with a
   * hub that stopped renewing it, i.e. how soon another hub takes over when one dies.
   */
  leaseMs: number
  /**
   * SWITCHBOARD_ADVERTISE (host:port): where the other hubs on the database reach this one, when
   * neither the bind address nor this machine's first network address is it (NAT, a proxy).
   */
  advertise: string | null
  /** `serve --tls-cert/--tls-key`: the hub's certificate and key (PEM files); null: see hub/transport/tls.ts. */
  tls: { cert: string; key: string } | null
  /** `serve --insecure`: plain HTTP beyond loopback, for a network the owner trusts. */
  insecure: boolean
}

export interface HubAddress {
  host: string
  port: number
  /** The SHA-256 of the hub's TLS certificate, as `host:port#sha256:<hex>` pins it. */
  fingerprint?: string
}

const advertised = ({ host, port }: HubAddress) => hostPort(host, port)

/** One `host:port` (IPv6 in brackets: `[::1]:7420`), pinned to a certificate by `#sha256:<hex>`. */
function parseHubAddress(raw: string, where: string, hint = ''): HubAddress {
  const m = /^(\[[^\]]+\]|[^:\s,#]+):(\d+)(?:#(.*))?$/.exec(raw.trim())
  if (!m) throw new UserError(`${where}: "${raw.trim()}" is not host:port${hint}`)
  const address = {
    host: (m[1] as string).replace(/^\[|\]$/g, ''),
    port: parsePort(m[2], `${where}: ${raw.trim()}`),
  }
  if (m[3] === undefined) return address
  const fingerprint = /^sha256:(.+)$/i.exec(m[3])?.[1]
  const normalized = fingerprint ? normalizeFingerprint(fingerprint) : null
  if (!normalized)
    throw new UserError(
      `${where}: "${raw.trim()}": after # comes the hub's certificate as sha256:<64 hex digits> (switchboard status on the hub prints it)`,
    )
  return { ...address, fingerprint: normalized }
}

/** A hub's address as another hub advertised it (its lease), or null when it is none. */
export function advertisedHub(raw: string): HubAddress | null {
  try {
    return parseHubAddress(raw, 'address')
  } catch {
    return null
  }
}

/** `host:port[#sha256:<hex>],host:port…`. */
export function parseHubs(raw: string, where: string): HubAddress[] {
  return raw
    .split(',')
    .filter((part) => part.trim())
    .map((part) => parseHubAddress(part, where, ' (hubs are separated by commas)'))
}

export interface ConfigOverrides {
  home?: string
  port?: string | number
  host?: string
  databaseUrl?: string
  tlsCert?: string
  tlsKey?: string
  insecure?: boolean
}

/** Where a local client dials a hub bound to `host`: one bound to every interface answers on loopback. */
export function dialHost(host: string): string {
  return host === '0.0.0.0' ? DEFAULT_HOST : host
}

export function resolveHome(override?: string): string {
  const raw = override ?? process.env.SWITCHBOARD_HOME ?? join(homedir(), '.switchboard')
  return resolve(raw)
}

export function parsePort(raw: unknown, where: string): number {
  const parsed = portSchema.safeParse(raw)
  if (!parsed.success) throw new UserError(`${where}: ${parsed.error.issues[0]?.message ?? 'invalid port'}`)
  return parsed.data
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
    throw new UserError(`${file}: not valid JSON (${(err as Error).message})`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const at = issue?.path.length ? issue.path.join('.') : '(top level)'
    throw new UserError(`${file}: ${at}: ${issue?.message ?? 'invalid'}`)
  }
  return parsed.data
}

function readConfigFile(home: string): z.infer<typeof configFileSchema> {
  return readJsonFile(join(home, 'config.json'), configFileSchema)
}

/** config.json's `replyFileRoots`, read when a reply attaches files: a change needs no restart. */
export function replyFileRoots(home: string): string[] {
  return readConfigFile(home).replyFileRoots ?? []
}

/** Flags win over environment variables, which win over config.json, which wins over defaults. */
export function loadConfig(overrides: ConfigOverrides = {}): HubConfig {
  const home = resolveHome(overrides.home)
  const file = readConfigFile(home)
  let port = file.port ?? DEFAULT_PORT
  if (process.env.SWITCHBOARD_PORT) port = parsePort(process.env.SWITCHBOARD_PORT, 'SWITCHBOARD_PORT')
  if (overrides.port !== undefined) port = parsePort(overrides.port, '--port')
  return {
    databaseUrl: pickDatabaseUrl(overrides.databaseUrl, file.databaseUrl),
    hubs: process.env.SWITCHBOARD_HUBS ? parseHubs(process.env.SWITCHBOARD_HUBS, 'SWITCHBOARD_HUBS') : [],
    leaseMs: parseLeaseMs(process.env.SWITCHBOARD_LEASE_MS),
    advertise: process.env.SWITCHBOARD_ADVERTISE
      ? advertised(parseHubAddress(process.env.SWITCHBOARD_ADVERTISE, 'SWITCHBOARD_ADVERTISE'))
      : null,
    home,
    port,
    host: overrides.host ?? file.host ?? DEFAULT_HOST,
    maxBodyBytes: file.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowedHosts: file.allowedHosts ?? [],
    sessionEnv: file.sessionEnv ?? [],
    retentionDays: file.retentionDays ?? DEFAULT_RETENTION_DAYS,
    sessionIdleMinutes: file.sessionIdleMinutes ?? DEFAULT_SESSION_IDLE_MINUTES,
    tls: pickTls(overrides),
    insecure: overrides.insecure ?? false,
  }
}

function pickTls({ tlsCert, tlsKey, insecure }: ConfigOverrides): HubConfig['tls'] {
  if (tlsCert === undefined && tlsKey === undefined) return null
  if (tlsCert === undefined || tlsKey === undefined)
    throw new UserError('--tls-cert and --tls-key go together: the certificate and its key, both PEM files')
  if (insecure) throw new UserError('--insecure is plain HTTP; it cannot go with --tls-cert and --tls-key')
  return { cert: resolve(tlsCert), key: resolve(tlsKey) }
}

export const DEFAULT_LEASE_MS = 10_000

function parseLeaseMs(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LEASE_MS
  const parsed = z.coerce.number().int().min(400).max(600_000).safeParse(raw)
  if (!parsed.success)
    throw new UserError(`SWITCHBOARD_LEASE_MS "${raw}": a whole number of milliseconds from 400 to 600000`)
  return parsed.data
}

function pickDatabaseUrl(flag: string | undefined, file: string | undefined): string | null {
  const [raw, where] =
    flag !== undefined
      ? [flag, '--database-url']
      : process.env.SWITCHBOARD_DATABASE_URL
        ? [process.env.SWITCHBOARD_DATABASE_URL, 'SWITCHBOARD_DATABASE_URL']
        : [file, 'databaseUrl in config.json']
  if (raw === undefined) return null
  const parsed = databaseUrlSchema.safeParse(raw)
  if (!parsed.success) throw new UserError(`${where}: ${parsed.error.issues[0]?.message}`)
  return parsed.data
}

/** The URL without its password, to name in messages and logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')
}

export function ensureHome(home: string): void {
  if (existsSync(home) && !statSync(home).isDirectory())
    throw new UserError(`the Switchboard home ${home} is a file, not a folder (--home or SWITCHBOARD_HOME)`)
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
