// A thread per session on Discord: a public thread in the text channel the bridge was added to,
// archived when its session ends (a message sent there later brings it back).
import { ChannelType, type REST, Routes } from 'discord.js'
import type { PlatformThreads } from '../chat/platform.js'
import { call } from './errors.js'

/** Discord's longest thread name. */
const NAME_MAX = 100
/** A week without messages before Discord archives it by itself. */
const ARCHIVE_AFTER_MINUTES = 10080

export function discordThreads(rest: REST): PlatformThreads {
  const archive = (thread: string, archived: boolean) =>
    call('thread', () => rest.patch(Routes.channel(thread), { body: { archived } })).then(() => undefined)
  return {
    async open(chatId, title) {
      const name = (title.length > NAME_MAX ? `${title.slice(0, NAME_MAX - 1)}…` : title) || 'session'
      const body = { name, type: ChannelType.PublicThread, auto_archive_duration: ARCHIVE_AFTER_MINUTES }
      const thread = (await call('thread', () => rest.post(Routes.threads(chatId), { body }))) as {
        id: string
      }
      return thread.id
    },
    close: (_chatId, thread) => archive(thread, true),
    reopen: (_chatId, thread) => archive(thread, false),
    // A thread is a channel of its own: its messages are edited and reacted to there.
    chatOf: (_chatId, thread) => thread,
  }
}
