// What fetch_messages reads on Slack, in Slack's shapes: a channel's latest messages
// (conversations.history, newest first and its top-level messages only) or a thread's
// (conversations.replies: the parent first, then its replies oldest first, page by page).
import type { webApi } from '@slack/bolt'
import { toPlatformError } from './errors.js'

/** What is read of a message, as both methods give it. */
export interface SlackMessage {
  ts?: string
  user?: string
  username?: string
  bot_id?: string
  text?: string
}

/** Slack takes at most 999 a page and suggests no more than 200. */
const PAGE = 200
/**
 * Pages read of one thread at most: replies come oldest first, so its latest are on its last page.
 * A thread longer than this gives the latest of what was read.
 */
const MAX_PAGES = 20

function clamp(limit: number): number {
  return Math.min(Math.max(Math.floor(limit), 1), 999)
}

/** The channel's latest `limit` messages, oldest first. */
export async function channelMessages(
  web: webApi.WebClient,
  channel: string,
  limit: number,
): Promise<SlackMessage[]> {
  const page = await web.conversations
    .history({ channel, limit: clamp(limit) })
    .catch((error: unknown) => Promise.reject(toPlatformError(error, `conversations.history of ${channel}`)))
  return [...(page.messages ?? [])].reverse()
}

/** The thread's latest `limit` messages (its parent among them while it is), oldest first. */
export async function threadMessages(
  web: webApi.WebClient,
  channel: string,
  thread: string,
  limit: number,
): Promise<SlackMessage[]> {
  const keep = clamp(limit)
  const seen = new Set<string>()
  let kept: SlackMessage[] = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await web.conversations
      .replies({ channel, ts: thread, limit: PAGE, ...(cursor ? { cursor } : {}) })
      .catch((error: unknown) =>
        Promise.reject(toPlatformError(error, `conversations.replies of ${thread} in ${channel}`)),
      )
    // Whether a later page repeats the parent is not promised either way: each message once.
    for (const message of answer.messages ?? []) {
      if (!message.ts || seen.has(message.ts)) continue
      seen.add(message.ts)
      kept.push(message)
    }
    kept = kept.slice(-keep)
    cursor = answer.response_metadata?.next_cursor || undefined
    if (!answer.has_more || !cursor) break
  }
  return kept
}
