// claude_respond's arguments (seed 004: decision allow|deny, reason, updatedInput) as the answer the
// hub passes to the CLI.
import type { PendingInput, RespondInput } from '../core/session-api.js'
import { questionsOf } from './questions.js'
import type { RespondArgs } from './tools.js'

/**
 * A question's answers, from `updatedInput.answers`: the seed writes one label per question (an
 * array, in the questions' order); the CLI wants question text → label, which is also taken as is.
 */
function answersIn(updatedInput: Record<string, unknown> | undefined, pending: PendingInput | undefined) {
  const given = updatedInput?.answers
  if (Array.isArray(given) && pending) {
    const questions = questionsOf(pending.input)
    return Object.fromEntries(
      given
        .slice(0, questions.length)
        .map((label, i) => [questions[i]?.question, Array.isArray(label) ? label.join(', ') : String(label)]),
    ) as Record<string, string>
  }
  if (given && typeof given === 'object' && Object.values(given).every((v) => typeof v === 'string'))
    return given as Record<string, string>
  return undefined
}

export function hubAnswer(a: RespondArgs, pending: PendingInput | undefined): RespondInput {
  // The seed shows `reason` to Claude on deny only.
  if (a.decision === 'deny') return { behavior: 'deny', message: a.reason ?? 'Denied' }
  const answers = a.answers ?? (pending?.kind === 'question' ? answersIn(a.updatedInput, pending) : undefined)
  if (answers) return { behavior: 'allow', answers }
  return { behavior: 'allow', ...(a.updatedInput ? { updatedInput: a.updatedInput } : {}) }
}
