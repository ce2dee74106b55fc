// Markdown the hub writes (prompts, outcomes) or Claude wrote (replies) made into one message of the
// platform's markup: what does not fit is cut visibly, and an outcome line added under a prompt is
// never the part that is cut.
import type { FormattedText } from '../../sources/chat/chunk-markdown.js'
import type { PlatformAdapter } from '../../sources/chat/platform.js'

const MORE = '…'

/** `markdown` as one message of at most `limit` characters; cut with "…" when it needs more. */
export function oneMessage(adapter: PlatformAdapter, markdown: string, limit: number): FormattedText {
  const room = Math.max(1, limit - MORE.length - 1)
  const [first, ...rest] = adapter.format(markdown, room, 'newline')
  const message = first ?? { markup: '', text: '' }
  if (!rest.length) return message
  return { markup: `${message.markup}\n${MORE}`, text: `${message.text}\n${MORE}` }
}

/** `head` (cut as it must) with `tail` whole under it, a blank line between. */
export function withLine(adapter: PlatformAdapter, head: string, tail: string, limit: number): FormattedText {
  const line = oneMessage(adapter, tail, limit)
  const room = limit - Math.max(line.markup.length, line.text.length) - 2
  const top = oneMessage(adapter, head, Math.max(room, 1))
  return { markup: `${top.markup}\n\n${line.markup}`, text: `${top.text}\n\n${line.text}` }
}
