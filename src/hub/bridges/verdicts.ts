// A prompt answered from a chat, by a button or by typing `yes <id>` or `answer <id> <values…>`: one
// way for all, and one line back saying how it went: allowed, denied, or why not (answered already
// and by whom, no longer open, open in several sessions, a failure of its own).
import { answerFor as typedAnswer } from '../../core/answer-values.js'
import { isDomainError } from '../../core/errors.js'
import { PROMPT_KINDS } from '../../core/outbox.js'
import type { Decision, Sender } from '../../store/store.js'
import type { BridgeContext } from './context.js'
import { answerFor, outcomeLine, type PressVerb } from './prompts.js'

/** The open prompts with this code, of every kind a person is asked. */
export async function openPrompts(context: BridgeContext, code: string): Promise<Decision[]> {
  const now = Date.now()
  const { store } = context.hub
  return (await Promise.all(PROMPT_KINDS.map((kind) => store.openDecisionsByCode(kind, code, now)))).flat()
}

/**
 * Why `code` cannot be answered now, as this operator was shown it: answered (how, by whom), or
 * ended unanswered; null when they were never shown a prompt of that code.
 */
export async function whyClosed(
  context: BridgeContext,
  sender: Sender,
  code: string,
): Promise<string | null> {
  const about = await context.hub.outbox.about(sender.id, code)
  const outcome = about.flatMap((i) => (i.kind === 'decision' ? [i.body] : [])).at(-1)
  if (outcome?.status === 'answered')
    return `${code} was already answered: ${outcomeLine(outcome.answer, outcome.answered_by ?? 'someone')}`
  return about.length ? `${code} is no longer open: its session ended or withdrew it` : null
}

/** The one open prompt `code` names for this operator, or why there is none to act on. */
export async function openPrompt(
  context: BridgeContext,
  sender: Sender,
  code: string,
): Promise<{ decision: Decision } | { why: string }> {
  const open = await openPrompts(context, code)
  if (open.length > 1) return { why: `${code} is open in several sessions: answer it in the terminal` }
  const [decision] = open
  if (decision) return { decision }
  return { why: (await whyClosed(context, sender, code)) ?? `No open prompt ${code}` }
}

/** Answers the open prompt `code` for an operator by a button or `yes <id>`; resolves with the line to show them. */
export async function answerFromChat(
  context: BridgeContext,
  sender: Sender,
  code: string,
  verb: Exclude<PressVerb, 'more'>,
  choices: number[] | null,
): Promise<string> {
  return answerWith(context, sender, code, (decision, by) => {
    const answer = answerFor(decision.kind, decision.request, verb, choices, by)
    if (answer) return answer
    return decision.kind === 'question'
      ? `${code} is a question: pick an option, or type answer ${code} <one answer per question>`
      : 'That button does not fit this prompt'
  })
}

/**
 * `answer <id> <values…>` typed in a chat: a question's answers, one per question in order (an
 * option's label or number, or words of one's own, "quoted" when they have spaces), or yes/no.
 */
export async function answerTypedInChat(
  context: BridgeContext,
  sender: Sender,
  code: string,
  values: string[],
): Promise<string> {
  return answerWith(context, sender, code, (decision) => {
    try {
      return typedAnswer(decision, values) as Record<string, unknown>
    } catch (err) {
      if (isDomainError(err)) return err.message
      throw err
    }
  })
}

/** `answer abcde 2 "port 9000"`: the code and the values, or null when the text is no answer. */
export function parseAnswerText(text: string): { code: string; values: string[] } | null {
  const m = /^\s*answer\s+([a-km-z]{5})\s+(.+)$/is.exec(text)
  if (!m?.[1] || !m[2]) return null
  const values = [...m[2].matchAll(/"([^"]*)"|“([^”]*)”|(\S+)/g)].map((v) => v[1] ?? v[2] ?? v[3] ?? '')
  return values.length ? { code: m[1].toLowerCase(), values } : null
}

/**
 * Answers the open prompt `code` with what `build` makes of it (a string: why it cannot), for an
 * operator; resolves with the line to show them.
 */
async function answerWith(
  context: BridgeContext,
  sender: Sender,
  code: string,
  build: (decision: Decision, by: string) => Record<string, unknown> | string,
): Promise<string> {
  const found = await openPrompt(context, sender, code)
  if ('why' in found) return found.why
  const { decision } = found
  const by = `${sender.displayName ?? sender.name} (${context.platform})`
  const answer = build(decision, by)
  if (typeof answer === 'string') return answer
  try {
    await context.hub.decisions.answer(decision, answer, by)
  } catch (err) {
    if (isDomainError(err) && err.kind === 'conflict')
      return (await whyClosed(context, sender, code)) ?? `${code} was answered a moment ago`
    context.log.error({ err, code }, 'answer from a chat not recorded')
    return `${code} was not answered: ${(err as Error).message}`
  }
  const answers = answer.answers as Record<string, string> | undefined
  if (answers) return `✅ Answered "${Object.values(answers).join(', ')}" (${code})`
  return answer.behavior === 'allow' ? `✅ Allowed ${code}` : `❌ Denied ${code}`
}
