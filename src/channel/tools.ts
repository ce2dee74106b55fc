// The channel's tools, as Claude sees them: the zod schemas their arguments are checked with, from
// which tools/list derives the JSON Schema Claude reads (core/tool-call.ts).
import * as z from 'zod'
import { type ChatAction, type PeerRequest, peerRequestSchema } from '../core/hub-protocol.js'
import type { ToolSpec } from '../core/tool-call.js'

const chatId = z
  .string({ error: 'chat_id is required (the chat_id attribute of the <channel> tag)' })
  .min(1)
  .describe('The chat_id attribute of the <channel> tag you are answering')
const messageId = z
  .string({ error: 'message_id is required (the message_id attribute of the <channel> tag)' })
  .min(1)
  .describe('A message_id from a <channel> tag, or one a reply returned')

export const replyArgs = z.object({
  chat_id: chatId,
  text: z
    .string({ error: 'text is required' })
    .min(1, 'text must not be empty')
    .describe('The message to send'),
  reply_to: z
    .string()
    .min(1)
    .optional()
    .describe('Bridged chats: the message_id this answers (shown as a reply)'),
  files: z
    .array(z.string().min(1).startsWith('/', 'files are absolute paths'))
    .max(10)
    .optional()
    .describe('Bridged chats: absolute paths of files to attach (images are shown as photos)'),
})

/** What Claude may do in a bridged chat (Telegram, Discord, Slack) besides replying. */
export const chatToolArgs = {
  react: z.object({
    chat_id: chatId,
    message_id: messageId,
    emoji: z.string({ error: 'emoji is required' }).min(1).max(32).describe('One emoji, e.g. 👍'),
  }),
  edit_message: z.object({
    chat_id: chatId,
    message_id: messageId.describe('The id of a message you sent (a reply returns it)'),
    text: z.string({ error: 'text is required' }).min(1).describe('The new text'),
  }),
  download_attachment: z.object({
    chat_id: chatId,
    file_id: z
      .string({ error: 'file_id is required (the attachment_file_id attribute)' })
      .min(1)
      .describe('The attachment_file_id attribute of the <channel> tag'),
  }),
  fetch_messages: z.object({
    chat_id: chatId,
    limit: z.number().int().min(1).max(100).default(20).describe('How many (default 20, at most 100)'),
  }),
} as const

/** The hub's name for each chat tool's action (core/hub-protocol.ts chatActionSchema). */
export const CHAT_ACTIONS: Record<keyof typeof chatToolArgs, ChatAction['action']> = {
  react: 'react',
  edit_message: 'edit',
  download_attachment: 'download',
  fetch_messages: 'fetch',
}

export const inboxArgs = z.object({
  limit: z.number().int().min(1).max(500).default(20).describe('How many (default 20, at most 500)'),
})

/** The peer tools' arguments: the hub's peer request (core/hub-protocol.ts) less its action. */
function peerArgs(action: PeerRequest['action'], described: Record<string, string> = {}): z.ZodObject {
  const option = peerRequestSchema.options.find((o) => o.shape.action.value === action)
  if (!option) throw new Error(`no peer request ${action}`)
  const shape = Object.entries(option.shape).filter(([key]) => key !== 'action')
  return z.object(Object.fromEntries(shape.map(([key, s]) => [key, s.describe(described[key] ?? key)])))
}
const to = 'The peer’s name (the from attribute of a message you got, or see peers)'
const room = 'A room name'
const text = 'The message'

/** The peer tools, each the action of the peer request it makes. */
export const PEER_ACTIONS = {
  peers: 'list',
  send: 'send',
  broadcast: 'broadcast',
  join: 'join',
  leave: 'leave',
  send_room: 'send_room',
} as const satisfies Record<string, PeerRequest['action']>

/** Every tool of the channel as Claude sees it, in the order tools/list gives them. */
export const channelTools = {
  peers: {
    description:
      'List the other Claude Code sessions reachable through Switchboard (live or not), with their rooms.',
    args: peerArgs('list'),
  },
  send: {
    description:
      'Send a message to another session. It arrives there as a <channel> event with from="<you>".',
    args: peerArgs('send', { to, text }),
  },
  broadcast: { description: 'Send a message to every other session.', args: peerArgs('broadcast', { text }) },
  join: { description: 'Join a room, to get what is sent to it.', args: peerArgs('join', { room }) },
  leave: { description: 'Leave a room.', args: peerArgs('leave', { room }) },
  send_room: {
    description: 'Send a message to every other member of a room you joined.',
    args: peerArgs('send_room', { room, text }),
  },
  reply: {
    description:
      'Send a message back to the person who wrote in a Switchboard chat. They cannot see the transcript; ' +
      'this is the only way they hear from you.',
    args: replyArgs,
  },
  react: { description: 'Bridged chats: add an emoji reaction to a message.', args: chatToolArgs.react },
  edit_message: {
    description: 'Bridged chats: change the text of a message you sent (no new notification on the phone).',
    args: chatToolArgs.edit_message,
  },
  download_attachment: {
    description:
      'Bridged chats: download a file someone sent (see attachment_file_id) and get its local path.',
    args: chatToolArgs.download_attachment,
  },
  fetch_messages: {
    description: 'Bridged chats (Discord, Slack): read the latest messages of the chat, oldest first.',
    args: chatToolArgs.fetch_messages,
  },
  inbox: {
    description: 'List the latest events Switchboard delivered to this session, newest first.',
    args: inboxArgs,
  },
} satisfies Record<string, ToolSpec>
