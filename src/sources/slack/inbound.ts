// Slack's events in the hub's terms: a `message` (or `app_mention`) event becomes an InboundMessage,
// a `block_actions` payload a ButtonPress. Pure functions; names are looked up by the caller.
import type { ButtonPress, InboundAttachment, InboundMessage } from '../chat/platform.js'

/** The fields of a Slack message event this bridge reads (Slack sends many more). */
export interface SlackMessageEvent {
  type: string
  subtype?: string
  channel?: string
  channel_type?: string
  user?: string
  bot_id?: string
  text?: string
  ts?: string
  thread_ts?: string
  parent_user_id?: string
  files?: SlackFile[]
}

export interface SlackFile {
  id?: string
  /** `slack_audio` for an audio clip recorded in Slack (`slack_video` for a video clip). */
  subtype?: string
  name?: string
  title?: string
  mimetype?: string
  size?: number
  url_private?: string
  url_private_download?: string
}

/** The fields of a `block_actions` payload this bridge reads. */
export interface SlackBlockActions {
  type: string
  trigger_id?: string
  user?: { id?: string; username?: string; name?: string }
  channel?: { id?: string }
  container?: { channel_id?: string; message_ts?: string }
  message?: { ts?: string }
  actions?: { value?: string; action_ts?: string }[]
}

/** Edits, deletions, joins and the like are not something a person said to the bot. */
const TAKEN_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast'])

/** A Slack ts (`1700000000.000100`: seconds and a counter) as an ISO time. */
export function slackTsToIso(ts: string | undefined): string {
  const seconds = Number(ts)
  return Number.isFinite(seconds)
    ? new Date(Math.floor(seconds * 1000)).toISOString()
    : new Date().toISOString()
}

/** `im` is a DM; channels, private channels (`group`) and group DMs (`mpim`) are groups. */
export function chatTypeOf(channelType: string | undefined, channel: string | undefined): 'dm' | 'group' {
  if (channelType) return channelType === 'im' ? 'dm' : 'group'
  return channel?.startsWith('D') ? 'dm' : 'group'
}

/** Whether the event is a person writing (never a bot, never an edit or a join). */
export function isPersonMessage(event: SlackMessageEvent, botUserId: string): boolean {
  if (event.bot_id || event.subtype === 'bot_message') return false
  if (!TAKEN_SUBTYPES.has(event.subtype)) return false
  return Boolean(event.user && event.user !== botUserId && event.channel && event.ts)
}

/**
 * An audio clip recorded in Slack (subtype slack_audio) is a voice note, transcribed as Telegram's
 * are; an audio file someone uploaded is a file.
 */
function kindOf(file: SlackFile): InboundAttachment['kind'] {
  if (file.mimetype?.startsWith('image/')) return 'photo'
  return file.subtype === 'slack_audio' ? 'voice' : 'file'
}

export function attachmentsOf(files: SlackFile[] | undefined): InboundAttachment[] {
  return (files ?? [])
    .filter((file) => file.url_private)
    .map((file) => ({
      kind: kindOf(file),
      ref: file.url_private ?? '',
      name: file.name ?? file.title ?? null,
      mime: file.mimetype ?? null,
      size: typeof file.size === 'number' ? file.size : null,
    }))
}

/** A person's message; `viaMention` when it came as an `app_mention` event. */
export function toInboundMessage(
  event: SlackMessageEvent,
  botUserId: string,
  userName: string,
  viaMention: boolean,
): InboundMessage {
  const text = event.text ?? ''
  const answersBot = Boolean(
    event.thread_ts && event.thread_ts !== event.ts && event.parent_user_id === botUserId,
  )
  return {
    chatId: event.channel ?? '',
    chatType: chatTypeOf(event.channel_type, event.channel),
    messageId: event.ts ?? '',
    userId: event.user ?? '',
    userName,
    text,
    ts: slackTsToIso(event.ts),
    mentioned: viaMention || text.includes(`<@${botUserId}>`) || answersBot,
    attachments: attachmentsOf(event.files),
    ...(event.thread_ts && event.thread_ts !== event.ts ? { thread: event.thread_ts } : {}),
  }
}

/** A button press, or null for a payload that holds no button of a message. */
export function toButtonPress(
  body: SlackBlockActions,
  userName: string,
  fallbackId: string,
): ButtonPress | null {
  const action = body.actions?.[0]
  const chatId = body.channel?.id ?? body.container?.channel_id
  const messageId = body.container?.message_ts ?? body.message?.ts
  const userId = body.user?.id
  if (!action || typeof action.value !== 'string' || !chatId || !messageId || !userId) return null
  return {
    pressId: body.trigger_id ?? fallbackId,
    chatId,
    chatType: chatTypeOf(undefined, chatId),
    messageId,
    userId,
    userName,
    data: action.value,
  }
}
