// `switchboard bridge`: the chat platforms the hub bridges (add, list, remove, groups, settings).
// Settings live in <home>/bridges.json (0600); a running hub picks a change up within seconds.
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import * as z from 'zod'
import {
  BRIDGE_PLATFORMS,
  type BridgeConfig,
  type BridgePlatform,
  bridgeConfigSchema,
  readBridges,
  TEXT_LIMITS,
  writeBridges,
} from '../core/bridges.js'
import { ensureHome } from '../core/config.js'
import { invalid } from '../core/errors.js'
import type { BridgeStatus } from '../core/hub-protocol.js'
import { check, configFrom, hubApi } from './options.js'
import { printJson } from './output.js'

const platformSchema = z.enum(BRIDGE_PLATFORMS, {
  error: `the platform is one of ${BRIDGE_PLATFORMS.join(', ')}`,
})
const urlSchema = z
  .url({ error: 'must be an http(s) URL' })
  .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL')

interface AddOptions {
  token?: string
  tokenFile?: string
  botToken?: string
  botTokenFile?: string
  appToken?: string
  appTokenFile?: string
  apiRoot?: string
  api?: string
  apiUrl?: string
  policy?: string
}

/** A token `bridge add` takes: its flag, the flag naming a file that holds it, its variable. */
interface TokenSource {
  flag: 'token' | 'botToken' | 'appToken'
  file: 'tokenFile' | 'botTokenFile' | 'appTokenFile'
  variable: string
}

const TOKENS_OF: Record<BridgePlatform, { bot: TokenSource; app?: TokenSource }> = {
  telegram: { bot: { flag: 'token', file: 'tokenFile', variable: 'SWITCHBOARD_TELEGRAM_TOKEN' } },
  discord: { bot: { flag: 'token', file: 'tokenFile', variable: 'SWITCHBOARD_DISCORD_TOKEN' } },
  slack: {
    bot: { flag: 'botToken', file: 'botTokenFile', variable: 'SWITCHBOARD_SLACK_BOT_TOKEN' },
    app: { flag: 'appToken', file: 'appTokenFile', variable: 'SWITCHBOARD_SLACK_APP_TOKEN' },
  },
}

/** The flag that sets each setting, so an error names what the person typed. */
const FLAG_OF: Record<string, string> = {
  policy: '--policy',
  textChunkLimit: '--chunk-limit',
  chunkMode: '--chunk-mode',
  ackReaction: '--ack-reaction',
  groups: 'group',
}

/** Settings checked whole: a bad one is named by its flag. */
function checked(value: unknown): BridgeConfig {
  const parsed = bridgeConfigSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const key = String(issue?.path[0] ?? '')
  const message =
    issue?.code === 'invalid_value' ? `must be one of ${issue.values.join(', ')}` : issue?.message
  throw invalid(`${FLAG_OF[key] ?? key}: ${message ?? 'invalid'}`)
}

/** The ids of groups and channels as each platform writes them. */
const GROUP_ID: Record<BridgePlatform, { pattern: RegExp; example: string }> = {
  telegram: { pattern: /^-\d+$/, example: '-1001234567890 (groups are negative)' },
  discord: { pattern: /^\d{15,25}$/, example: 'a channel snowflake such as 123456789012345678' },
  slack: { pattern: /^[CG][A-Z0-9]{6,}$/, example: 'a channel id such as C0123456789' },
}

/** The API flag of each platform, named as its docs name the thing. */
const API_FLAG: Record<BridgePlatform, keyof AddOptions> = {
  telegram: 'apiRoot',
  discord: 'api',
  slack: 'apiUrl',
}
const FLAG_NAME: Record<string, string> = {
  token: '--token',
  tokenFile: '--token-file',
  botToken: '--bot-token',
  botTokenFile: '--bot-token-file',
  appToken: '--app-token',
  appTokenFile: '--app-token-file',
  apiRoot: '--api-root',
  api: '--api',
  apiUrl: '--api-url',
}
const FLAGS_OF: Record<BridgePlatform, (keyof AddOptions)[]> = {
  telegram: ['token', 'tokenFile', 'apiRoot', 'policy'],
  discord: ['token', 'tokenFile', 'api', 'policy'],
  slack: ['botToken', 'botTokenFile', 'appToken', 'appTokenFile', 'apiUrl', 'policy'],
}

/**
 * A token from where the person put it: a file (`--token-file`), stdin (`--token -`), the
 * environment, or the command line itself, which other local users can read (ps, /proc/<pid>/cmdline)
 * and the shell's history keeps: still taken, noted in `onArgv` for a warning.
 */
async function readToken(
  source: TokenSource,
  opts: AddOptions,
  stdin: () => Promise<string>,
  onArgv: TokenSource[],
): Promise<string | undefined> {
  const given = opts[source.flag]
  const file = opts[source.file]
  const flag = FLAG_NAME[source.flag] as string
  const fileFlag = FLAG_NAME[source.file] as string
  if (given !== undefined && file !== undefined) throw invalid(`give ${flag} or ${fileFlag}, not both`)
  if (file !== undefined) {
    let read: string
    try {
      read = readFileSync(file, 'utf8').trim()
    } catch (err) {
      throw invalid(
        `${fileFlag} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      )
    }
    if (!read) throw invalid(`${fileFlag} ${file}: the file is empty`)
    return read
  }
  if (given === '-') {
    const read = (await stdin()).trim()
    if (!read) throw invalid(`${flag} -: stdin gave no token`)
    return read
  }
  if (given !== undefined) {
    onArgv.push(source)
    return given
  }
  return process.env[source.variable]?.trim() || undefined
}

/** All of stdin, read once: only one token may come from it. */
function stdinOnce(): () => Promise<string> {
  let taken = false
  return async () => {
    if (taken) throw invalid('only one token can be read from stdin; give the other in a file')
    taken = true
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
}

/**
 * The bridge's settings from `bridge add`'s flags, with the flag each platform's docs use. A bridge
 * added again (a new token) keeps who may write in and its groups: only how it connects changes.
 */
async function configFromFlags(
  platform: BridgePlatform,
  opts: AddOptions,
  current: BridgeConfig | undefined,
  onArgv: TokenSource[],
): Promise<BridgeConfig> {
  const foreign = (Object.keys(opts) as (keyof AddOptions)[]).find(
    (k) => opts[k] !== undefined && !FLAGS_OF[platform].includes(k),
  )
  if (foreign)
    throw invalid(
      `${FLAG_NAME[foreign] ?? foreign} is not a ${platform} option; ${platform} takes ${FLAGS_OF[platform]
        .map((k) => FLAG_NAME[k] ?? `--${k}`)
        .join(', ')}`,
    )
  const stdin = stdinOnce()
  const sources = TOKENS_OF[platform]
  const token = await readToken(sources.bot, opts, stdin, onArgv)
  const appToken = sources.app ? await readToken(sources.app, opts, stdin, onArgv) : undefined
  if (!token)
    throw invalid(
      platform === 'slack'
        ? 'slack needs --bot-token <xoxb-…> and --app-token <xapp-…> (or their -file flags, or SWITCHBOARD_SLACK_BOT_TOKEN and SWITCHBOARD_SLACK_APP_TOKEN)'
        : `${platform} needs --token <bot token> (or --token-file, --token - for stdin, or ${sources.bot.variable})`,
    )
  if (platform === 'slack' && !appToken)
    throw invalid(
      'slack needs --app-token <xapp-…> for Socket Mode (or --app-token-file, or SWITCHBOARD_SLACK_APP_TOKEN)',
    )
  if (platform === 'telegram' && !/^\d+:[A-Za-z0-9_-]+$/.test(token))
    throw invalid('--token: a Telegram bot token looks like 123456:ABC-def… (from @BotFather)')
  if (platform === 'slack' && !token.startsWith('xoxb-'))
    throw invalid('--bot-token: a Slack bot token starts with xoxb- (OAuth & Permissions)')
  if (platform === 'slack' && !appToken?.startsWith('xapp-'))
    throw invalid('--app-token: a Slack app-level token starts with xapp- (Basic Information)')
  const flag = API_FLAG[platform]
  const raw = opts[flag]
  const apiUrl = raw === undefined ? undefined : check(urlSchema, raw, FLAG_NAME[flag] as string)
  const { token: _t, appToken: _a, apiUrl: _u, ...kept } = current ?? { addedAt: Date.now() }
  return checked({
    ...kept,
    token,
    ...(platform === 'slack' ? { appToken } : {}),
    ...(apiUrl ? { apiUrl: platform === 'telegram' ? apiUrl.replace(/\/+$/, '') : apiUrl } : {}),
    ...(opts.policy ? { policy: opts.policy } : {}),
  })
}

function platformOf(arg: string): BridgePlatform {
  return check(platformSchema, arg.toLowerCase(), 'platform')
}

function bridgeOf(home: string, platform: BridgePlatform) {
  const bridges = readBridges(home)
  const current = bridges[platform]
  if (!current) throw invalid(`no ${platform} bridge (see: switchboard bridge list)`)
  return { bridges, current }
}

/** The hub's view of its bridges, when one runs; the file alone otherwise. */
async function runningStatus(command: Command): Promise<BridgeStatus[] | null> {
  try {
    return (await hubApi(command, 'cli', false).call('status')).bridges
  } catch {
    return null
  }
}

export function registerBridge(program: Command): void {
  const bridge = program
    .command('bridge')
    .description('chat platforms (Telegram, Discord, Slack): one bot for every session')

  bridge
    .command('add <platform>')
    .description(
      'bridge a platform: telegram --token; discord --token; slack --bot-token --app-token (each also from a file, stdin or a variable)',
    )
    .option('--token <token>', 'the bot token (Telegram, Discord); - reads it from stdin')
    .option('--token-file <path>', 'read the bot token from a file (Telegram, Discord)')
    .option('--bot-token <token>', 'Slack: the bot token (xoxb-…); - reads it from stdin')
    .option('--bot-token-file <path>', 'Slack: read the bot token from a file')
    .option('--app-token <token>', 'Slack: the app-level token for Socket Mode (xapp-…); - reads stdin')
    .option('--app-token-file <path>', 'Slack: read the app-level token from a file')
    .option('--api-root <url>', 'Telegram: another Bot API server (self-hosted, a proxy, a test)')
    .option('--api <url>', 'Discord: another REST API root, e.g. http://127.0.0.1:8080/api')
    .option('--api-url <url>', 'Slack: another Web API URL, e.g. http://127.0.0.1:8080/api/')
    .option('--policy <policy>', 'who may write in: pairing (default), allowlist, disabled')
    .action(async (platformArg: string, opts: AddOptions, command: Command) => {
      const platform = platformOf(platformArg)
      const config = configFrom(command)
      ensureHome(config.home)
      const bridges = readBridges(config.home)
      const current = bridges[platform]
      const onArgv: TokenSource[] = []
      const updated = await configFromFlags(platform, opts, current, onArgv)
      bridges[platform] = updated
      writeBridges(config.home, bridges)
      // Said once the bridge is stored: one line, whichever tokens came on the command line.
      if (onArgv.length)
        process.stderr.write(
          `switchboard: ${onArgv.map((t) => FLAG_NAME[t.flag]).join(' and ')} on the command line: other users of this machine can read it there (ps, /proc) and your shell history keeps it; next time use ${onArgv.map((t) => `${FLAG_NAME[t.file]}, ${FLAG_NAME[t.flag]} - (stdin) or ${t.variable}`).join('; ')}\n`,
        )
      process.stdout.write(
        `${platform} bridge ${current ? 'updated (policy, groups and settings kept)' : 'added'}; the hub connects within a few seconds (see: switchboard bridge list).\n` +
          (updated.policy === 'pairing'
            ? 'Strangers who write to the bot get a pairing code; approve it with: switchboard pair <code> [--operator]\n'
            : `Policy ${updated.policy}: strangers get no pairing code.\n`),
      )
    })

  bridge
    .command('list')
    .description('the bridges, and how each is doing when the hub runs')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const bridges = readBridges(configFrom(command).home)
      const running = await runningStatus(command)
      const rows = (Object.entries(bridges) as [BridgePlatform, BridgeConfig][]).map(([platform, c]) => {
        const live = running?.find((b) => b.platform === platform)
        return {
          platform,
          policy: c.policy,
          groups: c.groups,
          apiUrl: c.apiUrl ?? null,
          state: live?.state ?? (running ? 'starting' : 'hub not running'),
          bot: live?.bot ?? null,
          lastError: live?.lastError ?? null,
          queued: live?.queued ?? 0,
        }
      })
      if (opts.json) return printJson(rows)
      if (rows.length === 0)
        process.stdout.write('no bridges (switchboard bridge add telegram --token <token>)\n')
      for (const r of rows)
        process.stdout.write(
          `${r.platform}\t${r.state}${r.bot ? ` as ${r.bot}` : ''}\tpolicy ${r.policy}\t${r.groups.length} group(s)` +
            `${r.queued ? `\t${r.queued} waiting` : ''}${r.lastError ? `\tlast error: ${r.lastError}` : ''}\n`,
        )
    })

  bridge
    .command('remove <platform>')
    .description('stop bridging a platform and forget its token')
    .action((platformArg: string, _opts: unknown, command: Command) => {
      const platform = platformOf(platformArg)
      const { home } = configFrom(command)
      const { bridges } = bridgeOf(home, platform)
      delete bridges[platform]
      writeBridges(home, bridges)
      process.stdout.write(`${platform} bridge removed\n`)
    })

  bridge
    .command('set <platform>')
    .description('change a bridge: --policy, --ack-reaction, --chunk-mode, --chunk-limit')
    .option('--policy <policy>', 'pairing, allowlist or disabled')
    .option('--ack-reaction <emoji>', 'react to each message taken with this emoji ("" for none)')
    .option('--chunk-mode <mode>', 'length or newline: where long replies are cut')
    .option('--chunk-limit <n>', 'characters per message, at most the platform’s limit')
    .action(
      (
        platformArg: string,
        opts: { policy?: string; ackReaction?: string; chunkMode?: string; chunkLimit?: string },
        command: Command,
      ) => {
        const platform = platformOf(platformArg)
        if (Object.values(opts).every((v) => v === undefined))
          throw invalid('nothing to change: give --policy, --ack-reaction, --chunk-mode or --chunk-limit')
        const { home } = configFrom(command)
        const { bridges, current } = bridgeOf(home, platform)
        let textChunkLimit: number | undefined
        if (opts.chunkLimit !== undefined) {
          textChunkLimit = Number(opts.chunkLimit)
          const most = TEXT_LIMITS[platform]
          if (!Number.isInteger(textChunkLimit) || textChunkLimit < 100 || textChunkLimit > most)
            throw invalid(`--chunk-limit: a whole number from 100 to ${most} (${platform}'s limit)`)
        }
        const { ackReaction: _, ...withoutReaction } = current
        bridges[platform] = checked({
          ...(opts.ackReaction === '' ? withoutReaction : current),
          ...(opts.policy ? { policy: opts.policy } : {}),
          ...(opts.ackReaction ? { ackReaction: opts.ackReaction } : {}),
          ...(opts.chunkMode ? { chunkMode: opts.chunkMode } : {}),
          ...(textChunkLimit ? { textChunkLimit } : {}),
        })
        writeBridges(home, bridges)
        process.stdout.write(`${platform} bridge updated\n`)
      },
    )

  const group = bridge.command('group').description('groups and channels the bot answers in')
  group
    .command('add <platform> <chat-id>')
    .description('answer in a group or channel (by default only when the bot is mentioned)')
    .option('--no-mention', 'answer every message there, mentioned or not')
    .option(
      '--topics',
      'a thread per session here (Telegram: a forum topic): its replies, prompts and notices go there',
    )
    .action(
      (
        platformArg: string,
        chatId: string,
        opts: { mention: boolean; topics?: boolean },
        command: Command,
      ) => {
        const platform = platformOf(platformArg)
        const { pattern, example } = GROUP_ID[platform]
        if (!pattern.test(chatId)) throw invalid(`chat id "${chatId}": a ${platform} group is ${example}`)
        const { home } = configFrom(command)
        const { bridges, current } = bridgeOf(home, platform)
        const again = current.groups.some((g) => g.id === chatId)
        const topics = opts.topics === true
        const groups = [
          ...current.groups.filter((g) => g.id !== chatId),
          { id: chatId, requireMention: opts.mention, topics },
        ]
        bridges[platform] = checked({ ...current, groups })
        writeBridges(home, bridges)
        const answers = opts.mention ? 'when the bot is mentioned or replied to' : 'every message'
        process.stdout.write(
          `${platform} group ${chatId} ${again ? 'updated' : 'added'}: answers ${answers}` +
            `${topics ? '; a thread per session, where no mention is needed' : ''}\n`,
        )
      },
    )
  group
    .command('list [platform]')
    .description('the groups and channels each bridge answers in')
    .option('--json', 'JSON, for scripts')
    .action((platformArg: string | undefined, opts: { json?: boolean }, command: Command) => {
      const only = platformArg === undefined ? undefined : platformOf(platformArg)
      const bridges = readBridges(configFrom(command).home)
      const rows = (Object.entries(bridges) as [BridgePlatform, BridgeConfig][])
        .filter(([platform]) => only === undefined || platform === only)
        .flatMap(([platform, c]) =>
          c.groups.map((g) => ({ platform, id: g.id, requireMention: g.requireMention, topics: g.topics })),
        )
      if (opts.json) return printJson(rows)
      if (rows.length === 0)
        process.stdout.write('no groups (switchboard bridge group add <platform> <chat id>)\n')
      for (const r of rows)
        process.stdout.write(
          `${r.platform}\t${r.id}\t${r.requireMention ? 'when mentioned' : 'every message'}${r.topics ? '\ta thread per session' : ''}\n`,
        )
    })
  group
    .command('remove <platform> <chat-id>')
    .description('stop answering in a group or channel')
    .action((platformArg: string, chatId: string, _opts: unknown, command: Command) => {
      const platform = platformOf(platformArg)
      const { home } = configFrom(command)
      const { bridges, current } = bridgeOf(home, platform)
      if (!current.groups.some((g) => g.id === chatId))
        throw invalid(`${platform} has no group ${chatId} (see: switchboard bridge group list)`)
      bridges[platform] = { ...current, groups: current.groups.filter((g) => g.id !== chatId) }
      writeBridges(home, bridges)
      process.stdout.write(`${platform} group ${chatId} removed\n`)
    })
}
