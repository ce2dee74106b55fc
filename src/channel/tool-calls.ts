// What each of the channel's tools does (their specs: tools.ts). The peer tools, reply and the chat
// tools ask the hub and say what it answered; inbox lists what the delivery kept for Claude.
import type { HubClient } from '../client/hub-client.js'
import { eventMeta, type StoredEvent } from '../core/event.js'
import type { ChatAction, PeerRequest } from '../core/hub-protocol.js'
import { type Tool, type ToolSpec, textResult, tool, toolError } from '../core/tool-call.js'
import { CHAT_ACTIONS, channelTools, PEER_ACTIONS } from './tools.js'

const answered = (r: { ok: boolean; message: string }) =>
  r.ok ? textResult(r.message) : toolError(r.message)

export function toolCalls(
  hub: Pick<HubClient, 'peer' | 'chatAction' | 'reply'>,
  readInbox: (limit: number) => StoredEvent[],
): Record<string, Tool> {
  const peerTools = Object.entries(PEER_ACTIONS).map(([name, action]) => [
    name,
    tool(channelTools[name as keyof typeof PEER_ACTIONS] as ToolSpec, async (a) =>
      answered(await hub.peer({ ...a, action } as PeerRequest)),
    ),
  ])
  const chatTools = Object.entries(CHAT_ACTIONS).map(([name, action]) => [
    name,
    tool(channelTools[name as keyof typeof CHAT_ACTIONS] as ToolSpec, async (a) =>
      answered(await hub.chatAction({ ...a, action } as ChatAction)),
    ),
  ])
  return {
    ...Object.fromEntries(peerTools),
    reply: tool(channelTools.reply, async ({ chat_id, text, reply_to, files }) =>
      answered(await hub.reply(chat_id, text, { reply_to, files })),
    ),
    ...Object.fromEntries(chatTools),
    inbox: tool(channelTools.inbox, async ({ limit }) => {
      const listed = readInbox(limit).map((e) => ({ ...eventMeta(e), content: e.content }))
      return textResult(JSON.stringify(listed, null, 2))
    }),
  }
}
