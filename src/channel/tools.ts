// The channel's tools, as Claude sees them, and the schemas their arguments are checked with.
import { z } from 'zod'

export const replyArgs = z.object({
  chat_id: z.string({ error: 'chat_id is required (the chat_id attribute of the <channel> tag)' }).min(1),
  text: z.string({ error: 'text is required' }).min(1, 'text must not be empty'),
})

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
    inputSchema: {
      type: 'object' as const,
      properties: {
        chat_id: {
          type: 'string',
          description: 'The chat_id attribute of the <channel> tag you are answering',
        },
        text: { type: 'string', description: 'The message to send' },
      },
      required: ['chat_id', 'text'],
    },
  },
  {
    name: 'inbox',
    description: 'List the latest events Switchboard delivered to this session, newest first.',
    inputSchema: {
      type: 'object' as const,
      properties: { limit: { type: 'number', description: 'How many (default 20, at most 500)' } },
    },
  },
]
