// One chat platform bridged into the hub: one bot for every session. It connects with the
// platform's real client (through its adapter), takes messages and button presses in, shows the
// outbox of its people out, and does what Claude asks in its chats (react, edit, download, history).
import type { BridgeConfig, BridgePlatform } from '../../core/bridges.js'
import type { BridgeStatus, ChatAction } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import { isPromptKind } from '../../core/outbox.js'
import { chatFileLimits, fetchChatFile } from '../../sources/chat/inbox.js'
import { escapeMarkdown } from '../../sources/chat/markdown.js'
import type { ButtonPress, PlatformAdapter } from '../../sources/chat/platform.js'
import type { Chat, OutboxItem, Sender } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import type { HubSecrets } from '../core/hub-secrets.js'
import { promptBody } from '../people/decisions.js'
import type { ShownOutcome } from '../people/sender-outbox.js'
import { takeBot } from './bot-lock.js'
import {
  type BridgeContext,
  platformChatOf,
  type RoutineControl,
  type SessionControl,
  senderNameOf,
  textLimit,
} from './context.js'
import { Delivery } from './delivery.js'
import { oneMessage } from './formatting.js'
import { Inbound } from './inbound.js'
import { BridgeMemory } from './memory.js'
import { Progress } from './progress.js'
import { parseButtonData, promptDetails, promptMessage, questionMessage, questionStep } from './prompts.js'
import { redacting } from './redacting-adapter.js'
import { checkReplyFiles, FileRefused } from './reply-files.js'
import { Threads } from './threads.js'
import { answerFromChat, openPrompt } from './verdicts.js'
import { isVoicePress } from './voice.js'

const FIRST_RECONNECT_MS = 1000
const MAX_RECONNECT_MS = 60_000
/** How long the reply tool waits for the platform before it says the reply is queued. */
const ANSWER_WITHIN_MS = 10_000

export interface BridgeDeps {
  hub: Hub
  sessions: SessionControl | null
  routines: RoutineControl | null
  log: Logger
  home: string
  /** The hub's own secrets: nothing the bridge sends carries them (redacting-adapter.ts). */
  secrets: HubSecrets
  createAdapter(platform: BridgePlatform, config: BridgeConfig, log: Logger): Promise<PlatformAdapter>
  /** How long the platform may go unanswered before `unreachable` is called (platformLostMs). */
  platformLostMs: number
  /**
   * The platform has not answered this hub for platformLostMs: the bridge should run on another hub
   * (manager.ts hands its lease over, which stops this one). Null: no other hub could take it.
   */
  unreachable: (() => unknown) | null
}

export class Bridge {
  private state: BridgeStatus['state'] = 'starting'
  private bot: string | null = null
  private lastError: string | null = null
  private adapter: PlatformAdapter | null = null
  private connected = false
  private stopped = false
  private release: (() => void) | null = null
  private reconnect: NodeJS.Timeout | null = null
  /** Set while the platform is not answering: calls `unreachable` once it has not for platformLostMs. */
  private lostTimer: NodeJS.Timeout | null = null
  private inboundQueue = Promise.resolve()
  private readonly context: BridgeContext
  private readonly delivery: Delivery
  private readonly inbound: Inbound
  private readonly progress: Progress
  private readonly log: Logger

  constructor(
    readonly platform: BridgePlatform,
    private config: BridgeConfig,
    private readonly deps: BridgeDeps,
  ) {
    this.log = deps.log.child({ bridge: platform })
    const parts = {
      platform,
      hub: deps.hub,
      sessions: deps.sessions,
      routines: deps.routines,
      log: this.log,
      home: deps.home,
      config: () => this.config,
      adapter: () => (this.connected ? this.adapter : null),
      memory: new BridgeMemory(deps.hub.store, platform),
    }
    this.context = { ...parts, threads: new Threads(parts) }
    this.delivery = new Delivery(this.context)
    this.inbound = new Inbound(this.context)
    this.progress = new Progress(this.context)
  }

  /** Connects in the background, retrying with backoff; never throws. */
  start(): void {
    // Not heard from yet: a platform this hub cannot reach from the start counts as one it lost.
    this.unanswered()
    void this.connect(FIRST_RECONNECT_MS)
  }

  /** Settings that need no new connection (policy, groups, chunking) apply at once. */
  reconfigure(config: BridgeConfig): void {
    this.config = config
  }

  /** True when a change of settings needs a new connection. */
  needsRestart(config: BridgeConfig): boolean {
    return (
      config.token !== this.config.token ||
      config.appToken !== this.config.appToken ||
      config.apiUrl !== this.config.apiUrl
    )
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.connected = false
    this.state = 'stopped'
    if (this.reconnect) clearTimeout(this.reconnect)
    if (this.lostTimer) clearTimeout(this.lostTimer)
    this.delivery.stop()
    this.progress.stop()
    // The adapter first: a message being taken may be waiting on the platform, which stopping ends.
    await this.adapter?.stop().catch((err) => this.log.warn({ err: (err as Error).message }, 'stop failed'))
    await this.inboundQueue
    this.release?.()
    this.release = null
  }

  status(): BridgeStatus {
    return {
      platform: this.platform,
      state: this.state,
      bot: this.bot,
      lastError: this.lastError,
      queued: this.delivery.waiting,
    }
  }

  private async connect(delayMs: number): Promise<void> {
    if (this.stopped) return
    const lock = takeBot(this.platform, this.config.token, this.deps.home)
    if (!lock.ok) return this.failed(new Error(lock.message), Math.max(delayMs, 10_000))
    this.release = lock.release
    let adapter: PlatformAdapter | null = null
    try {
      await this.deps.secrets.refresh()
      // The one way out: whatever the bridge sends through it is redacted first.
      adapter = redacting(
        await this.deps.createAdapter(this.platform, this.config, this.log),
        this.deps.secrets.redactor,
      )
      this.adapter = adapter
      const me = await adapter.start({
        message: (m) => {
          this.inboundQueue = this.inboundQueue
            .then(() => this.inbound.take(m))
            .catch((err) => this.log.error({ err }, 'inbound message not taken'))
        },
        press: (p) =>
          void this.pressed(p).catch((err) => this.log.error({ err }, 'button press not handled')),
        connected: () => this.up(),
        failed: (err, gaveUp) => {
          this.unanswered()
          this.connected = false
          this.state = this.stopped ? 'stopped' : 'reconnecting'
          this.lastError = err.message
          if (gaveUp && this.adapter === adapter) void this.restart(err)
        },
      })
      if (this.stopped) return void (await adapter.stop())
      this.bot = me.name
      this.up()
      this.log.info({ bot: me.name }, 'bridge connected')
    } catch (err) {
      await adapter?.stop().catch(() => {})
      this.release?.()
      this.release = null
      this.failed(err as Error, delayMs)
    }
  }

  /** The adapter stopped for good (another program took the bot, the token was revoked): a new one, later. */
  private async restart(err: Error): Promise<void> {
    const adapter = this.adapter
    this.adapter = null
    await adapter?.stop().catch(() => {})
    this.release?.()
    this.release = null
    this.failed(err, 10_000)
  }

  /**
   * The platform stopped answering (or has not yet): unless it answers within platformLostMs, the
   * bridge is handed to another hub. Counted from the first failure, not reset by the retries.
   */
  private unanswered(): void {
    if (this.stopped || this.lostTimer || !this.deps.unreachable) return
    this.lostTimer = setTimeout(() => {
      this.lostTimer = null
      if (this.stopped || this.connected) return
      this.log.warn(
        { err: this.lastError, forMs: this.deps.platformLostMs },
        `${this.platform} has not answered this hub in time: the bridge goes to another hub`,
      )
      void this.deps.unreachable?.()
    }, this.deps.platformLostMs)
    this.lostTimer.unref()
  }

  private up(): void {
    if (this.stopped) return
    if (this.lostTimer) clearTimeout(this.lostTimer)
    this.lostTimer = null
    this.connected = true
    this.state = 'connected'
    this.lastError = null
    this.delivery.retryNow()
    void this.sweep()
  }

  private failed(err: Error, delayMs: number): void {
    if (this.stopped) return
    this.unanswered()
    this.state = 'error'
    this.lastError = err.message
    this.log.warn({ err: err.message, retryInMs: delayMs }, 'bridge not connected')
    this.reconnect = setTimeout(() => void this.connect(Math.min(delayMs * 2, MAX_RECONNECT_MS)), delayMs)
    this.reconnect.unref()
  }

  // --- the outbox ---------------------------------------------------------------------

  owns(senderName: string): boolean {
    return senderName.startsWith(`${this.platform}:`)
  }

  /** A new item for one of this bridge's people: shown now, or queued while the platform is away. */
  async onOutbox(item: OutboxItem): Promise<ShownOutcome | undefined> {
    // Prompts and outcomes go to every operator in turn: none may wait on a slow platform. Only a
    // reply has someone waiting for how it went (the reply tool).
    if (item.kind !== 'reply') {
      void this.delivery.flush(item.senderId)
      return undefined
    }
    // A platform that hangs instead of refusing must not hold the reply tool: the delivery goes on.
    let timer: NodeJS.Timeout | undefined
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), ANSWER_WITHIN_MS)
    })
    const delivered = await Promise.race([this.delivery.flush(item.senderId), slow])
    clearTimeout(timer)
    if (delivered === 'slow')
      return { queued: true, note: `queued: ${this.platform} is slow to answer; it will be delivered` }
    if (!delivered)
      return {
        queued: true,
        note: `queued: ${this.platform} is not taking messages now (${this.lastError ?? 'reconnecting'}); it will be delivered when it is back`,
      }
    const receipt = (await this.deps.hub.store.outboxItem(item.senderId, item.id))?.receipt ?? null
    if (typeof receipt?.notSent === 'string') return { queued: false, refused: true, note: receipt.notSent }
    if (typeof receipt?.refused === 'string')
      return { queued: false, refused: true, note: `${this.platform} refused it: ${receipt.refused}` }
    const messages = receipt?.messages as string[] | undefined
    return { queued: false, note: messages?.length ? `sent (message_id ${messages.join(', ')})` : 'sent' }
  }

  /** Items stored while nobody was showing them (by the CLI, or before a restart) go out now. */
  async sweep(): Promise<void> {
    if (!this.connected) return
    for (const sender of await this.deps.hub.store.listSenders())
      if (this.owns(sender.name) && sender.status === 'allowed') await this.delivery.flush(sender.id)
  }

  // --- button presses -----------------------------------------------------------------

  private async pressed(press: ButtonPress): Promise<void> {
    const adapter = this.adapter
    if (!adapter) return
    const answerPress = (notice?: string) =>
      adapter
        .answerPress(press, notice)
        .catch((err) => this.log.debug({ err: err.message }, 'press not answered'))
    // A voice note's transcript is its sender's to answer, operator or not (voice.ts checks who).
    if (isVoicePress(press.data)) return this.inbound.voicePress(press, answerPress)
    const { hub } = this.deps
    const parsed = parseButtonData(press.data)
    const sender = await hub.store.senderByName(senderNameOf(this.platform, press.userId))
    if (!parsed || !sender || sender.status !== 'allowed' || !sender.operator) {
      this.log.warn({ user: press.userId }, 'button press refused: not an operator')
      return answerPress('Not authorized')
    }
    if (parsed.verb === 'option' && parsed.choices) {
      const asked = await this.nextQuestion(press, sender, parsed.code, parsed.choices)
      if (asked !== null) return answerPress(asked)
    }
    if (parsed.verb !== 'more')
      return answerPress(await answerFromChat(this.context, sender, parsed.code, parsed.verb, parsed.choices))
    const found = await openPrompt(this.context, sender, parsed.code)
    if ('why' in found) return answerPress(found.why)
    const { decision } = found
    if (!isPromptKind(decision.kind)) return answerPress('Nothing more to show')
    // Titled as the prompt was: its session by the name people call it.
    const { text, buttons } = promptMessage(decision.kind, promptBody(decision))
    const limit = textLimit(this.context)
    const details = oneMessage(
      adapter,
      `${text.split('\n')[0]}\n${promptDetails(decision.request, limit)}`,
      limit,
    )
    try {
      await adapter.edit(press.chatId, press.messageId, details.text, buttons.slice(1), details.markup)
    } catch (err) {
      return answerPress(`Could not show more: ${(err as Error).message}`.slice(0, 190))
    }
    return answerPress()
  }

  /**
   * An option of a question that is not the call's last: the message now asks the next question (its
   * buttons carry the choices so far). Null when the press answers the decision (or fits no question).
   */
  private async nextQuestion(
    press: ButtonPress,
    sender: Sender,
    code: string,
    choices: number[],
  ): Promise<string | null> {
    const adapter = this.adapter
    const found = await openPrompt(this.context, sender, code)
    if (!adapter || 'why' in found || found.decision.kind !== 'question') return null
    const { decision } = found
    const step = questionStep(decision.request.input, choices)
    if (!step || !('next' in step)) return null
    const { text, buttons } = questionMessage(decision.code, decision.owner, decision.request.input, choices)
    const shown = oneMessage(adapter, text, textLimit(this.context))
    try {
      await adapter.edit(press.chatId, press.messageId, shown.text, buttons, shown.markup)
    } catch (err) {
      return `Could not show the next question: ${(err as Error).message}`.slice(0, 190)
    }
    return step.said.slice(0, 190)
  }

  // --- what Claude may do in a chat (hub/core/chat-surface.ts) ----------------------------

  ownsChat(chat: Chat): boolean {
    return platformChatOf(this.platform, chat.source) !== null
  }

  /** Each file must be one that may leave (reply-files.ts); said at once, and checked again when sent. */
  async refuse(_chat: Chat, extras: { files?: string[]; folder?: string }): Promise<string | null> {
    if (!extras.files?.length) return null
    try {
      await checkReplyFiles(extras.files, { home: this.deps.home, folder: extras.folder })
      return null
    } catch (err) {
      if (err instanceof FileRefused) return err.message
      throw err
    }
  }

  /**
   * Where a reply sent to this chat lives, from its receipt: a thread is a channel of its own on
   * Discord, and its messages are edited there, not in the group. Null: no reply of this chat.
   */
  private async replyIn(chat: Chat, messageId: string): Promise<{ chat: string; thread: boolean } | null> {
    if (!chat.senderId) return null
    const items = await this.deps.hub.outbox.items(chat.senderId, 0)
    const sent = items.find(
      (i) =>
        i.kind === 'reply' &&
        i.body.chat_id === chat.id &&
        (i.receipt?.messages as string[] | undefined)?.includes(messageId) === true,
    )
    const where = sent?.receipt?.chat
    return typeof where === 'string'
      ? { chat: where, thread: typeof sent?.receipt?.thread === 'string' }
      : null
  }

  async act(chat: Chat, action: ChatAction, from: string): Promise<{ ok: boolean; message: string }> {
    const adapter = this.context.adapter()
    const platformChat = platformChatOf(this.platform, chat.source)
    if (!adapter || !platformChat)
      return { ok: false, message: `${this.platform} is not connected now; try again later` }
    switch (action.action) {
      case 'react': {
        // A message in a Discord thread is in the thread's channel: a reply's receipt, or what was kept.
        const where =
          (await this.replyIn(chat, action.message_id))?.chat ??
          (await this.context.memory.messagePlace(platformChat, action.message_id)) ??
          platformChat
        await adapter.react(where, action.message_id, action.emoji)
        return { ok: true, message: 'reacted' }
      }
      case 'edit': {
        // Only a reply sent to this chat: the bot's prompts and notices there are not Claude's to rewrite.
        const reply = await this.replyIn(chat, action.message_id)
        if (!reply)
          return { ok: false, message: `message ${action.message_id} is not a reply sent to this chat` }
        // In its session's thread a reply carries no name in front, and keeps none once edited.
        const text = reply.thread ? action.text : `[${escapeMarkdown(from)}] ${action.text}`
        const edited = oneMessage(adapter, text, textLimit(this.context))
        await adapter.edit(reply.chat, action.message_id, edited.text, undefined, edited.markup)
        return { ok: true, message: 'edited' }
      }
      case 'download': {
        const known = await this.context.memory.attachment(action.file_id)
        if (!known || known.chatId !== platformChat)
          return { ok: false, message: `no attachment "${action.file_id}" in this chat` }
        // Held to the limit and the types a file that came with a message is held to.
        try {
          const limits = chatFileLimits(this.context.home)
          const file = await fetchChatFile(adapter, known.attachment, this.inbound.inboxFolder(from), limits)
          return { ok: true, message: file.path }
        } catch (err) {
          return { ok: false, message: (err as Error).message }
        }
      }
      case 'fetch': {
        if (!adapter.history)
          return { ok: false, message: `${this.platform} does not let bots read a chat's history` }
        // A session with its own thread in the group converses there, so that is what it reads.
        const thread = await this.context.threads.existing(from, platformChat)
        const messages = await adapter.history(platformChat, action.limit, thread?.thread)
        return {
          ok: true,
          message:
            messages.map((m) => `[${m.ts}] ${m.user} (message_id ${m.messageId}): ${m.text}`).join('\n') ||
            '(no messages)',
        }
      }
    }
  }
}
