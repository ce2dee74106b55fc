// A prompt answered from a chat, by a button or by typing `yes <id>`: one way for both, and one line
// back saying how it went: allowed, denied, or why not (answered already and by whom, no longer
// open, open in several sessions, a failure of its own).
import { isDomainError } from '../../core/errors.js'
import type { Decision, Sender } from '../../store/store.js'
import type { BridgeContext } from './context.js'
import { answerFor, outcomeLine, PROMPT_KINDS, type PressVerb } from './prompts.js'

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
  const about = await context.hub.store.outboxAbout(sender.id, code)
  const outcome = about.filter((i) => i.kind === 'decision').at(-1)
  if (outcome?.body.status === 'answered')
    return `${code} was already answered: ${outcomeLine(
      outcome.body.answer as Record<string, unknown> | undefined,
      String(outcome.body.answered_by),
    )}`
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

/** Answers the open prompt `code` for an operator; resolves with the line to show them. */
export async function answerFromChat(
  context: BridgeContext,
  sender: Sender,
  code: string,
  verb: Exclude<PressVerb, 'more'>,
  option: number | null,
): Promise<string> {
  const found = await openPrompt(context, sender, code)
  if ('why' in found) return found.why
  const { decision } = found
  const by = `${sender.displayName ?? sender.name} (${context.platform})`
  const answer = answerFor(decision.kind, decision.request, verb, option, by)
  if (!answer) return 'That button does not fit this prompt'
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
