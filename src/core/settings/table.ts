// Every setting Switchboard has, once: its flag, its variable, its config.json key, its schema and its
// default. Flag > variable > config.json > default (resolve.ts); `switchboard config` shows the result,
// and the README's "Settings" table is rendered from this one (markdown.ts, checked by a test).
import { homedir } from 'node:os'
import { join } from 'node:path'
import * as z from 'zod'
import { TIMEOUT_OUTCOMES, type TimeoutOutcome } from '../decision-timeout.js'
import { DEFAULT_HEARTBEAT_MS } from '../heartbeat.js'
import { isLoopback } from '../network.js'
import { SCOPES } from '../scope.js'
import { subscriberNameSchema } from '../subscriber-name-schema.js'
import {
  advertiseSchema,
  type HubAddress,
  hubAddressText,
  hubListSchema,
  portSchema,
  redactDatabaseUrl,
} from './addresses.js'
import { booleanSchema, durationSchema, listOf, numberIn, setting, text } from './define.js'

const PUSH_CONTACT = 'a mailto: or https: address push services may write to (mailto:you@example.org)'

/** The token goes there: https, or plain http only to this machine. */
function isGitHubApi(value: string): boolean {
  try {
    const url = new URL(value)
    // Paths are put after it: a query, a fragment or credentials in it would send them elsewhere.
    if (url.search || url.hash || url.username || url.password) return false
    return (
      url.protocol === 'https:' ||
      (url.protocol === 'http:' && isLoopback(url.hostname.replace(/^\[|\]$/g, '')))
    )
  } catch {
    return false
  }
}

/** RFC 8292's `sub`: a mailto: with an address, or an https: URL with a host. */
function isPushContact(value: string): boolean {
  if (/^mailto:[^@\s]+@[^@\s]+$/.test(value)) return true
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname !== ''
  } catch {
    return false
  }
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const

/**
 * The shortest platformLostMs: after a failed poll Telegram's client (grammy) waits 3 s before the
 * next, so a shorter setting handed the bridge over at the first blip; this leaves that poll 2 s.
 */
export const PLATFORM_LOST_MIN_MS = 5_000

const ON_SERVE = ['serve'] as const
const ON_CHANNEL = ['channel'] as const
const PER_SESSION = "each session has its own, and config.json is the whole home's"

export const SETTINGS = {
  home: setting({
    variable: 'SWITCHBOARD_HOME',
    flag: { spec: '--home <dir>' },
    inFile: false,
    why: 'config.json is in the home, so it cannot say where the home is',
    text: text.string,
    schema: () => z.string().min(1, 'a folder'),
    default: join(homedir(), '.switchboard'),
    defaultText: '~/.switchboard',
    path: true,
    description: 'the state folder: database, admin token, logs, config.json',
  }),
  port: setting({
    variable: 'SWITCHBOARD_PORT',
    flag: { spec: '--port <port>' },
    inFile: true,
    text: text.string,
    schema: portSchema,
    default: 7420,
    description: 'the port the hub listens on and every client dials',
  }),
  host: setting({
    variable: 'SWITCHBOARD_HOST',
    flag: { spec: '--host <address>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () => z.string().min(1, 'an address to bind, e.g. 0.0.0.0'),
    default: '127.0.0.1',
    description: 'the address the hub binds (beyond loopback it speaks TLS) and clients dial',
  }),
  allowedHosts: setting({
    variable: 'SWITCHBOARD_ALLOWED_HOSTS',
    flag: { spec: '--allowed-hosts <names>', on: ON_SERVE },
    inFile: true,
    text: text.list,
    schema: () => listOf(z.string().min(1).max(255, 'a host name is at most 255 characters')),
    default: [] as string[],
    description: 'host names (name or name:port) the hub answers to besides loopback, e.g. behind a proxy',
  }),
  maxBodyBytes: setting({
    variable: 'SWITCHBOARD_MAX_BODY_BYTES',
    flag: { spec: '--max-body-bytes <bytes>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () =>
      numberIn('a whole number of bytes from 1024 to 16777216', 1024, 16 * 1024 * 1024, {
        whole: true,
      }),
    default: 64 * 1024,
    description:
      "the largest webhook or sender's message the hub reads; a webhook source whose sender sends more reads up to its sender's own cap (github 25 MiB, sentry 2 MiB, alertmanager and grafana 4 MiB; every other route's limit is in /openapi.json)",
  }),
  retentionDays: setting({
    variable: 'SWITCHBOARD_RETENTION_DAYS',
    flag: { spec: '--retention-days <days>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a number of days above 0, at most 36500', 0, 36_500, { above: true }),
    default: 30,
    description: 'how long events, replies, answered decisions, session lines and delivery logs are kept',
  }),
  routing: setting({
    variable: 'SWITCHBOARD_ROUTING',
    flag: { spec: '--routing <scope>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () =>
      z.enum(SCOPES, {
        error: (issue) => `${JSON.stringify(issue.input)} is not one of ${SCOPES.join(', ')}`,
      }),
    default: 'project' as const,
    description:
      'what a session gets of events it names no topic for: what is about its project, or everything (every session everything, as before)',
  }),
  sessionIdleMinutes: setting({
    variable: 'SWITCHBOARD_SESSION_IDLE_MINUTES',
    flag: { spec: '--session-idle-minutes <minutes>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a number of minutes from 0 to 100000', 0, 100_000),
    default: 30,
    description: "minutes a driven session's Claude Code may sit idle before the hub stops it (0: never)",
  }),
  sessionEnv: setting({
    variable: 'SWITCHBOARD_SESSION_ENV',
    flag: { spec: '--session-env <names>', on: ON_SERVE },
    inFile: true,
    text: text.list,
    schema: () =>
      listOf(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
          error: (issue) => `${JSON.stringify(issue.input)} is not an environment variable name`,
        }),
      ),
    default: [] as string[],
    description:
      'variables the hub passes to the agents it starts (Claude Code, Codex), besides their own lists',
  }),
  replyFileRoots: setting({
    variable: 'SWITCHBOARD_REPLY_FILE_ROOTS',
    flag: { spec: '--reply-file-roots <folders>', on: ON_SERVE },
    inFile: true,
    text: text.list,
    schema: () => listOf(z.string().startsWith('/', 'replyFileRoots are absolute paths')),
    default: [] as string[],
    description:
      "folders a reply may attach files from, besides the session's and the home's inbox (config.json's is read at each reply)",
  }),
  chatFileLimitMb: setting({
    variable: 'SWITCHBOARD_CHAT_FILE_LIMIT_MB',
    flag: { spec: '--chat-file-limit-mb <MB>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a number of megabytes from 1 to 2000', 1, 2000),
    default: 50,
    description:
      "the largest file a chat brings into a session's inbox, and the most a reply's files weigh together going out (config.json's is read at each file)",
  }),
  chatFileTypes: setting({
    variable: 'SWITCHBOARD_CHAT_FILE_TYPES',
    flag: { spec: '--chat-file-types <types>', on: ON_SERVE },
    inFile: true,
    text: text.list,
    schema: () =>
      listOf(
        z.string().regex(/^(\*|[a-z0-9.+-]+)\/(\*|[a-z0-9.+-]+)$/i, {
          error: (issue) => `${JSON.stringify(issue.input)} is not a type such as image/png or image/*`,
        }),
      ),
    default: [
      'image/*',
      'text/*',
      'audio/*',
      'video/*',
      'application/pdf',
      'application/json',
      'application/zip',
    ] as string[],
    description:
      'the types of file a chat may bring into a session (image/*, application/pdf; */* takes any); a file of another type is refused, and its sender told',
  }),
  transcriptionUrl: setting({
    variable: 'SWITCHBOARD_TRANSCRIPTION_URL',
    flag: { spec: '--transcription-url <url>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () =>
      z.url({
        protocol: /^https?$/,
        error: 'an http: or https: URL of an OpenAI-compatible /v1/audio/transcriptions endpoint',
      }),
    default: null,
    defaultText: 'none: a voice note is a file like any other',
    description:
      "a speech-to-text service voice notes from the chats and the dashboard's recordings are transcribed by (an OpenAI-compatible POST /v1/audio/transcriptions: whisper.cpp, faster-whisper, a hosted one)",
  }),
  transcriptionKey: setting({
    variable: 'SWITCHBOARD_TRANSCRIPTION_KEY',
    flag: null,
    inFile: true,
    why: 'on a command line every user of the machine could read it (ps)',
    text: text.string,
    schema: () => z.string().trim().min(1, 'an API key'),
    default: null,
    defaultText: 'none (a local server wants none)',
    secret: true,
    show: (key) => (key === null ? null : '(hidden)'),
    description: "the bearer key transcriptionUrl's service takes; config.json holding it must be 0600",
  }),
  transcriptionModel: setting({
    variable: 'SWITCHBOARD_TRANSCRIPTION_MODEL',
    flag: { spec: '--transcription-model <name>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () => z.string().trim().min(1, 'a model name'),
    default: 'whisper-1',
    description: 'the model asked of transcriptionUrl (its model field)',
  }),
  databaseUrl: setting({
    variable: 'SWITCHBOARD_DATABASE_URL',
    flag: { spec: '--database-url <url>' },
    inFile: true,
    text: text.string,
    schema: () =>
      z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'a database URL starts with postgres:// or postgresql://'),
    default: null,
    defaultText: 'SQLite in the home',
    secret: true,
    show: (url) => (url === null ? null : redactDatabaseUrl(url)),
    description: 'a Postgres database several hubs share (postgres://…); its password is never shown',
  }),
  hubs: setting({
    variable: 'SWITCHBOARD_HUBS',
    flag: { spec: '--hubs <list>' },
    inFile: true,
    text: text.list,
    schema: hubListSchema,
    default: [] as HubAddress[],
    defaultText: "the home's own hub",
    show: (hubs) => hubs.map(hubAddressText),
    description: 'hubs on one database the CLI and channels use, in order (host:port#sha256:…)',
  }),
  leaseMs: setting({
    variable: 'SWITCHBOARD_LEASE_MS',
    flag: { spec: '--lease-ms <ms>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () =>
      numberIn('a whole number of milliseconds from 400 to 600000', 400, 600_000, { whole: true }),
    default: 10_000,
    description: 'how soon another hub on the database takes over the work of one that died',
  }),
  heartbeatMs: setting({
    variable: 'SWITCHBOARD_HEARTBEAT_MS',
    flag: { spec: '--heartbeat-ms <ms>', on: ['serve', 'channel'] },
    inFile: true,
    text: text.number,
    schema: () =>
      numberIn('a whole number of milliseconds from 100 to 600000', 100, 600_000, { whole: true }),
    default: DEFAULT_HEARTBEAT_MS,
    description:
      'how often a hub and each channel on it ping each other: one that hears nothing from the other for three of these ends the link, and the channel dials the next hub (a network that drops what passes says nothing)',
  }),
  platformLostMs: setting({
    variable: 'SWITCHBOARD_PLATFORM_LOST_MS',
    flag: { spec: '--platform-lost-ms <ms>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () =>
      numberIn(
        `a whole number of milliseconds from ${PLATFORM_LOST_MIN_MS} to 3600000`,
        PLATFORM_LOST_MIN_MS,
        3_600_000,
        { whole: true },
      ),
    // A minute: Telegram's long poll answers at least every half minute when all is well, and a
    // blip of a few seconds is not worth a restart of the bridge elsewhere.
    default: 60_000,
    description:
      "how long a chat bridge's platform may go unanswered before its hub hands the bridge to another hub on the database",
  }),
  advertise: setting({
    variable: 'SWITCHBOARD_ADVERTISE',
    flag: { spec: '--advertise <host:port>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: advertiseSchema,
    default: null,
    defaultText: "the bind address, or this machine's network address",
    description: 'where the other hubs on the database reach this one (NAT, a proxy)',
  }),
  adminToken: setting({
    variable: 'SWITCHBOARD_ADMIN_TOKEN',
    flag: null,
    inFile: true,
    why: 'on a command line every user of the machine could read it (ps)',
    text: text.string,
    schema: () =>
      z.string().trim().min(24, 'must be at least 24 characters (openssl rand -hex 24 makes one)'),
    default: null,
    defaultText: "the home's admin-token file, made on first use",
    secret: true,
    show: (token) => (token === null ? null : '(hidden)'),
    description: 'the token hubs on one database share; config.json holding it must be 0600',
  }),
  tlsCert: setting({
    variable: 'SWITCHBOARD_TLS_CERT',
    flag: { spec: '--tls-cert <file>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () => z.string().min(1, 'a PEM file'),
    default: null,
    defaultText: 'one the hub makes beyond loopback',
    path: true,
    description: 'the certificate (PEM) the hub speaks TLS with',
  }),
  tlsKey: setting({
    variable: 'SWITCHBOARD_TLS_KEY',
    flag: { spec: '--tls-key <file>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () => z.string().min(1, 'a PEM file'),
    default: null,
    path: true,
    description: 'the key (PEM) of tlsCert',
  }),
  insecure: setting({
    variable: 'SWITCHBOARD_INSECURE',
    flag: { spec: '--insecure', on: ON_SERVE },
    inFile: true,
    text: text.boolean,
    schema: booleanSchema,
    default: false,
    description: 'plain HTTP beyond loopback: anyone on the network can read and change it',
  }),
  logFile: setting({
    variable: 'SWITCHBOARD_LOG_FILE',
    flag: { spec: '--log-file <file>' },
    inFile: true,
    text: text.string,
    schema: () => z.string().min(1, 'a file'),
    default: null,
    defaultText: 'stderr; serve at a terminal: logs/hub.log in the home',
    path: true,
    description: 'where logs go (0600); Claude Code hides what a channel writes to stderr',
  }),
  logLevel: setting({
    variable: 'SWITCHBOARD_LOG_LEVEL',
    flag: { spec: '--log-level <level>' },
    inFile: true,
    text: text.string,
    schema: () =>
      z.enum(LOG_LEVELS, {
        error: (issue) => `${JSON.stringify(issue.input)} is not one of ${LOG_LEVELS.join(', ')}`,
      }),
    default: 'info' as const,
    description: 'the least a log line must matter to be written',
  }),
  debug: setting({
    variable: 'SWITCHBOARD_DEBUG',
    flag: { spec: '--debug' },
    inFile: true,
    text: text.boolean,
    schema: booleanSchema,
    default: false,
    description: 'an unexpected error prints its stack trace too',
  }),
  githubToken: setting({
    variable: 'SWITCHBOARD_GITHUB_TOKEN',
    flag: null,
    inFile: true,
    why: 'on a command line every user of the machine could read it (ps)',
    text: text.string,
    schema: () => z.string().trim().min(1, 'a GitHub token'),
    default: null,
    defaultText: 'none: a comment a routine would post is a dead letter saying so',
    secret: true,
    show: (token) => (token === null ? null : '(hidden)'),
    description:
      'the token routines comment on GitHub issues and pull requests with (commentOnGitHub); it needs to write issues and pull requests',
  }),
  githubApiUrl: setting({
    variable: 'SWITCHBOARD_GITHUB_API_URL',
    flag: null,
    inFile: true,
    why: 'set once per machine (GitHub Enterprise Server), as the token is',
    text: text.string,
    schema: () =>
      z
        .string()
        .refine(
          isGitHubApi,
          'an https: URL (or http: on loopback) with no query or credentials, such as https://github.example.com/api/v3',
        ),
    default: 'https://api.github.com',
    description: 'the GitHub REST API routines post comments to',
  }),
  routineRuns: setting({
    variable: 'SWITCHBOARD_ROUTINE_RUNS',
    flag: { spec: '--routine-runs <n>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a whole number of runs from 1 to 100', 1, 100, { whole: true }),
    default: 4,
    description:
      'how many routine runs, of all routines together, may be gated, starting or running at once (each routine has its own cap too)',
  }),
  hookWaitSeconds: setting({
    variable: 'SWITCHBOARD_HOOK_WAIT_SECONDS',
    flag: { spec: '--hook-wait-seconds <s>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a whole number of seconds from 0 to 3600', 0, 3600, { whole: true }),
    default: 300,
    description:
      "the longest a terminal session's dialog waits for a remote answer, whatever decisionTimeout says, before it goes back to the terminal (the installed hooks' timeout is this and a margin)",
  }),
  presenceSeconds: setting({
    variable: 'SWITCHBOARD_PRESENCE_SECONDS',
    flag: { spec: '--presence-seconds <s>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a whole number of seconds from 0 to 86400', 0, 86_400, { whole: true }),
    default: 120,
    description:
      'a person who typed or answered at a terminal this recently is there: no notice goes to the phone',
  }),
  escalateSeconds: setting({
    variable: 'SWITCHBOARD_ESCALATE_SECONDS',
    flag: { spec: '--escalate-seconds <s>', on: ON_SERVE },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a whole number of seconds from 0 to 86400', 0, 86_400, { whole: true }),
    default: 300,
    description:
      'a terminal session left waiting this long is told to the operators even if its person was there (0: never)',
  }),
  decisionTimeout: setting({
    variable: 'SWITCHBOARD_DECISION_TIMEOUT',
    flag: { spec: '--decision-timeout <duration>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () => durationSchema(),
    default: 'off',
    description:
      "how long a prompt waits for an answer before decisionTimeoutOutcome happens (90s, 10m, 1h; off: no timeout of its own, a terminal's dialog still goes back at hookWaitSeconds)",
  }),
  decisionTimeoutOutcome: setting({
    variable: 'SWITCHBOARD_DECISION_TIMEOUT_OUTCOME',
    flag: { spec: '--decision-timeout-outcome <deny|terminal>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () =>
      z.enum(TIMEOUT_OUTCOMES, {
        error: (issue) => `${JSON.stringify(issue.input)} is not deny or terminal`,
      }),
    default: 'terminal' as TimeoutOutcome,
    description:
      "what a prompt's timeout does: deny the call (the model is told), or terminal: the dialog goes back to Claude Code's own prompt (a driven session has no terminal and waits on)",
  }),
  decisionWarning: setting({
    variable: 'SWITCHBOARD_DECISION_WARNING',
    flag: { spec: '--decision-warning <duration>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () => durationSchema(),
    default: '1m',
    description: "how long before a prompt's timeout its operators are warned, once (off: not warned)",
  }),
  pushContact: setting({
    variable: 'SWITCHBOARD_PUSH_CONTACT',
    flag: { spec: '--push-contact <address>', on: ON_SERVE },
    inFile: true,
    text: text.string,
    schema: () => z.string().refine(isPushContact, PUSH_CONTACT),
    default: 'mailto:switchboard@example.com',
    description:
      "the contact Web Push services are given with each push (VAPID's subject): they write there about a hub that misbehaves",
  }),
  listenGraceMs: setting({
    variable: 'SWITCHBOARD_LISTEN_GRACE_MS',
    flag: { spec: '--listen-grace-ms <ms>', on: ON_CHANNEL },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a whole number of milliseconds from 0 to 60000', 0, 60_000, { whole: true }),
    default: 1_000,
    description: "how long a channel's first delivery waits for Claude Code to finish setting it up",
  }),
  confirmMs: setting({
    variable: 'SWITCHBOARD_CONFIRM_MS',
    flag: { spec: '--confirm-ms <ms>', on: ON_CHANNEL },
    inFile: true,
    text: text.number,
    schema: () =>
      numberIn('a whole number of milliseconds from 100 to 600000', 100, 600_000, { whole: true }),
    default: 3_000,
    description:
      "how long a channel waits, once Claude Code has read an event it wrote, for it to show in Claude Code's transcript before it looks again and writes it once more if the transcript moved on without it (doubling each try; five times as long while the transcript is silent); the hub waits as long as all of a channel's tries would for an event a session's hook handed over",
  }),
  confirmTries: setting({
    variable: 'SWITCHBOARD_CONFIRM_TRIES',
    flag: { spec: '--confirm-tries <n>', on: ON_CHANNEL },
    inFile: true,
    text: text.number,
    schema: () => numberIn('a whole number from 1 to 20', 1, 20, { whole: true }),
    default: 5,
    description:
      "how many times a channel writes an event that does not reach Claude's context before it is unconfirmed and goes down the ladder (and, with confirmMs, how long the hub waits for one a hook handed over)",
  }),
  delivery: setting({
    variable: 'SWITCHBOARD_DELIVERY',
    flag: { spec: '--delivery <rung>', on: ON_CHANNEL },
    inFile: true,
    text: text.string,
    schema: () =>
      z.enum(['channel', 'message'], {
        error: (issue) => `${JSON.stringify(issue.input)} is not channel or message`,
      }),
    default: null,
    defaultText: 'chosen from the client and how Claude Code was started',
    description: 'how a channel delivers: channel notifications, or notifications/message and its inbox',
  }),
  channelName: setting({
    variable: 'SWITCHBOARD_CHANNEL_NAME',
    flag: { spec: '--name <name>', on: ['channel', 'hook'] },
    inFile: false,
    why: PER_SESSION,
    text: text.string,
    schema: () => subscriberNameSchema,
    default: null,
    defaultText: "the working folder's name",
    description: "a channel's subscriber name (a plugin's .mcp.json cannot take per-project flags)",
  }),
  channelAliases: setting({
    variable: 'SWITCHBOARD_CHANNEL_ALIASES',
    flag: { spec: '--aliases <list>', on: ON_CHANNEL },
    inFile: false,
    why: PER_SESSION,
    text: text.list,
    schema: () => listOf(subscriberNameSchema),
    default: [] as string[],
    description: 'other names peers may send to a channel by',
  }),
}

export type SettingName = keyof typeof SETTINGS
export type Settings = {
  [K in SettingName]: (typeof SETTINGS)[K]['default'] | z.output<(typeof SETTINGS)[K]['schema']>
}
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[]
