// How much of a session's work a chat or a thread sees as it happens (`/progress`): nothing beyond
// the replies and notices it gets anyway (`off`, the default), a line when a turn ends (`minimal`),
// one message edited in place with a line per tool call (`normal`), and Claude's text too (`full`).
import * as z from 'zod'

export const PROGRESS_LEVELS = ['off', 'minimal', 'normal', 'full'] as const
export const progressLevelSchema = z.enum(PROGRESS_LEVELS)
export type ProgressLevel = z.infer<typeof progressLevelSchema>

/** What chats get until they choose: what they got before there were levels. */
export const DEFAULT_PROGRESS: ProgressLevel = 'off'

export const PROGRESS_MEANING: Record<ProgressLevel, string> = {
  off: 'no progress messages (replies, prompts and notices as always)',
  minimal: 'a line when a turn finishes, with its cost and time',
  normal: 'one message per turn, edited in place, with a line per tool call',
  full: 'one message per turn with each tool call and Claude’s text as it is written',
}

/** Where a level is kept: a thread's own, else its chat's. */
export function progressKey(chat: string, thread?: string): string {
  return thread ? `${chat}:${thread}` : chat
}
