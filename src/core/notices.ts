// What an operator chooses to be told: a session at a terminal waiting for them (`waiting`), a turn
// finished (`finished`), a routine starting a run (`run-started`) and a run's end (`run-ended`), a
// project reaching a threshold of its daily budget (`budget`); all of them until they choose. Each
// operator is a sender of one surface (a chat person, an HTTP sender), so choosing per sender
// chooses per surface too.
import * as z from 'zod'
import { invalid } from './errors.js'

export const NOTICE_KINDS = ['waiting', 'finished', 'run-started', 'run-ended', 'budget'] as const
export type NoticeKind = (typeof NOTICE_KINDS)[number]

/** The kinds there were before routine runs had notices: a choice remembered without `of` was among these. */
const FIRST_KINDS: readonly NoticeKind[] = ['waiting', 'finished']

export const noticeChoiceSchema = z
  .object({ kinds: z.array(z.enum(NOTICE_KINDS)).max(NOTICE_KINDS.length) })
  .strict()
export type NoticeChoice = z.infer<typeof noticeChoiceSchema>

/**
 * A choice as the hub remembers it: the kinds chosen, and the kinds there were to choose from then
 * (`of`). A kind added since is on until the sender chooses again: they never turned it off.
 */
export const rememberedNoticeChoiceSchema = z.object({
  kinds: z.array(z.string()),
  of: z.array(z.string()).optional(),
})
export type RememberedNoticeChoice = z.infer<typeof rememberedNoticeChoiceSchema>

export function rememberedChoice(kinds: readonly NoticeKind[]): RememberedNoticeChoice {
  return { kinds: [...kinds], of: [...NOTICE_KINDS] }
}

/** The kinds a remembered choice gives: those chosen, and any there was no choosing yet. */
export function kindsOfChoice(choice: RememberedNoticeChoice): NoticeKind[] {
  const offered = choice.of ?? FIRST_KINDS
  return NOTICE_KINDS.filter((k) => choice.kinds.includes(k) || !offered.includes(k))
}

/** `waiting finished`, `run-ended`, `off`, `all`, as a person types them; throws a one-line reason. */
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

/** How a person chooses, in a chat's words: `waiting finished run-started run-ended | all | off`. */
export const NOTICE_USAGE = `${NOTICE_KINDS.join(' ')} | all | off`

/** One line saying what a choice means. */
export function noticeLine(kinds: readonly NoticeKind[]): string {
  if (!kinds.length) return 'no notices of sessions or routine runs'
  const what: Record<NoticeKind, string> = {
    waiting: 'when Claude waits for you',
    finished: 'when Claude finishes a turn',
    'run-started': 'when a routine starts a run',
    'run-ended': 'when a routine’s run ends',
    budget: 'when a project reaches a share of its daily budget',
  }
  const said = kinds.map((k) => what[k])
  const last = said.pop()
  return `notices ${said.length ? `${said.join(', ')} and ${last}` : last}`
}
