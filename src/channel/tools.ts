// The channel's tools, as Claude sees them, and the schemas their arguments are checked with.
import { z } from 'zod'

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
export const CHAT_ACTIONS: Record<string, 'react' | 'edit' | 'download' | 'fetch'> = {
  react: 'react',
  edit_message: 'edit',
  download_attachment: 'download',
  fetch_messages: 'fetch',
}

const chatToolDescriptions: Record<keyof typeof chatToolArgs, string> = {
  react: 'Bridged chats: add an emoji reaction to a message.',
  edit_message: 'Bridged chats: change the text of a message you sent (no new notification on the phone).',
  download_attachment:
    'Bridged chats: download a file someone sent (see attachment_file_id) and get its local path.',
  fetch_messages: 'Bridged chats (Discord, Slack): read the latest messages of the chat, oldest first.',
}

/** The JSON Schema Claude sees, derived from the zod schema the arguments are checked with. */
function inputSchemaOf(schema: z.ZodObject): { type: 'object'; properties: Record<string, unknown> } {
  return z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as {
    type: 'object'
    properties: Record<string, unknown>
  }
}

export const inboxArgs = z.object({
  limit: z.number().int().min(1).max(500).default(20),
})

const to = {
  type: 'string',
  description: 'The peer’s name (the from attribute of a message you got, or see peers)',
}
const room = { type: 'string', description: 'A room name' }
const message = { type: 'string', description: 'The message' }
const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object' as const,
  properties,
  required,
})

/** The peer tools and the peer request each one makes. */
export const peerTools = {
  peers: {
    description:
      'List the other Claude Code sessions reachable through Switchboard (live or not), with their rooms.',
    inputSchema: object({}, []),
  },
  send: {
    description:
      'Send a message to another session. It arrives there as a <channel> event with from="<you>".',
    inputSchema: object({ to, text: message }, ['to', 'text']),
  },
  broadcast: {
    description: 'Send a message to every other session.',
    inputSchema: object({ text: message }, ['text']),
  },
  join: { description: 'Join a room, to get what is sent to it.', inputSchema: object({ room }, ['room']) },
  leave: { description: 'Leave a room.', inputSchema: object({ room }, ['room']) },
  send_room: {
    description: 'Send a message to every other member of a room you joined.',
    inputSchema: object({ room, text: message }, ['room', 'text']),
  },
} as const

export const channelTools = [
  ...Object.entries(peerTools).map(([name, tool]) => ({ name, ...tool })),
  {
    name: 'reply',
    description:
      'Send a message back to the person who wrote in a Switchboard chat. They cannot see the transcript; ' +
      'this is the only way they hear from you.',
    inputSchema: inputSchemaOf(replyArgs),
  },
  ...Object.entries(chatToolArgs).map(([name, schema]) => ({
    name,
    description: chatToolDescriptions[name as keyof typeof chatToolArgs],
    inputSchema: inputSchemaOf(schema),
  })),
  {
    name: 'inbox',
    description: 'List the latest events Switchboard delivered to this session, newest first.',
    inputSchema: {
      type: 'object' as const,
      properties: { limit: { type: 'number', description: 'How many (default 20, at most 500)' } },
    },
  },
]
