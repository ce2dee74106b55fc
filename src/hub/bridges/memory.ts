// What one bridge remembers between messages, kept in the store (store/bridge-memory.ts) so that a
// restarted hub, or the hub that takes the bridge's lease over, carries on from it: a chat's `/to`
// choice, the chat a `/new` session answers to, the attachments Claude may download, the replies a
// stranger was given, when a chat was last told no session takes it, each session's thread in a group,
// the progress level each chat or thread chose.
import * as z from 'zod'
import { type InboundAttachment, inboundAttachmentSchema } from '../../sources/chat/platform.js'
import type { BridgeMemoryKind, BridgeMemoryStore } from '../../store/store.js'
import { type ProgressLevel, progressLevelSchema } from './progress-level.js'

/** Attachments kept per platform; older ids stop working. */
const MAX_ATTACHMENTS = 1000

const routeSchema = z.object({ target: z.string() })
const sessionChatSchema = z.object({ chat: z.string() })
const attachmentSchema = z.object({ chatId: z.string(), attachment: inboundAttachmentSchema })
const noticeSchema = z.object({ at: z.number() })
const threadSchema = z.object({
  chat: z.string(),
  thread: z.string(),
  title: z.string(),
  closed: z.boolean().default(false),
})
export type SessionThread = z.infer<typeof threadSchema>
const threadSessionSchema = z.object({ session: z.string() })
const progressSchema = z.object({ level: progressLevelSchema })
const copySchema = z.record(z.string(), z.unknown())
const placeSchema = z.object({ chat: z.string() })
/** Thread messages whose place is kept, per platform: Claude reacts to recent ones. */
const MAX_PLACES = 1000
/** Messages that stand for many operators' copies, kept per platform. */
const MAX_COPIES = 1000

export class BridgeMemory {
  constructor(
    private readonly store: BridgeMemoryStore,
    readonly platform: string,
  ) {}

  /** The one subscriber this chat's messages go to (`/to`); null: every one that takes it. */
  async route(chatId: string): Promise<string | null> {
    return (await this.read('route', chatId, routeSchema))?.target ?? null
  }

  async setRoute(chatId: string, target: string | null): Promise<void> {
    if (target === null) await this.store.forget(this.platform, 'route', chatId)
    else await this.store.remember(this.platform, 'route', chatId, { target }, Date.now())
  }

  /** The hub's chat a session started from a chat (`/new`) answers to. */
  async sessionChat(sessionId: string): Promise<string | null> {
    return (await this.read('session-chat', sessionId, sessionChatSchema))?.chat ?? null
  }

  async setSessionChat(sessionId: string, chatId: string): Promise<void> {
    await this.store.remember(this.platform, 'session-chat', sessionId, { chat: chatId }, Date.now())
  }

  async attachment(fileId: string): Promise<{ chatId: string; attachment: InboundAttachment } | null> {
    return this.read('attachment', fileId, attachmentSchema)
  }

  /** A voice note's transcript waiting for its sender's answer (voice.ts). */
  async transcript<T>(id: string, schema: z.ZodType<T>): Promise<T | null> {
    return this.read('transcript', id, schema)
  }

  async setTranscript(id: string, value: Record<string, unknown>): Promise<void> {
    await this.store.remember(this.platform, 'transcript', id, value, Date.now())
  }

  /**
   * True for the one caller that took it, counted in one statement: two presses at once (or on two
   * hubs) answer it once. What is left is deleted with the passing memory.
   */
  async takeTranscript(id: string): Promise<boolean> {
    if ((await this.store.recall(this.platform, 'transcript', id)) === null) return false
    return (await this.store.countUp(this.platform, 'transcript', id, Date.now())) === 1
  }

  async addAttachment(fileId: string, chatId: string, attachment: InboundAttachment): Promise<void> {
    await this.store.remember(this.platform, 'attachment', fileId, { chatId, attachment }, Date.now())
    await this.store.trimMemory(this.platform, 'attachment', MAX_ATTACHMENTS)
  }

  /** One more reply about `key` (a pairing code, a user): true while at most `max` were given. */
  async mayReply(key: string, max: number): Promise<boolean> {
    return (await this.store.countUp(this.platform, 'replies', key, Date.now())) <= max
  }

  /** True, and noted, when this chat was not told anything of this kind in the last `everyMs`. */
  async noticeDue(chatId: string, everyMs: number, now = Date.now()): Promise<boolean> {
    const last = await this.read('notice', chatId, noticeSchema)
    if (last && now - last.at < everyMs) return false
    await this.store.remember(this.platform, 'notice', chatId, { at: now }, now)
    return true
  }

  /** The thread a session (a subscriber's name) writes in, once it has one. */
  async thread(session: string): Promise<SessionThread | null> {
    return this.read('thread', session, threadSchema)
  }

  /** The session whose thread this is (`chat`: the group's platform id, `thread`: the thread's). */
  async threadSession(chat: string, thread: string): Promise<string | null> {
    return (await this.read('thread-session', `${chat}:${thread}`, threadSessionSchema))?.session ?? null
  }

  /** The way back first: a message written in the thread finds its session from the moment it can exist. */
  async setThread(session: string, thread: SessionThread): Promise<void> {
    const now = Date.now()
    await this.store.remember(
      this.platform,
      'thread-session',
      `${thread.chat}:${thread.thread}`,
      { session },
      now,
    )
    await this.store.remember(this.platform, 'thread', session, thread, now)
  }

  /** Where a message written in a thread of `chat` lives, when not in `chat` itself (Discord). */
  async messagePlace(chat: string, messageId: string): Promise<string | null> {
    return (await this.read('message-thread', `${chat}:${messageId}`, placeSchema))?.chat ?? null
  }

  async setMessagePlace(chat: string, messageId: string, place: string): Promise<void> {
    await this.store.remember(
      this.platform,
      'message-thread',
      `${chat}:${messageId}`,
      { chat: place },
      Date.now(),
    )
    await this.store.trimMemory(this.platform, 'message-thread', MAX_PLACES)
  }

  /** The message (its receipt) that stands in a thread for every operator's copy of one item. */
  async threadCopy(key: string): Promise<Record<string, unknown> | null> {
    return this.read('thread-copy', key, copySchema)
  }

  async setThreadCopy(key: string, receipt: Record<string, unknown>): Promise<void> {
    await this.store.remember(this.platform, 'thread-copy', key, receipt, Date.now())
    await this.store.trimMemory(this.platform, 'thread-copy', MAX_COPIES)
  }

  /** The progress level a chat (`chat`) or one of its threads (`chat:thread`) chose; null: none chosen. */
  async progress(key: string): Promise<ProgressLevel | null> {
    return (await this.read('progress', key, progressSchema))?.level ?? null
  }

  async setProgress(key: string, level: ProgressLevel): Promise<void> {
    await this.store.remember(this.platform, 'progress', key, { level }, Date.now())
  }

  /** What is stored, if it still reads as this kind's shape (written by another version, say). */
  private async read<T>(kind: BridgeMemoryKind, key: string, schema: z.ZodType<T>): Promise<T | null> {
    const parsed = schema.safeParse(await this.store.recall(this.platform, kind, key))
    return parsed.success ? parsed.data : null
  }
}
