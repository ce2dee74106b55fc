// Telegram updates in the hub's shape: a message becomes an InboundMessage, a button press a
// ButtonPress; everything the bridge decides on (chat kind, sender, mention) is settled here.
import type { CallbackQuery, Chat, Message, MessageEntity, User, UserFromGetMe } from 'grammy/types'
import type { ButtonPress, InboundAttachment, InboundMessage } from '../chat/platform.js'

export function toInbound(message: Message, me: UserFromGetMe): InboundMessage | null {
  // Channel posts and service messages have no sender a gate could check.
  if (!message.from) return null
  return {
    chatId: String(message.chat.id),
    chatType: chatType(message.chat),
    messageId: String(message.message_id),
    userId: String(message.from.id),
    userName: userName(message.from),
    text: message.text ?? message.caption ?? '',
    ts: new Date(message.date * 1000).toISOString(),
    mentioned: mentions(message, me),
    attachments: attachments(message),
    // A reply chain in a plain group has a message_thread_id too: only a forum topic is a thread here.
    ...(message.is_topic_message && message.message_thread_id !== undefined
      ? { thread: String(message.message_thread_id) }
      : {}),
  }
}

export function toPress(query: CallbackQuery): ButtonPress | null {
  // Presses on inline-mode messages carry no chat: nothing the hub sent, so nothing to answer for.
  const message = query.message
  if (!message || query.data === undefined) return null
  return {
    pressId: query.id,
    chatId: String(message.chat.id),
    chatType: chatType(message.chat),
    messageId: String(message.message_id),
    userId: String(query.from.id),
    userName: userName(query.from),
    data: query.data,
  }
}

function chatType(chat: Chat): 'dm' | 'group' {
  return chat.type === 'private' ? 'dm' : 'group'
}

function userName(user: User): string {
  return user.username ?? user.first_name
}

function mentions(message: Message, me: UserFromGetMe): boolean {
  if (message.reply_to_message?.from?.id === me.id) return true
  const text = message.text ?? message.caption ?? ''
  const handle = `@${me.username}`.toLowerCase()
  if (text.toLowerCase().includes(handle)) return true
  const entities: MessageEntity[] = message.entities ?? message.caption_entities ?? []
  return entities.some((entity) => {
    if (entity.type === 'text_mention') return entity.user.id === me.id
    if (entity.type !== 'mention') return false
    return text.slice(entity.offset, entity.offset + entity.length).toLowerCase() === handle
  })
}

function attachments(message: Message): InboundAttachment[] {
  const found: InboundAttachment[] = []
  if (message.photo && message.photo.length > 0) {
    // Telegram sends several sizes of one photo; the largest is the one worth reading.
    const largest = message.photo.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a))
    found.push({
      kind: 'photo',
      ref: largest.file_id,
      name: null,
      mime: 'image/jpeg',
      size: largest.file_size ?? null,
    })
  }
  const files = [
    { kind: 'document', file: message.document },
    { kind: 'audio', file: message.audio },
    { kind: 'video', file: message.video },
    { kind: 'voice', file: message.voice },
  ] as const
  for (const { kind, file } of files) {
    if (!file) continue
    const name = 'file_name' in file ? (file.file_name ?? null) : null
    found.push({ kind, ref: file.file_id, name, mime: file.mime_type ?? null, size: file.file_size ?? null })
  }
  if (message.sticker) {
    const sticker = message.sticker
    found.push({
      kind: 'sticker',
      ref: sticker.file_id,
      name: null,
      mime: null,
      size: sticker.file_size ?? null,
    })
  }
  return found
}
