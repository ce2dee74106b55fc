// A thread per session in a group added with `--topics`: a Telegram forum topic, a Discord thread,
// a Slack thread. A session gets its thread on its first message out (a reply, a prompt, a notice),
// titled by its project and first prompt; the way from thread to session and back is kept in the
// store (memory.ts), so a restarted hub, or the one that takes the bridge's lease, routes the same.
import { namedWithAgent } from '../../core/agents.js'
import type { BridgeConfig, BridgePlatform } from '../../core/bridges.js'
import { newId } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import { type PlatformAdapter, PlatformError } from '../../sources/chat/platform.js'
import type { Sender } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import type { BridgeMemory, SessionThread } from './memory.js'
import { groupSenderNameOf } from './names.js'

type Receipt = Record<string, unknown>

/** The part of a bridge's context (context.ts) threads need. */
export interface ThreadsContext {
  readonly platform: BridgePlatform
  readonly hub: Hub
  readonly log: Logger
  config(): BridgeConfig
  adapter(): PlatformAdapter | null
  readonly memory: BridgeMemory
}

export class Threads {
  /** Per session, the thread being opened: two messages out at once open one thread. */
  private readonly opening = new Map<string, Promise<SessionThread | null>>()
  /** Per item, the message being sent for every operator's copy of it. */
  private readonly copying = new Map<string, Promise<Receipt>>()

  constructor(private readonly context: ThreadsContext) {}

  /** The group sessions get their threads in: the first one added with --topics. */
  group(): string | null {
    return this.context.config().groups.find((g) => g.topics)?.id ?? null
  }

  /**
   * The session's thread, opened now if it has none and reopened if it ended; null when there is no
   * group with topics, or the platform would not open one there (the caller sends as it did before).
   */
  async of(session: string): Promise<SessionThread | null> {
    const group = this.group()
    const threads = this.context.adapter()?.threads
    if (!group || !threads) return null
    const running = this.opening.get(session)
    if (running) return running
    const opened = this.open(session, group).finally(() => this.opening.delete(session))
    this.opening.set(session, opened)
    return opened
  }

  private async open(session: string, group: string): Promise<SessionThread | null> {
    const { memory } = this.context
    const threads = this.adapter().threads
    if (!threads) return null
    const known = await memory.thread(session)
    if (known?.chat === group) {
      if (!known.closed) return known
      await threads.reopen(known.chat, known.thread)
      const reopened = { ...known, closed: false }
      await memory.setThread(session, reopened)
      return reopened
    }
    const title = await this.titleOf(session)
    let id: string
    try {
      id = await threads.open(group, title)
    } catch (err) {
      // A group that is not a forum, a bot not allowed to make topics: the session writes where it did.
      if (!(err instanceof PlatformError && err.options.permanent && !err.options.tokenRefused)) throw err
      this.context.log.warn(
        { group, session, err: err.message },
        'no thread opened for a session; it writes where it did before',
      )
      return null
    }
    const thread = { chat: group, thread: id, title, closed: false }
    await memory.setThread(session, thread)
    // The group's sender carries what the bridge must do there later (closing the thread).
    await groupSender(this.context, group)
    this.context.log.info({ session, group, thread: id }, 'thread opened for a session')
    return thread
  }

  /**
   * The thread the session's replies to `chat` go to, as it is, none opened: null when `chat` is not
   * the group with topics or the session has no thread there yet.
   */
  async existing(session: string, chat: string): Promise<SessionThread | null> {
    if (chat !== this.group()) return null
    const known = await this.context.memory.thread(session)
    return known?.chat === chat ? known : null
  }

  /** The session whose thread a message was written in; null for a thread no session has. */
  sessionOf(chat: string, thread: string): Promise<string | null> {
    return this.context.memory.threadSession(chat, thread)
  }

  /** Where a message in the thread is edited or reacted to. */
  chatOf(thread: SessionThread): string {
    return this.adapter().threads?.chatOf(thread.chat, thread.thread) ?? thread.chat
  }

  /** The session ended: a last line in its thread, and the thread closed (archived on Discord). */
  async close(session: string, line: string): Promise<Receipt> {
    const { memory } = this.context
    const known = await memory.thread(session)
    if (!known || known.closed) return { skipped: 'no open thread' }
    const adapter = this.adapter()
    const message = await adapter.send(known.chat, { text: line, thread: known.thread })
    await adapter.threads?.close(known.chat, known.thread)
    await memory.setThread(session, { ...known, closed: true })
    return { chat: this.chatOf(known), messages: [message], closed: known.thread }
  }

  /**
   * One message in a thread for every operator's copy of the same item (a prompt, its outcome, a
   * notice): the first copy sends it, the others are given its receipt, also after a restart.
   */
  async copy(key: string, send: () => Promise<Receipt>): Promise<Receipt> {
    const running = this.copying.get(key)
    if (running) return running
    const done = (async () => {
      const stored = await this.context.memory.threadCopy(key)
      if (stored) return stored
      const receipt = await send()
      await this.context.memory.setThreadCopy(key, receipt)
      return receipt
    })().finally(() => this.copying.delete(key))
    this.copying.set(key, done)
    return done
  }

  /** What the session is called: its project and a title from its first prompt, and its agent when not Claude Code. */
  private async titleOf(session: string): Promise<string> {
    const { name, agent } = await this.context.hub.directory.describe(session)
    return namedWithAgent(name, agent)
  }

  private adapter() {
    const adapter = this.context.adapter()
    if (!adapter) throw new PlatformError(`${this.context.platform} is not connected`)
    return adapter
  }
}

/** The sender a group the bridge answers in is known by; made the first time it is needed. */
export async function groupSender(context: ThreadsContext, chatId: string): Promise<Sender> {
  const { store } = context.hub
  const name = groupSenderNameOf(context.platform, chatId)
  const known = await store.senderByName(name)
  if (known) return known
  try {
    return await store.addSender({
      name,
      tokenHash: `group:${newId('tok')}`, // a group has no token: nothing authenticates as it
      status: 'allowed',
      operator: false,
      displayName: `group ${chatId}`,
    })
  } catch (err) {
    // Made meanwhile by another message of the same group.
    const made = await store.senderByName(name)
    if (made) return made
    throw err
  }
}
