// What an operator chooses to be told of sessions at terminals: a session waiting for them
// (`waiting`), a turn finished (`finished`), both (the default) or neither. Each operator is a sender
// of one surface (a chat person, an HTTP sender), so choosing per sender chooses per surface too.
import { z } from 'zod'
import { invalid } from './errors.js'

export const NOTICE_KINDS = ['waiting', 'finished'] as const
export type NoticeKind = (typeof NOTICE_KINDS)[number]

export const noticeChoiceSchema = z
  .object({ kinds: z.array(z.enum(NOTICE_KINDS)).max(NOTICE_KINDS.length) })
  .strict()
export type NoticeChoice = z.infer<typeof noticeChoiceSchema>

/** `waiting finished`, `waiting`, `off`, `all`, as a person types them; throws a one-line reason. */
export function noticeKindsOf(words: string[]): NoticeKind[] {
  const said = words.flatMap((w) => w.toLowerCase().split(/[\s,|]+/)).filter(Boolean)
  if (said.length === 1 && (said[0] === 'off' || said[0] === 'none')) return []
  if (said.length === 1 && said[0] === 'all') return [...NOTICE_KINDS]
  const wrong = said.filter((w) => !(NOTICE_KINDS as readonly string[]).includes(w))
  if (!said.length || wrong.length)
    throw invalid(
      `say which notices: ${NOTICE_KINDS.join(', ')}, all or off${wrong.length ? ` (not "${wrong[0]}")` : ''}`,
    )
  return NOTICE_KINDS.filter((k) => said.includes(k))
}

/** One line saying what a choice means. */
export function noticeLine(kinds: readonly NoticeKind[]): string {
  if (!kinds.length) return 'no notices of sessions at terminals'
  const what = { waiting: 'when Claude waits for you', finished: 'when Claude finishes a turn' }
  return `notices ${kinds.map((k) => what[k]).join(' and ')}`
}
