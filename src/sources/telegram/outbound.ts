// What the hub sends through Telegram's Bot API: messages with inline buttons and files, edits,
// reactions, typing, answers to presses; every failure comes back as a PlatformError.
import { extname } from 'node:path'
import { type Api, InputFile } from 'grammy'
import type { InlineKeyboardMarkup, ReactionTypeEmoji, ReplyParameters } from 'grammy/types'
import { type Button, type OutgoingMessage, PlatformError, withPlainFallback } from '../chat/platform.js'
import { isNotModified, toPlatformError } from './errors.js'

const PHOTO_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.gif', '.webp'])
/** sendPhoto refuses more; a bigger image still goes, as a document. */
const PHOTO_MAX_BYTES = 10 * 1024 * 1024
/** Telegram cuts a press's notice at 200 characters. */
const NOTICE_MAX = 200

export async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw toPlatformError(error, what)
  }
}

/** Message ids are numbers on Telegram; anything else cannot name a message there. */
export function messageIdOf(messageId: string): number {
  if (!/^\d+$/.test(messageId))
    throw new PlatformError(`not a Telegram message id: ${messageId}`, { permanent: true })
  return Number(messageId)
}

export function keyboard(buttons: Button[][]): InlineKeyboardMarkup {
  return { inline_keyboard: buttons.map((row) => row.map((b) => ({ text: b.text, callback_data: b.data }))) }
}

/** Text first, then each file as its own message; the id is the text's (or the first file's). */
export async function sendMessage(api: Api, chatId: string, message: OutgoingMessage): Promise<string> {
  const files = message.files ?? []
  const reply_markup = message.buttons?.length ? keyboard(message.buttons) : undefined
  // A reply to a message deleted meanwhile still goes out, as a plain message.
  const reply_parameters: ReplyParameters | undefined = message.replyTo
    ? { message_id: messageIdOf(message.replyTo), allow_sending_without_reply: true }
    : undefined
  // A forum topic's id (hub/bridges/threads.ts); absent: the chat's main thread.
  const message_thread_id = message.thread === undefined ? undefined : messageIdOf(message.thread)
  let firstId: string | null = null
  // Telegram refuses an empty text; files alone need none.
  if (message.text.trim() !== '' || files.length === 0) {
    const sent = await withPlainFallback(message.markup, (markup) =>
      call('sendMessage', () =>
        markup === undefined
          ? api.sendMessage(chatId, message.text, { reply_markup, reply_parameters, message_thread_id })
          : api.sendMessage(chatId, markup, {
              parse_mode: 'HTML',
              reply_markup,
              reply_parameters,
              message_thread_id,
            }),
      ),
    )
    firstId = String(sent.message_id)
  }
  for (const { name, bytes } of files) {
    const extra = {
      reply_parameters,
      message_thread_id,
      reply_markup: firstId === null ? reply_markup : undefined,
    }
    const file = new InputFile(bytes, name)
    const sent = sendsAsPhoto(name, bytes)
      ? await call('sendPhoto', () => api.sendPhoto(chatId, file, extra))
      : await call('sendDocument', () => api.sendDocument(chatId, file, extra))
    firstId ??= String(sent.message_id)
  }
  return firstId ?? ''
}

function sendsAsPhoto(name: string, bytes: Buffer): boolean {
  return PHOTO_EXTENSIONS.has(extname(name).toLowerCase()) && bytes.length <= PHOTO_MAX_BYTES
}

/** Without reply_markup Telegram would keep no buttons either: always say which ones stay. */
export async function editMessage(
  api: Api,
  chatId: string,
  messageId: string,
  text: string,
  buttons?: Button[][],
  markup?: string,
) {
  const id = messageIdOf(messageId)
  const reply_markup = keyboard(buttons ?? [])
  await withPlainFallback(markup, async (html) => {
    try {
      if (html === undefined) await api.editMessageText(chatId, id, text, { reply_markup })
      else await api.editMessageText(chatId, id, html, { parse_mode: 'HTML', reply_markup })
    } catch (error) {
      if (isNotModified(error)) return
      throw toPlatformError(error, 'editMessageText')
    }
  })
}

export async function react(api: Api, chatId: string, messageId: string, emoji: string): Promise<void> {
  const id = messageIdOf(messageId)
  // Telegram's reaction list spells ❤ without the emoji variation selector people usually type.
  const bare = emoji.replace(/\uFE0F/g, '') as ReactionTypeEmoji['emoji']
  await call('setMessageReaction', () => api.setMessageReaction(chatId, id, [{ type: 'emoji', emoji: bare }]))
}

export async function answerPress(api: Api, pressId: string, notice?: string): Promise<void> {
  const options = notice ? { text: notice.slice(0, NOTICE_MAX) } : {}
  await call('answerCallbackQuery', () => api.answerCallbackQuery(pressId, options))
}
