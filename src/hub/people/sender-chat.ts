// A chat message from a sender (an HTTP sender's POST /messages, a browser's web chat): published on
// the sender's own chat topic, to every session that takes chat or to the one named.

import { notFound } from '../../core/errors.js'
import { topicMatches } from '../../core/event.js'
import type { PublishResult, Sender } from '../../store/store.js'
import type { Hub } from '../core/hub.js'

const HTTP_SOURCE = 'http'

export interface SenderChat {
  text: string
  /** One session by name; every one that takes chat when absent. */
  to?: string
  idempotencyKey: string | null
}

export async function chatFromSender(
  hub: Hub,
  sender: Sender,
  message: SenderChat,
): Promise<PublishResult & { chatId: string }> {
  const topic = `chat:${HTTP_SOURCE}:${sender.name}`
  if (message.to !== undefined) {
    const subscriber = await hub.store.getSubscriber(message.to)
    if (!subscriber || !topicMatches(subscriber.topics, topic))
      throw notFound(`no session named "${message.to}" takes chat (see: switchboard peers)`)
  }
  const chat = await hub.store.chatFor(HTTP_SOURCE, sender.id)
  const result = await hub.publish({
    topic,
    source: HTTP_SOURCE,
    sender: sender.name,
    chat_id: chat.id,
    target: message.to ?? null,
    content: message.text,
    meta: {},
    idempotencyKey: message.idempotencyKey,
  })
  return { ...result, chatId: chat.id }
}
