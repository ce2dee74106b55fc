// The Slack bridge's adapter: @slack/bolt's App over Socket Mode (bolt.ts) for events and button
// presses, its WebClient for everything the bot sends. connection.ts keeps the socket up, not the
// library, whose own reconnect gives up on an HTTP error with an unhandled rejection.
import { randomUUID } from 'node:crypto'
import { type App, type Logger as BoltLogger, webApi } from '@slack/bolt'
import { TEXT_LIMITS } from '../../core/bridges.js'
import type { Logger } from '../../core/log.js'
import type { ChunkMode, FormattedText } from '../chat/chunk-markdown.js'
import {
  type BotIdentity,
  type Button,
  type ButtonPress,
  type HistoryMessage,
  type InboundAttachment,
  type OutgoingMessage,
  type PlatformAdapter,
  type PlatformCredentials,
  PlatformError,
  type PlatformHandlers,
  type PlatformThreads,
  withPlainFallback,
} from '../chat/platform.js'
import { boltLogger, clientOptions, createBoltApp } from './bolt.js'
import { SocketKeeper } from './connection.js'
import { slackErrorCode, tokenRefused, toPlatformError } from './errors.js'
import { formatForSlack } from './format.js'
import { channelMessages, threadMessages } from './history.js'
import {
  isPersonMessage,
  type SlackBlockActions,
  type SlackMessageEvent,
  slackTsToIso,
  toButtonPress,
  toInboundMessage,
} from './inbound.js'
import { downloadFile, messageBlocks, reactionName, uploadFiles } from './outbound.js'

const DEFAULT_API_URL = 'https://slack.com/api/'
/** Events already handled: Slack sends a mention both as `message` and `app_mention`, and redelivers. */
const REMEMBERED_EVENTS = 1000

export function createSlackAdapter(credentials: PlatformCredentials, log: Logger): PlatformAdapter {
  return new SlackAdapter(credentials, log)
}

class SlackAdapter implements PlatformAdapter {
  readonly platform = 'slack' as const
  readonly textLimit = TEXT_LIMITS.slack
  private readonly apiUrl: string
  private readonly libraryLog: BoltLogger
  private readonly web: webApi.WebClient
  private app: App | null = null
  private keeper: SocketKeeper | null = null
  private handlers: PlatformHandlers | null = null
  private bot = { userId: '', botId: '', name: '' }
  private readonly names = new Map<string, Promise<string>>()
  private readonly seen = new Set<string>()
  private delivered: Promise<void> = Promise.resolve()
  private stopped = false

  constructor(
    private readonly credentials: PlatformCredentials,
    private readonly log: Logger,
  ) {
    this.apiUrl = (credentials.apiUrl ?? DEFAULT_API_URL).replace(/\/?$/, '/')
    this.libraryLog = boltLogger(log)
    // Constructing a WebClient makes no request; App (whose constructor may) waits for start().
    this.web = new webApi.WebClient(credentials.token, clientOptions(this.apiUrl, this.libraryLog))
  }

  async start(handlers: PlatformHandlers): Promise<BotIdentity> {
    if (this.app) throw new Error('the Slack adapter was already started')
    const appToken = this.credentials.appToken
    if (!appToken) {
      throw new PlatformError('Slack needs an app-level token (xapp-…) for Socket Mode', { permanent: true })
    }
    this.handlers = handlers
    const auth = await this.web.auth.test().catch((error: unknown) => {
      const code = slackErrorCode(error)
      if (code) throw new PlatformError(tokenRefused('bot token', code), { permanent: true })
      throw toPlatformError(error, 'auth.test')
    })
    if (!auth.user_id) throw new PlatformError('Slack auth.test named no bot user', { permanent: true })
    if (this.stopped) throw new PlatformError('the Slack adapter was stopped while it started')
    this.bot = { userId: auth.user_id, botId: auth.bot_id ?? '', name: auth.user ?? auth.user_id }
    this.names.set(this.bot.userId, Promise.resolve(this.bot.name))

    const { app, socket } = createBoltApp({
      token: this.credentials.token,
      appToken,
      botId: this.bot.botId,
      botUserId: this.bot.userId,
      apiUrl: this.apiUrl,
      logger: this.libraryLog,
      log: this.log,
      onMessage: (event, viaMention) => this.onMessage(event, viaMention),
      onPress: (body) => this.onPress(body),
    })
    this.app = app
    this.keeper = new SocketKeeper(socket, handlers, this.log)
    try {
      await this.keeper.start(() => app.start())
    } catch (error) {
      await this.keeper.stop(() => app.stop())
      const code = slackErrorCode(error)
      if (code) throw new PlatformError(tokenRefused('app-level token', code), { permanent: true })
      throw toPlatformError(error ?? new Error('the socket closed before Slack said hello'), 'Socket Mode')
    }
    return { id: this.bot.userId, name: this.bot.name }
  }

  async stop(): Promise<void> {
    this.stopped = true
    const app = this.app
    if (!app || !this.keeper) return
    await this.keeper.stop(() => app.stop())
  }

  private onMessage(event: SlackMessageEvent, viaMention: boolean): Promise<void> {
    if (!isPersonMessage(event, this.bot.userId)) return Promise.resolve()
    if (!this.firstTime(`${event.channel}:${event.ts}`)) return Promise.resolve()
    const userName = this.userName(event.user ?? '')
    return this.inOrder(async () => {
      const message = toInboundMessage(event, this.bot.userId, await userName, viaMention)
      this.handlers?.message(message)
    })
  }

  private onPress(body: SlackBlockActions): void {
    if (body.trigger_id && !this.firstTime(`press:${body.trigger_id}`)) return
    const user = body.user
    const userName = user?.username || user?.name || user?.id || ''
    const press = toButtonPress(body, userName, `press-${randomUUID()}`)
    if (press) void this.inOrder(async () => this.handlers?.press(press))
  }

  /**
   * Hands events to the hub in the order Slack sent them, though a sender's name may take a
   * users.info to learn; the hub's handlers must not take the socket down with them.
   */
  private inOrder(handle: () => Promise<void>): Promise<void> {
    this.delivered = this.delivered.then(handle).catch((error: unknown) => {
      this.log.error({ err: error }, 'the Slack bridge handler threw')
    })
    return this.delivered
  }

  private firstTime(key: string): boolean {
    if (this.seen.has(key)) return false
    this.seen.add(key)
    if (this.seen.size > REMEMBERED_EVENTS) {
      const oldest = this.seen.values().next().value
      if (oldest !== undefined) this.seen.delete(oldest)
    }
    return true
  }

  /** A person's display name, asked once per person (one request for all who wait); else the id. */
  private userName(userId: string): Promise<string> {
    const known = this.names.get(userId)
    if (known) return known
    const asked = this.web.users.info({ user: userId }).then(
      ({ user }) => user?.profile?.display_name || user?.real_name || user?.name || userId,
      (error: unknown) => {
        // Not kept: the next message asks again.
        this.names.delete(userId)
        this.log.debug({ err: error, userId }, 'Slack users.info failed; using the user id')
        return userId
      },
    )
    this.names.set(userId, asked)
    return asked
  }

  format(markdown: string, limit: number, mode: ChunkMode): FormattedText[] {
    return formatForSlack(markdown, limit, mode)
  }

  async send(chatId: string, message: OutgoingMessage): Promise<string> {
    const files = message.files ?? []
    const buttons = (message.buttons ?? []).filter((row) => row.length > 0)
    // A session's thread (hub/bridges/threads.ts), else a reply to a message starts or joins its thread.
    const threadTs = message.thread ?? message.replyTo
    const sent = await withPlainFallback(message.markup, (markup) => {
      // Slack takes no empty message; a message of files alone is captioned by their names.
      const text = (markup ?? message.text) || files.map((file) => file.name).join(', ')
      return this.web.chat
        .postMessage({
          channel: chatId,
          text,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          ...(buttons.length > 0 ? { blocks: messageBlocks(text, buttons) } : {}),
        })
        .catch((error: unknown) => Promise.reject(toPlatformError(error, `chat.postMessage to ${chatId}`)))
    })
    if (!sent.ts) throw new PlatformError('Slack chat.postMessage gave no ts')
    if (files.length > 0) await uploadFiles(this.web, chatId, files, threadTs)
    return sent.ts
  }

  /**
   * A Slack thread is the replies under one message: a session's opens with its title in the
   * channel. Slack cannot close a thread; the last line the bridge sends there says it ended.
   */
  readonly threads: PlatformThreads = {
    open: (chatId, title) => this.send(chatId, { text: title || 'session' }),
    close: async () => {},
    reopen: async () => {},
    chatOf: (chatId) => chatId,
  }

  async edit(
    chatId: string,
    messageId: string,
    plain: string,
    buttons?: Button[][],
    markup?: string,
  ): Promise<void> {
    await withPlainFallback(markup, (mrkdwn) => {
      const text = mrkdwn ?? plain
      return this.web.chat
        .update({ channel: chatId, ts: messageId, text, blocks: messageBlocks(text, buttons ?? []) })
        .catch((error: unknown) => Promise.reject(toPlatformError(error, `chat.update of ${messageId}`)))
    })
  }

  async react(chatId: string, messageId: string, emoji: string): Promise<void> {
    try {
      await this.web.reactions.add({ channel: chatId, timestamp: messageId, name: reactionName(emoji) })
    } catch (error) {
      // The reaction the caller wants is there: that is success.
      if (slackErrorCode(error) === 'already_reacted') return
      throw toPlatformError(error, `reactions.add on ${messageId}`)
    }
  }

  /**
   * Slack has no typing indicator for bots outside the legacy RTM API (Socket Mode and the Web API
   * offer none; assistant.threads.setStatus works only in AI-assistant threads), so nothing is sent.
   */
  async typing(_chatId: string): Promise<void> {}

  /** Slack acks a press when it arrives; a notice is a message only that person sees. */
  async answerPress(press: ButtonPress, notice?: string): Promise<void> {
    if (!notice) return
    await this.web.chat
      .postEphemeral({ channel: press.chatId, user: press.userId, text: notice })
      .catch((error: unknown) => Promise.reject(toPlatformError(error, 'chat.postEphemeral')))
  }

  async dmChat(userId: string): Promise<string> {
    const opened = await this.web.conversations
      .open({ users: userId })
      .catch((error: unknown) => Promise.reject(toPlatformError(error, `conversations.open with ${userId}`)))
    const id = opened.channel?.id
    if (!id) throw new PlatformError(`Slack conversations.open with ${userId} gave no channel`)
    return id
  }

  download(attachment: InboundAttachment, toFolder: string): Promise<string> {
    return downloadFile(attachment, toFolder, this.credentials.token, this.apiUrl)
  }

  async history(chatId: string, limit: number, thread?: string): Promise<HistoryMessage[]> {
    // A thread's messages are not in its channel's history: Slack keeps them under their parent.
    const messages = thread
      ? await threadMessages(this.web, chatId, thread, limit)
      : await channelMessages(this.web, chatId, limit)
    const out: HistoryMessage[] = []
    for (const message of messages) {
      if (!message.ts) continue
      const user = message.user
        ? await this.userName(message.user)
        : (message.username ?? message.bot_id ?? '')
      out.push({ messageId: message.ts, user, text: message.text ?? '', ts: slackTsToIso(message.ts) })
    }
    return out
  }
}
