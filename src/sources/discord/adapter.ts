// The Discord bridge's PlatformAdapter: discord.js's Client on the gateway for messages and button
// presses, its REST for everything the bot sends. discord.js keeps the gateway up by itself; here its
// outages are reported once, its REST fails fast instead of retrying, and stop() leaves no socket behind.
import {
  type ButtonInteraction,
  Client,
  Events,
  GatewayIntentBits,
  type Interaction,
  type Message,
  MessageFlags,
  Partials,
} from 'discord.js'
import { TEXT_LIMITS } from '../../core/bridges.js'
import type { Logger } from '../../core/log.js'
import {
  type BotIdentity,
  type PlatformAdapter,
  type PlatformCredentials,
  PlatformError,
  type PlatformHandlers,
} from '../chat/platform.js'
import { call, isTokenRefused, TOKEN_REFUSED, toPlatformError } from './errors.js'
import { formatForDiscord } from './format.js'
import { stoppableShards } from './gateway.js'
import { toInbound, toPress } from './inbound.js'
import { download, editMessage, history, react, sendMessage, typing } from './outbound.js'
import { discordThreads } from './threads.js'

/** Discord lets a bot answer an interaction for 15 minutes; older presses cannot be answered. */
const PRESS_TTL_MS = 15 * 60 * 1000
/** Discord cuts an interaction reply at 2000 characters. */
const NOTICE_MAX = 2000

export function createDiscordAdapter(credentials: PlatformCredentials, log: Logger): PlatformAdapter {
  let handlers: PlatformHandlers | null = null
  // Set by stop() or a failed start: the gateway must not reconnect behind our back after that.
  let finished = false
  let stopped = false
  let up = false
  let cancelStart: ((error: Error) => void) | null = null
  const presses = new Map<string, { interaction: ButtonInteraction; at: number }>()

  const client = new Client({
    intents: [
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
    ],
    // DM channels come as partials: without this, no messageCreate fires for a DM.
    partials: [Partials.Channel],
    rest: {
      ...(credentials.apiUrl ? { api: credentials.apiUrl.replace(/\/+$/, '') } : {}),
      // By default REST retries 5xx and waits out every 429 itself, for minutes; the hub decides instead.
      retries: 0,
      rejectOnRateLimit: () => true,
      // Retry-After as Discord gave it, without discord.js's safety margin added.
      offset: 0,
    },
    ws: { buildStrategy: stoppableShards(() => finished) },
  })
  const rest = client.rest

  function markUp(): void {
    if (up || finished) return
    up = true
    log.info('Discord gateway connected')
    handlers?.connected()
  }

  /** One report per outage: discord.js retries every half second and would say so each time. */
  function markDown(error: Error): void {
    if (finished) return
    if (!up) {
      log.debug({ err: error }, 'Discord gateway still down')
      return
    }
    up = false
    log.warn({ err: error }, 'Discord gateway lost; discord.js reconnects')
    handlers?.failed(error instanceof PlatformError ? error : toPlatformError(error, 'gateway'))
  }

  client.on(Events.ShardReady, () => markUp())
  client.on(Events.ShardResume, () => markUp())
  client.on(Events.ShardReconnecting, () => markDown(new PlatformError('Discord gateway connection dropped')))
  client.on(Events.ShardError, (error) => markDown(error))
  client.on(Events.ShardDisconnect, (event) => {
    // A close discord.js gives up on (a revoked token, disallowed intents): only a new start helps.
    const error = new PlatformError(`Discord closed the gateway for good (code ${event.code})`, {
      permanent: true,
    })
    log.error({ code: event.code }, 'Discord gateway closed for good')
    if (!finished) {
      up = false
      handlers?.failed(error, true)
    }
  })
  // Without a listener an 'error' event would throw and end the process.
  client.on(Events.Error, (error) => {
    log.error({ err: error }, 'discord.js error')
    if (!finished) handlers?.failed(toPlatformError(error, 'client'))
  })
  client.on(Events.Warn, (message) => log.warn({ library: 'discord' }, message))
  client.on(Events.Debug, (message) => {
    if (log.isLevelEnabled('trace')) log.trace({ library: 'discord' }, message)
  })

  client.on(Events.MessageCreate, (message: Message) => {
    try {
      const me = client.user?.id
      const inbound = me ? toInbound(message, me) : null
      if (inbound) handlers?.message(inbound)
    } catch (error) {
      log.error({ err: error }, 'handling a Discord message failed')
    }
  })

  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (!interaction.isButton()) return
    try {
      const now = Date.now()
      for (const [id, held] of presses) if (now - held.at > PRESS_TTL_MS) presses.delete(id)
      presses.set(interaction.id, { interaction, at: now })
      handlers?.press(toPress(interaction))
    } catch (error) {
      log.error({ err: error }, 'handling a Discord button press failed')
    }
  })

  return {
    platform: 'discord',
    textLimit: TEXT_LIMITS.discord,

    async start(given: PlatformHandlers): Promise<BotIdentity> {
      if (handlers) throw new Error('the Discord adapter was already started')
      handlers = given
      const ready = new Promise<BotIdentity>((resolve, reject) => {
        cancelStart = reject
        client.once(Events.ClientReady, (ready) => resolve({ id: ready.user.id, name: ready.user.username }))
      })
      // login() settles when the shard is up, possibly before ClientReady: both are awaited.
      const login = client.login(credentials.token).then(
        () => undefined,
        (error: unknown) => {
          // login() destroyed the client; its shard must not reconnect after that.
          finished = true
          if (isTokenRefused(error)) throw new PlatformError(TOKEN_REFUSED, { permanent: true })
          throw toPlatformError(error, 'login')
        },
      )
      try {
        const [me] = await Promise.all([ready, login])
        if (finished) throw new PlatformError('stopped before Discord answered')
        log.info({ bot: me.name }, 'Discord bot ready')
        markUp()
        return me
      } catch (error) {
        cancelStart?.(error as Error)
        throw error
      } finally {
        cancelStart = null
      }
    },

    async stop(): Promise<void> {
      if (stopped) return
      stopped = true
      finished = true
      cancelStart?.(new PlatformError('stopped before Discord answered'))
      presses.clear()
      await client.destroy()
    },

    format: formatForDiscord,
    send: (chatId, message) => sendMessage(rest, chatId, message),
    edit: (chatId, messageId, text, buttons, markup) =>
      editMessage(rest, chatId, messageId, markup ?? text, buttons),
    react: (chatId, messageId, emoji) => react(rest, chatId, messageId, emoji),
    typing: (chatId, thread) => typing(rest, thread ?? chatId),
    threads: discordThreads(rest),

    async answerPress(press, notice) {
      const held = presses.get(press.pressId)
      if (!held)
        throw new PlatformError('this button press is unknown or too old to answer', { permanent: true })
      presses.delete(press.pressId)
      const { interaction } = held
      await call('answerPress', () =>
        notice
          ? interaction.reply({ content: notice.slice(0, NOTICE_MAX), flags: MessageFlags.Ephemeral })
          : interaction.deferUpdate(),
      )
    },

    async dmChat(userId) {
      const channel = await call('dmChat', () => client.users.createDM(userId))
      return channel.id
    },

    download: (attachment, toFolder) => download(attachment, toFolder),
    // A thread is a channel of its own: its messages are read there.
    history: (chatId, limit, thread) => history(rest, thread ?? chatId, limit),
  }
}
