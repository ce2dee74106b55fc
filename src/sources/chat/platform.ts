// What the hub needs from a chat platform, whatever it is: messages and button presses in, messages
// with buttons, edits, reactions and files out. Each platform (telegram/, discord/, slack/) wraps
// its real client library behind this; the hub's bridge logic (hub/bridges/) knows only this.
import * as z from 'zod'
import type { BridgePlatform } from '../../core/bridges.js'
import type { ChunkMode, FormattedText } from './chunk-markdown.js'

/** A file that came with a message; `ref` is what `download` takes back (also after a restart). */
export const inboundAttachmentSchema = z.object({
  kind: z.enum(['photo', 'document', 'audio', 'video', 'voice', 'sticker', 'file']),
  ref: z.string(),
  name: z.string().nullable(),
  mime: z.string().nullable(),
  size: z.number().nullable(),
})
export type InboundAttachment = z.infer<typeof inboundAttachmentSchema>

export interface InboundMessage {
  /** The platform's id of the conversation (a DM's or a group's), as a string. */
  chatId: string
  /** `dm` is one person and the bot; `group` is any conversation with more. */
  chatType: 'dm' | 'group'
  messageId: string
  /** The platform's stable id of the person: what gating is by, never the chat id. */
  userId: string
  /** A display name (username or first name), for people to read; never for gating. */
  userName: string
  text: string
  /** ISO time the platform gave the message. */
  ts: string
  /** True when the message mentions the bot or answers one of its messages (groups). */
  mentioned: boolean
  attachments: InboundAttachment[]
  /**
   * The thread of a group it was written in: Telegram's forum topic id, Discord's thread (a channel
   * of its own; `chatId` is then its parent's), Slack's thread_ts. Absent in the group's main chat.
   */
  thread?: string
}

export interface ButtonPress {
  /** Answered with `answerPress`: the platform shows the person a short notice. */
  pressId: string
  chatId: string
  chatType: 'dm' | 'group'
  /** The message that holds the button. */
  messageId: string
  userId: string
  userName: string
  /** The button's data, as given in `Button.data` (at most 64 bytes). */
  data: string
}

export interface Button {
  text: string
  /** At most 64 bytes (Telegram's callback_data limit). */
  data: string
}

export interface OutgoingMessage {
  /** The words plain; what goes out when there is no `markup`, or the platform refuses it. */
  text: string
  /** The same words in the platform's markup (the adapter's `format`). */
  markup?: string
  /** Rows of buttons under the message. */
  buttons?: Button[][]
  /** A message id in the same chat this one answers. */
  replyTo?: string
  /** Files to attach, read already: an adapter never opens a path (hub/bridges/reply-files.ts). */
  files?: OutgoingFile[]
  /** The thread of the chat it goes to (as InboundMessage.thread names it). */
  thread?: string
}

/** A file as it goes out: the name the person sees and the bytes, read from the handle that was checked. */
export interface OutgoingFile {
  name: string
  bytes: Buffer
}

export interface BotIdentity {
  id: string
  name: string
}

export interface PlatformHandlers {
  message(message: InboundMessage): void
  press(press: ButtonPress): void
  /** The connection came up (again). */
  connected(): void
  /**
   * The connection failed or dropped. The adapter reconnects by itself unless `gaveUp` is true
   * (Telegram's 401 or 409 after start): then the hub stops it and starts a new one, with backoff.
   */
  failed(error: Error, gaveUp?: boolean): void
}

/**
 * Thrown by an adapter's calls when the platform did not take them. `retryAfterMs` comes from a 429
 * (Telegram's retry_after, Discord's and Slack's Retry-After); `permanent` means retrying the same
 * call cannot help (a chat that does not exist, a message too old to edit).
 */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly options: {
      retryAfterMs?: number
      permanent?: boolean
      /** The platform refused the bot's token: nothing goes out until it is fixed, and nothing is dropped. */
      tokenRefused?: boolean
      /** The platform could not read the message's markup: the same words go again as plain text. */
      formatRefused?: boolean
    } = {},
  ) {
    super(message)
    this.name = 'PlatformError'
  }
}

export interface PlatformAdapter {
  readonly platform: BridgePlatform
  /** Characters per message the platform takes (core/bridges.ts TEXT_LIMITS). */
  readonly textLimit: number
  /**
   * Connects with the real client library and starts receiving. Resolves once connected, with the
   * bot's own identity; rejects when the token is refused or another program already receives for
   * this bot (Telegram's 409), with a message that says which.
   */
  start(handlers: PlatformHandlers): Promise<BotIdentity>
  /** Stops receiving and closes every connection; start() is not called again on this object. */
  stop(): Promise<void>

  /**
   * Markdown (as Claude writes it) in this platform's markup, cut into messages of at most `limit`
   * characters as the platform counts them, no code block or entity broken.
   */
  format(markdown: string, limit: number, mode: ChunkMode): FormattedText[]
  /**
   * Sends one message (text within textLimit: the caller chunks); resolves with its id. A `markup`
   * the platform refuses as malformed is sent again as the plain `text`.
   */
  send(chatId: string, message: OutgoingMessage): Promise<string>
  /** Replaces a message's text; `buttons: []` removes its buttons, undefined keeps none; `markup` as in send. */
  edit(chatId: string, messageId: string, text: string, buttons?: Button[][], markup?: string): Promise<void>
  react(chatId: string, messageId: string, emoji: string): Promise<void>
  /** Shows "typing…" in a chat (in one of its threads) for a few seconds. */
  typing(chatId: string, thread?: string): Promise<void>
  /** Answers a button press (the platform's spinner stops; `notice`, if any, is shown to that person). */
  answerPress(press: ButtonPress, notice?: string): Promise<void>
  /** The chat to write to for a DM with this user (Telegram: the user id; Discord and Slack open one). */
  dmChat(userId: string): Promise<string>
  /** Downloads an attachment to `toFolder`; resolves with the file's path. */
  download(attachment: InboundAttachment, toFolder: string): Promise<string>
  /** A thread per session in a group (hub/bridges/threads.ts); absent where the platform has none. */
  threads?: PlatformThreads
  /**
   * The latest messages of a chat, oldest first, where the platform lets a bot read history; with
   * `thread` (an id PlatformThreads.open gave), those of that thread of the chat alone.
   */
  history?(chatId: string, limit: number, thread?: string): Promise<HistoryMessage[]>
}

/** One message of a chat's history, as fetch_messages shows it. */
export interface HistoryMessage {
  messageId: string
  user: string
  text: string
  ts: string
}

export interface PlatformThreads {
  /** Opens a thread in a group, titled for people to tell it apart; resolves with its id. */
  open(chatId: string, title: string): Promise<string>
  /** Marks the thread ended (Telegram closes the topic, Discord archives the thread; Slack has neither). */
  close(chatId: string, thread: string): Promise<void>
  /** Opens an ended thread again, for a session that speaks after it ended. */
  reopen(chatId: string, thread: string): Promise<void>
  /** The chat a message in the thread is edited and reacted to in (Discord: the thread's own channel). */
  chatOf(chatId: string, thread: string): string
}

/** How a bridge is configured to reach its platform (the tokens and an optional API root). */
export interface PlatformCredentials {
  token: string
  /** Slack's app-level token (xapp-…), for Socket Mode. */
  appToken?: string
  /** Another API server: Telegram's --api-root, Discord's --api, Slack's --api-url. */
  apiUrl?: string
}

/** Runs `send` with the markup, and once more without it when the platform could not read the markup. */
export async function withPlainFallback<T>(
  markup: string | undefined,
  send: (markup: string | undefined) => Promise<T>,
): Promise<T> {
  if (markup === undefined) return send(undefined)
  try {
    return await send(markup)
  } catch (error) {
    if (error instanceof PlatformError && error.options.formatRefused) return send(undefined)
    throw error
  }
}
