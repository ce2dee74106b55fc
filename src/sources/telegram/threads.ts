// A thread per session on Telegram: a forum topic in a supergroup with topics on (the bot an admin
// allowed to manage topics), closed when its session ends and reopened if it speaks again.
import type { Api } from 'grammy'
import type { PlatformThreads } from '../chat/platform.js'
import { call, messageIdOf } from './outbound.js'

/** Telegram's longest topic name. */
const NAME_MAX = 128

export function telegramThreads(api: Api): PlatformThreads {
  return {
    async open(chatId, title) {
      const name = title.length > NAME_MAX ? `${title.slice(0, NAME_MAX - 1)}…` : title
      const topic = await call('createForumTopic', () => api.createForumTopic(chatId, name || 'session'))
      return String(topic.message_thread_id)
    },
    close: (chatId, thread) =>
      unlessAlready('closeForumTopic', () => api.closeForumTopic(chatId, messageIdOf(thread))),
    reopen: (chatId, thread) =>
      unlessAlready('reopenForumTopic', () => api.reopenForumTopic(chatId, messageIdOf(thread))),
    chatOf: (chatId) => chatId,
  }
}

/** Closing a closed topic (or reopening an open one) leaves it as wanted: no failure. */
async function unlessAlready(what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await call(what, run)
  } catch (error) {
    if (!/TOPIC_NOT_MODIFIED/.test((error as Error).message)) throw error
  }
}
