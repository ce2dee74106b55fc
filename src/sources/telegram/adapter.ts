// The Telegram bridge's PlatformAdapter: grammy's Bot with long polling. start() resolves once a
// getUpdates has come back (so a refused token or a second poller rejects it), polling failures
// later are reported and left to grammy's retries, and stop() leaves no socket behind. A poll is
// given a deadline of its own: on a link that hangs rather than refuses (a network split), nothing
// else would say Telegram is out of reach before the client's minute-long timeout.
import { Bot } from 'grammy'
import type { UserFromGetMe } from 'grammy/types'
import { TEXT_LIMITS } from '../../core/bridges.js'
import type { Logger } from '../../core/log.js'
import {
  type BotIdentity,
  type PlatformAdapter,
  type PlatformCredentials,
  PlatformError,
  type PlatformHandlers,
} from '../chat/platform.js'
import { download } from './download.js'
import { toPlatformError } from './errors.js'
import { formatForTelegram } from './format.js'
import { toInbound, toPress } from './inbound.js'
import { answerPress, call, editMessage, messageIdOf, react, sendMessage } from './outbound.js'
import { resettableAgent } from './resettable-agent.js'
import { telegramThreads } from './threads.js'

const DEFAULT_API_ROOT = 'https://api.telegram.org'
/** The requests grammy polls with; everything else is the hub's own calls. */
const POLLING_METHODS = new Set(['getMe', 'deleteWebhook', 'getUpdates'])
/** bot.stop() sends one last getUpdates to save the offset; a dead server must not hold stop() up. */
const STOP_GRACE_MS = 5_000

/**
 * How long a poll waits for updates, and how long past that its answer may take before the poll is
 * given up as failed, for a bridge that hands itself over after `platformLostMs` unanswered (the
 * setting): a quarter of it each, so that a link that hangs is reported well within it. Telegram's
 * own wait is at most 30 s; at least a second, or an idle bot would poll without pause.
 */
export function pollTimes(platformLostMs: number): { waitSeconds: number; deadlineMs: number } {
  const waitSeconds = Math.min(30, Math.max(1, Math.floor(platformLostMs / 4000)))
  return { waitSeconds, deadlineMs: waitSeconds * 1000 + Math.floor(platformLostMs / 4) }
}

/** grammy retries these by itself; anything else ends start() or polling and is reported there. */
function retried(method: string, code: number): boolean {
  if (method === 'getUpdates') return code !== 401 && code !== 409
  return code >= 500 || code === 429
}

export function createTelegramAdapter(
  credentials: PlatformCredentials,
  log: Logger,
  platformLostMs = 60_000,
): PlatformAdapter {
  const poll = pollTimes(platformLostMs)
  /** grammy's errors carry the request URL, which holds the token: logs get the message without it. */
  const redact = (error: unknown): string =>
    String(error instanceof Error ? error.message : error).replaceAll(credentials.token, '<token>')

  const apiRoot = (credentials.apiUrl ?? DEFAULT_API_ROOT).replace(/\/+$/, '')
  // An agent of our own (grammy shares one per API root): stop() can then reset every socket it opened.
  const connections = resettableAgent(apiRoot.startsWith('https:'))
  const agent = connections.agent
  const bot = new Bot(credentials.token, {
    // Long polls wait 30 s; any call hanging past a minute is given up, so stop() and sends never hang.
    client: { apiRoot, baseFetchConfig: { agent }, timeoutSeconds: 60 },
  })
  const api = bot.api

  let handlers: PlatformHandlers | null = null
  let started: ((me: UserFromGetMe) => void) | null = null
  let connected = false
  let failing = false
  let stopping = false
  // The first poll, and the first after a failure, asks for no wait: its answer proves polling works.
  let quickPoll = true
  const initAbort = new AbortController()
  let stopped: Promise<void> | null = null

  function polled(): void {
    quickPoll = false
    failing = false
    if (connected) return
    connected = true
    log.info({ bot: bot.botInfo.username }, 'Telegram polling works')
    handlers?.connected()
    started?.(bot.botInfo)
    started = null
  }

  function pollFailed(method: string, error: PlatformError): void {
    quickPoll = true
    connected = false
    if (failing) {
      log.debug({ err: error }, 'Telegram polling still failing')
      return
    }
    failing = true
    log.warn({ err: error, method }, 'Telegram polling failed; grammy retries it')
    handlers?.failed(error)
  }

  async function stopPolling(): Promise<void> {
    stopping = true
    initAbort.abort()
    const lastPoll = bot
      .stop()
      .catch((error: unknown) => log.debug({ err: redact(error) }, 'Telegram stop: last poll failed'))
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_GRACE_MS)
      timer.unref()
    })
    await Promise.race([lastPoll, grace])
    clearTimeout(timer)
    connections.reset()
  }

  bot.api.config.use(async (prev, method, payload, signal) => {
    if (!POLLING_METHODS.has(method)) return prev(method, payload, signal)
    const sent = method === 'getUpdates' && quickPoll ? { ...payload, timeout: 0 } : payload
    // A poll not answered by its deadline is aborted, and fails as a refused one does.
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(), poll.deadlineMs)
    const stop = () => deadline.abort()
    if (signal?.aborted) stop()
    else signal?.addEventListener('abort', stop)
    try {
      const response = await prev(method, sent, deadline.signal as typeof signal)
      if (response.ok) {
        if (method === 'getUpdates' && !stopping) polled()
      } else if (!stopping && retried(method, response.error_code)) {
        pollFailed(
          method,
          new PlatformError(`Telegram ${method}: ${response.description} (${response.error_code})`),
        )
      }
      return response
    } catch (error) {
      if (!stopping) pollFailed(method, toPlatformError(error, method))
      throw error
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', stop)
    }
  })

  bot.on('message', (ctx) => {
    const message = toInbound(ctx.message, ctx.me)
    if (message) handlers?.message(message)
  })
  bot.on('callback_query:data', (ctx) => {
    const press = toPress(ctx.callbackQuery)
    if (press) handlers?.press(press)
  })
  // Without a handler grammy rethrows a middleware error and polling ends.
  bot.catch((error) => log.error({ err: redact(error.error) }, 'handling a Telegram update failed'))

  return {
    platform: 'telegram',
    textLimit: TEXT_LIMITS.telegram,

    async start(given: PlatformHandlers): Promise<BotIdentity> {
      handlers = given
      try {
        // Our own init, so that stop() can cancel grammy's endless getMe retries while Telegram is down.
        // grammy types its signal with the abort-controller shim; node-fetch takes the built-in one.
        await bot.init(initAbort.signal as Parameters<typeof bot.init>[0])
      } catch (error) {
        throw stopping
          ? new PlatformError('stopped before Telegram answered')
          : toPlatformError(error, 'getMe')
      }
      if (stopping) throw new PlatformError('stopped before Telegram answered')
      const me = await new Promise<UserFromGetMe>((resolve, reject) => {
        started = resolve
        bot
          .start({ allowed_updates: ['message', 'callback_query'], timeout: poll.waitSeconds })
          .then(() => {
            if (started) reject(new PlatformError('stopped before Telegram polling worked'))
            log.info('Telegram polling stopped')
          })
          .catch((error: unknown) => {
            const failure = toPlatformError(error, 'getUpdates')
            connected = false
            if (started) return reject(failure)
            if (stopping) return
            // 401 or 409 after start: grammy gives up polling; the hub decides what to do.
            log.error({ err: failure }, 'Telegram polling ended')
            handlers?.failed(failure, true)
          })
      })
      started = null
      return { id: String(me.id), name: me.username }
    },

    stop(): Promise<void> {
      stopped ??= stopPolling()
      return stopped
    },

    format: formatForTelegram,
    send: (chatId, message) => sendMessage(api, chatId, message),
    edit: (chatId, messageId, text, buttons, markup) =>
      editMessage(api, chatId, messageId, text, buttons, markup),
    react: (chatId, messageId, emoji) => react(api, chatId, messageId, emoji),
    async typing(chatId, thread) {
      const message_thread_id = thread === undefined ? undefined : messageIdOf(thread)
      await call('sendChatAction', () => api.sendChatAction(chatId, 'typing', { message_thread_id }))
    },
    threads: telegramThreads(api),
    answerPress: (press, notice) => answerPress(api, press.pressId, notice),
    dmChat: async (userId) => userId,
    download: (attachment, toFolder) =>
      download(api, `${apiRoot}/file/bot${credentials.token}`, attachment, toFolder),
  }
}
