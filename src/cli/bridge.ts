// `switchboard bridge`: the chat platforms the hub bridges (add, list, remove, groups, settings).
// Settings live in <home>/bridges.json (0600); a running hub picks a change up within seconds.
import type { Command } from 'commander'
import { z } from 'zod'
import {
  BRIDGE_PLATFORMS,
  type BridgeConfig,
  type BridgePlatform,
  bridgeConfigSchema,
  readBridges,
  writeBridges,
} from '../core/bridges.js'
import { ensureHome } from '../core/config.js'
import { UserError } from '../core/errors.js'
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
  botToken?: string
  appToken?: string
  apiRoot?: string
  api?: string
  apiUrl?: string
  policy?: string
}

/** Settings checked whole: a bad one is named with the setting it is in. */
function checked(value: unknown, what: string): BridgeConfig {
  const parsed = bridgeConfigSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new UserError(`${what}: ${issue?.path.join('.') || 'settings'}: ${issue?.message ?? 'invalid'}`)
}

/** The bridge's settings from `bridge add`'s flags, with the flag each platform's docs use. */
function configFromFlags(platform: BridgePlatform, opts: AddOptions): BridgeConfig {
  const token = platform === 'slack' ? opts.botToken : opts.token
  if (!token)
    throw new UserError(
      platform === 'slack'
        ? 'slack needs --bot-token <xoxb-…> and --app-token <xapp-…>'
        : `${platform} needs --token <bot token>`,
    )
  if (platform === 'slack' && !opts.appToken)
    throw new UserError('slack needs --app-token <xapp-…> for Socket Mode')
  if (platform === 'telegram' && !/^\d+:[A-Za-z0-9_-]+$/.test(token))
    throw new UserError('--token: a Telegram bot token looks like 123456:ABC-def… (from @BotFather)')
  const apiFlag = {
    telegram: ['--api-root', opts.apiRoot],
    discord: ['--api', opts.api],
    slack: ['--api-url', opts.apiUrl],
  }[platform]
  const apiUrl = apiFlag[1] === undefined ? undefined : check(urlSchema, apiFlag[1], apiFlag[0] as string)
  return checked(
    {
      token,
      ...(platform === 'slack' ? { appToken: opts.appToken } : {}),
      ...(apiUrl ? { apiUrl: platform === 'telegram' ? apiUrl.replace(/\/+$/, '') : apiUrl } : {}),
      ...(opts.policy ? { policy: opts.policy } : {}),
      addedAt: Date.now(),
    },
    'bridge settings',
  )
}

/** The hub's view of its bridges, when one runs; the file alone otherwise. */
async function runningStatus(command: Command): Promise<BridgeStatus[] | null> {
  try {
    return (await hubApi(command, 'cli', false).hubStatus()).bridges
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
    .description('bridge a platform: telegram --token; discord --token; slack --bot-token --app-token')
    .option('--token <token>', 'the bot token (Telegram, Discord)')
    .option('--bot-token <token>', 'Slack: the bot token (xoxb-…)')
    .option('--app-token <token>', 'Slack: the app-level token for Socket Mode (xapp-…)')
    .option('--api-root <url>', 'Telegram: another Bot API server (self-hosted, a proxy, a test)')
    .option('--api <url>', 'Discord: another REST API root, e.g. http://127.0.0.1:8080/api')
    .option('--api-url <url>', 'Slack: another Web API URL, e.g. http://127.0.0.1:8080/api/')
    .option('--policy <policy>', 'who may write in: pairing (default), allowlist, disabled')
    .action((platformArg: string, opts: AddOptions, command: Command) => {
      const platform = check(platformSchema, platformArg, 'platform')
      const config = configFrom(command)
      ensureHome(config.home)
      const bridges = readBridges(config.home)
      const replacing = bridges[platform] !== undefined
      bridges[platform] = configFromFlags(platform, opts)
      writeBridges(config.home, bridges)
      process.stdout.write(
        `${platform} bridge ${replacing ? 'updated' : 'added'}; the hub connects within a few seconds (see: switchboard bridge list).\n` +
          'Strangers who write to the bot get a pairing code; approve it with: switchboard pair <code> [--operator]\n',
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
      const platform = check(platformSchema, platformArg, 'platform')
      const { home } = configFrom(command)
      const bridges = readBridges(home)
      if (!bridges[platform]) throw new UserError(`no ${platform} bridge (see: switchboard bridge list)`)
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
        const platform = check(platformSchema, platformArg, 'platform')
        const { home } = configFrom(command)
        const bridges = readBridges(home)
        const current = bridges[platform]
        if (!current) throw new UserError(`no ${platform} bridge (see: switchboard bridge list)`)
        const { ackReaction: _, ...rest } = current
        bridges[platform] = checked(
          {
            ...(opts.ackReaction === '' ? rest : current),
            ...(opts.policy ? { policy: opts.policy } : {}),
            ...(opts.ackReaction ? { ackReaction: opts.ackReaction } : {}),
            ...(opts.chunkMode ? { chunkMode: opts.chunkMode } : {}),
            ...(opts.chunkLimit ? { textChunkLimit: Number(opts.chunkLimit) } : {}),
          },
          `${platform} settings`,
        )
        writeBridges(home, bridges)
        process.stdout.write(`${platform} bridge updated\n`)
      },
    )

  const group = bridge.command('group').description('groups and channels the bot answers in')
  group
    .command('add <platform> <chat-id>')
    .description('answer in a group or channel (by default only when the bot is mentioned)')
    .option('--no-mention', 'answer every message there, mentioned or not')
    .action((platformArg: string, chatId: string, opts: { mention: boolean }, command: Command) => {
      const platform = check(platformSchema, platformArg, 'platform')
      const { home } = configFrom(command)
      const bridges = readBridges(home)
      const current = bridges[platform]
      if (!current) throw new UserError(`no ${platform} bridge (see: switchboard bridge list)`)
      const groups = current.groups.filter((g) => g.id !== chatId)
      groups.push({ id: chatId, requireMention: opts.mention })
      bridges[platform] = checked({ ...current, groups }, 'group')
      writeBridges(home, bridges)
      process.stdout.write(
        `${platform} group ${chatId} added${opts.mention ? ' (answers when mentioned)' : ''}\n`,
      )
    })
  group
    .command('remove <platform> <chat-id>')
    .description('stop answering in a group or channel')
    .action((platformArg: string, chatId: string, _opts: unknown, command: Command) => {
      const platform = check(platformSchema, platformArg, 'platform')
      const { home } = configFrom(command)
      const bridges = readBridges(home)
      const current = bridges[platform]
      if (!current?.groups.some((g) => g.id === chatId))
        throw new UserError(`${platform} has no group ${chatId}`)
      bridges[platform] = { ...current, groups: current.groups.filter((g) => g.id !== chatId) }
      writeBridges(home, bridges)
      process.stdout.write(`${platform} group ${chatId} removed\n`)
    })
}
