// The channel's tools, as Claude sees them, and the schemas their arguments are checked with.
import { z } from 'zod'

export const replyArgs = z.object({
  chat_id: z.string({ error: 'chat_id is required (the chat_id attribute of the <channel> tag)' }).min(1),
  text: z.string({ error: 'text is required' }).min(1, 'text must not be empty'),
})

export const inboxArgs = z.object({
  limit: z.number().int().min(1).max(500).default(20),
})

export const channelTools = [
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
