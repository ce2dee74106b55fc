// The dashboard's web chat: the signed-in browser is a sender like any HTTP one, so its messages are
// chat events (`chat:http:<browser>`) and Claude's replies come back through its outbox.
import type { ChatReply } from '../../core/api/rows.js'
import type { MessageOf } from '../../core/outbox.js'
import type { OutboxItem } from '../../store/store.js'
import type { Hub } from '../core/hub.js'

export class ChatReplies {
  private readonly listeners = new Map<string, Set<(id: number, reply: ChatReply) => void>>()

  constructor(private readonly hub: Hub) {}

  /** An item stored for a sender (HubEvents.stored): a reply goes to that browser's open chats. */
  stored(item: OutboxItem): undefined {
    if (item.kind === 'reply')
      for (const listener of this.listeners.get(item.senderId) ?? []) listener(item.id, asReply(item))
    return undefined
  }

  /** Replies after `afterId` (or every one kept), then each new one; returns the unsubscribe. */
  async follow(
    senderId: string,
    afterId: number,
    onReply: (id: number, reply: ChatReply) => void,
  ): Promise<() => void> {
    const held: [number, ChatReply][] = []
    let replaying = true
    let last = afterId
    const deliver = (id: number, reply: ChatReply) => {
      if (id <= last) return
      last = id
      onReply(id, reply)
    }
    const listener = (id: number, reply: ChatReply) =>
      replaying ? held.push([id, reply]) : deliver(id, reply)
    const set = this.listeners.get(senderId) ?? new Set()
    this.listeners.set(senderId, set)
    set.add(listener)
    // Only the replies are read: a browser's outbox also keeps every prompt and verdict it was sent.
    for (const item of await this.hub.outbox.items(senderId, afterId, 'reply'))
      if (item.kind === 'reply') deliver(item.id, asReply(item))
    replaying = false
    for (const [id, reply] of held.splice(0)) deliver(id, reply)
    return () => {
      set.delete(listener)
      if (set.size === 0) this.listeners.delete(senderId)
    }
  }
}

/** What the page is sent of a reply: the fields of ChatReply, not the reply's files or platform ids. */
function asReply({ body }: MessageOf<'reply'>): ChatReply {
  return { chat_id: body.chat_id, text: body.text, from: body.from, at: body.at }
}
