// Progress at the level each chat or thread chose (`/progress`, progress-level.ts), built on the hub's
// one stream of what sessions do (hub/core/session-activity.ts). A turn is shown where its session
// speaks: its thread in the group with topics, else the chat a `/new` session answers to and each
// operator's DM. `normal` and `full` are one message per turn, sent at its first fact and edited in
// place at a pace below the platform's limit (progress-pace.ts); `minimal` is one line at its end.
// Live only: a turn heard while the platform is away is not shown later. What goes out is redacted
// on its way (redacting-adapter.ts), like every other message of the bridge.
import type { PlatformAdapter } from '../../sources/chat/platform.js'
import { PlatformError } from '../../sources/chat/platform.js'
import type { ActivityFact } from '../core/session-activity.js'
import { type BridgeContext, platformChatOf, textLimit } from './context.js'
import { oneMessage } from './formatting.js'
import { DEFAULT_PROGRESS, type ProgressLevel, progressKey } from './progress-level.js'
import { type Clock, EDIT_LIMITS, type PacedOutcome, Pacer, realClock } from './progress-pace.js'
import { type TurnView, toolLine, turnHeader, turnMarkdown } from './progress-view.js'

/** Where one turn is shown, and how much of it. */
interface Target {
  level: Exclude<ProgressLevel, 'off'>
  /** The chat a message is sent in, and its thread there. */
  chat: string
  thread?: string
  /** The chat the message is edited in (a Discord thread is a channel of its own). */
  editChat: string
  /** In the session's own thread the message needs no session's name. */
  inThread: boolean
  messageId: string | null
  shown: string | null
}

interface Turn extends TurnView {
  session: string
  targets: Promise<Target[]>
}

/** Tries of a turn's last message when the platform fails it (its end must not be lost to one 502). */
const FINAL_TRIES = 3

export class Progress {
  private readonly turns = new Map<string, Turn>()
  /** Facts of one session are taken in order: a turn's targets are found once, before its facts. */
  private readonly chains = new Map<string, Promise<void>>()
  private readonly pacer: Pacer
  private readonly off: () => void
  private readonly dmChats = new Map<string, string>()

  constructor(
    private readonly context: BridgeContext,
    private readonly clock: Clock = realClock,
  ) {
    this.pacer = new Pacer(EDIT_LIMITS[context.platform].everyMs, clock)
    this.off = context.hub.activity.on((fact) => this.heard(fact))
  }

  stop(): void {
    this.off()
    this.pacer.stop()
  }

  /** Every message asked for has been sent or edited (bench, tests). */
  idle(): Promise<void> {
    return Promise.all([...this.chains.values()]).then(() => this.pacer.idle())
  }

  private heard(fact: ActivityFact): void {
    const previous = this.chains.get(fact.session) ?? Promise.resolve()
    const next = previous
      .then(() => this.take(fact))
      .catch((err) =>
        this.context.log.warn({ err: (err as Error).message, session: fact.session }, 'progress not shown'),
      )
    this.chains.set(fact.session, next)
    void next.then(() => {
      if (this.chains.get(fact.session) === next) this.chains.delete(fact.session)
    })
  }

  private async take(fact: ActivityFact): Promise<void> {
    if (!this.context.adapter()) return
    let turn = this.turns.get(fact.session)
    if (!turn) {
      // A turn's end with nothing before it (a terminal's Stop after a reply only) still has a start.
      turn = {
        session: fact.session,
        label: fact.session,
        tools: [],
        text: '',
        startedAt: this.clock.now(),
        ended: null,
        targets: Promise.resolve([]),
      }
      turn.targets = this.targetsOf(turn)
      this.turns.set(fact.session, turn)
    }
    if (fact.kind === 'tool') turn.tools.push(toolLine(fact.tool, fact.input))
    else if (fact.kind === 'text') turn.text = fact.text
    else {
      turn.ended = { costUsd: fact.costUsd, durationMs: fact.durationMs, failed: fact.failed }
      // The next fact of this session starts a new turn, with a new message.
      this.turns.delete(fact.session)
    }
    for (const target of await turn.targets) {
      if (target.level === 'minimal' && !turn.ended) continue
      if (fact.kind === 'text' && target.level !== 'full') continue
      this.show(turn, target, turn.ended ? FINAL_TRIES : 1)
    }
  }

  private show(turn: Turn, target: Target, tries: number): void {
    const lane = EDIT_LIMITS[this.context.platform].per === 'workspace' ? 'workspace' : target.chat
    const id = `${turn.session}:${target.editChat}:${target.thread ?? ''}`
    this.pacer.ask(lane, id, async (): Promise<PacedOutcome> => {
      const adapter = this.context.adapter()
      if (!adapter) return undefined
      try {
        await this.render(adapter, turn, target)
        return undefined
      } catch (err) {
        const retryAfterMs = err instanceof PlatformError ? err.options.retryAfterMs : undefined
        if (retryAfterMs !== undefined) return { retryAfterMs }
        // A message deleted or too old to edit: the next render sends a new one.
        if (err instanceof PlatformError && err.options.permanent) target.messageId = null
        this.context.log.debug({ err: (err as Error).message, session: turn.session }, 'progress not sent')
        if (tries > 1) this.show(turn, target, tries - 1)
        return undefined
      }
    })
  }

  private async render(adapter: PlatformAdapter, turn: Turn, target: Target): Promise<void> {
    const limit = textLimit(this.context)
    const view = { ...turn, label: target.inThread ? '' : turn.label }
    const now = this.clock.now()
    const markdown =
      target.level === 'minimal'
        ? turnHeader(view, now)
        : turnMarkdown(view, target.level === 'full', now, limit)
    const shown = oneMessage(adapter, markdown, limit)
    if (shown.text === target.shown) return
    if (target.messageId === null || target.level === 'minimal') {
      target.messageId = await adapter.send(target.chat, {
        ...shown,
        ...(target.thread ? { thread: target.thread } : {}),
      })
    } else await adapter.edit(target.editChat, target.messageId, shown.text, undefined, shown.markup)
    target.shown = shown.text
  }

  /** Where the session's turn is shown, each at its chat's level; none where every level is off. */
  private async targetsOf(turn: Turn): Promise<Target[]> {
    const { memory, threads, hub, platform } = this.context
    turn.label = await this.labelOf(turn.session)
    const levelOf = async (key: string, inherited?: ProgressLevel) =>
      (await memory.progress(key)) ?? inherited ?? DEFAULT_PROGRESS
    const group = threads.group()
    if (group) {
      const groupLevel = await levelOf(group)
      const known = await memory.thread(turn.session)
      const level =
        known?.chat === group ? await levelOf(progressKey(group, known.thread), groupLevel) : groupLevel
      if (level === 'off') return []
      // The session's first message out opens its thread, as a reply or a prompt would.
      const thread = await threads.of(turn.session)
      if (thread) return [target(level, thread.chat, threads.chatOf(thread), thread.thread, true)]
    }
    const chats = new Set<string>()
    const driven = /^session:(ses_\w+)$/.exec(turn.session)?.[1]
    const started = driven ? await memory.sessionChat(driven) : null
    const record = started ? await hub.store.getChat(started) : null
    const startedIn = record ? platformChatOf(platform, record.source) : null
    if (startedIn) chats.add(startedIn)
    // Operators hear of every session (its prompts, its notices): their DMs may show its progress.
    for (const s of await hub.store.listSenders()) {
      if (!s.operator || s.status !== 'allowed' || !s.name.startsWith(`${platform}:`)) continue
      if (s.name.startsWith(`${platform}:group:`)) continue
      chats.add(await this.dmOf(s.name.slice(platform.length + 1)))
    }
    const targets: Target[] = []
    for (const chat of chats) {
      const level = await levelOf(chat)
      if (level !== 'off') targets.push(target(level, chat, chat, undefined, false))
    }
    return targets
  }

  private async labelOf(session: string): Promise<string> {
    return (await this.context.hub.directory.describe(session)).name
  }

  private async dmOf(userId: string): Promise<string> {
    const known = this.dmChats.get(userId)
    if (known) return known
    const adapter = this.context.adapter()
    if (!adapter) throw new PlatformError(`${this.context.platform} is not connected`)
    const chat = await adapter.dmChat(userId)
    this.dmChats.set(userId, chat)
    return chat
  }
}

function target(
  level: ProgressLevel,
  chat: string,
  editChat: string,
  thread: string | undefined,
  inThread: boolean,
): Target {
  return {
    level: level as Target['level'],
    chat,
    editChat,
    ...(thread ? { thread } : {}),
    inThread,
    messageId: null,
    shown: null,
  }
}
