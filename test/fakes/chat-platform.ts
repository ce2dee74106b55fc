// What every fake chat platform (telegram.ts, discord.ts, slack.ts) lets a test do: play a person
// writing to the bot or pressing its buttons, see what the bot sent, and take the platform down.
// Each fake is a real server on 127.0.0.1 that the platform's real client library talks to.
import type { BridgePlatform } from '../../src/core/bridges.js'
import type { Button, PlatformCredentials } from '../../src/sources/chat/platform.js'

export interface FakeUser {
  /** The platform's user id (numeric string for Telegram and Discord, `U…` for Slack). */
  id: string
  name: string
}

export interface FakeFile {
  name: string
  mime: string
  content: Buffer
}

/**
 * Files a person sends with a message. A voice note is each platform's own: Telegram's voice, Discord's
 * voice message, Slack's audio clip; in a DM only on Discord and Slack.
 */
export interface FakeAttachments {
  photo?: FakeFile
  document?: FakeFile
  voice?: FakeFile
}

/** A message as the platform holds it now (edits applied). */
export interface FakeMessage {
  chatId: string
  messageId: string
  /** Who wrote it: the bot's id for messages the bot sent. */
  userId: string
  text: string
  buttons: Button[][]
  replyTo: string | null
  files: { name: string; size: number }[]
  /** The thread of a group it is in (a forum topic's id, a Discord thread's, a Slack thread_ts). */
  thread?: string | null
}

/** A thread the bot opened in a group (a Telegram forum topic, a Discord thread, a Slack thread). */
export interface FakeThread {
  chatId: string
  thread: string
  title: string
  /** Telegram: the topic closed; Discord: the thread archived; Slack: never. */
  closed: boolean
}

export interface FakePlatform {
  readonly platform: BridgePlatform
  /** What `switchboard bridge add` is given to reach this fake (tokens and API URL). */
  readonly credentials: PlatformCredentials
  /** The bot's own user id. */
  readonly botId: string

  /** A person writes to the bot in a DM; resolves with the message's id. */
  dm(user: FakeUser, text: string, options?: FakeAttachments): Promise<string>
  /**
   * A person writes in a group or channel the bot is in (in one of its threads, when given); files
   * only where the fake takes them in groups (Telegram's).
   */
  groupMessage(
    chatId: string,
    user: FakeUser,
    text: string,
    options?: { mention?: boolean; thread?: string } & FakeAttachments,
  ): Promise<string>
  /**
   * A group where the bot may open threads, with it in: Telegram's forum supergroup (topics on, the
   * bot an admin), a Discord server's text channel, a Slack channel.
   */
  addGroup(chatId: string): void
  /** The threads the bot opened, as they are now. */
  threads(): FakeThread[]
  /**
   * A person opens a thread of their own in a group (a forum topic, a Discord thread, on Slack a
   * message of theirs to answer under); resolves with its id. It is not among threads().
   */
  openThread(chatId: string, user: FakeUser, title: string): Promise<string>
  /** A person presses a button on one of the bot's messages; resolves with the press's id. */
  press(user: FakeUser, chatId: string, messageId: string, data: string): Promise<string>
  /** The chat id of the DM between the bot and this user (opened on first use). */
  dmChatOf(userId: string): string

  /** Every message the bot sent, in order, as it is now (edits applied). */
  sent(): FakeMessage[]
  /** Every edit the bot made, in order, with when the fake took it (its own clock, ms). */
  readonly edits: { chatId: string; messageId: string; text: string; buttons: Button[][]; at: number }[]
  readonly reactions: { chatId: string; messageId: string; emoji: string }[]
  /** Chats the bot showed "typing…" in, one entry per call. */
  readonly typing: string[]
  /** The bot's answers to button presses. */
  readonly pressAnswers: { pressId: string; notice: string | null }[]
  /** How many receivers are connected now (Telegram: long polls waiting; others: live sockets). */
  receivers(): number

  /** While down, every API call fails (HTTP 502) and sockets are refused; messages sent are not lost. */
  setDown(down: boolean): void
  /** The next `n` API calls that send, edit or react answer 429 with this retry-after. */
  rateLimitNext(n: number, retryAfterSeconds: number): void
  /**
   * The next `n` messages or edits with markup are refused as the platform refuses markup it cannot
   * read (Telegram's 400 "can't parse entities", Slack's invalid_blocks). Discord refuses no markdown.
   */
  refuseMarkupNext?(n: number): void

  /** Polls `probe` until it returns something other than undefined/false. */
  waitFor<T>(probe: () => T | undefined | false | null, what: string, timeoutMs?: number): Promise<T>
  close(): Promise<void>
}

/** The most of `times` (ms) in any window of `windowMs`, both ends counted: what a rate limit counts. */
export function mostInWindow(times: number[], windowMs: number): number {
  let most = 0
  for (const from of times)
    most = Math.max(most, times.filter((t) => t >= from && t <= from + windowMs).length)
  return most
}

/** What every fake's waitFor does: polls `probe` until it gives something, or fails naming the wait. */
export async function pollFor<T>(
  platform: string,
  probe: () => T | undefined | false | null,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== undefined && value !== false && value !== null) return value
    if (Date.now() > deadline) throw new Error(`fake ${platform}: timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
