// claude_respond's arguments (seed 004: decision allow|deny, reason, updatedInput) as the answer the
// hub passes to the CLI; switchboard_answer's, for any session's prompt, as `switchboard answer` makes it.
import { agentSchema } from '../core/agents.js'
import { answerFor, questionsOf as questionsOfRequest } from '../core/answer-values.js'
import type { DecisionRow } from '../core/api/rows.js'
import { invalid } from '../core/errors.js'
import { isPromptKind, type PromptKind } from '../core/outbox.js'
import type { PendingInput, RespondInput } from '../core/session-api.js'
import { questionsOf } from './questions.js'
import type { AnswerArgs, RespondArgs } from './tools.js'

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

/** A prompt a person is asked (not a pairing request, which the access tools handle). */
export function isPrompt(d: DecisionRow): d is DecisionRow & { kind: PromptKind } {
  return isPromptKind(d.kind)
}

/** An open prompt as switchboard_decisions lists it. */
export function decisionResult(d: DecisionRow & { kind: PromptKind }, now: number) {
  const input = d.request.input
  const questions = d.kind === 'question' ? questionsOfRequest(d.request) : []
  return {
    code: d.code,
    decisionId: d.id,
    kind: d.kind,
    session: d.owner,
    ...(typeof d.request.project === 'string' ? { project: d.request.project } : {}),
    ...(agentSchema.safeParse(d.request.agent).success ? { agent: agentSchema.parse(d.request.agent) } : {}),
    toolName: String(d.request.tool_name ?? ''),
    toolInput:
      input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {},
    ...(questions.length ? { questions } : {}),
    waitingSeconds: Math.max(0, Math.round((now - d.createdAt) / 1000)),
    // What happens if nobody answers, and when (core/decision-timeout.ts); absent: it waits on.
    ...(d.expiresAt !== null && d.onTimeout !== null
      ? { expiresAt: d.expiresAt, onTimeout: d.onTimeout }
      : {}),
  }
}

/** What Claude is told of a deny that gives no reason. */
const DENIED: Partial<Record<DecisionRow['kind'], string>> = {
  plan: 'Keep planning',
  question: 'The user declined to answer.',
}

/** switchboard_answer's arguments as the answer the prompt records, as `switchboard answer` makes it. */
export function promptAnswer(d: DecisionRow, a: AnswerArgs): RespondInput {
  if (a.decision === 'deny') return { behavior: 'deny', message: a.reason ?? DENIED[d.kind] ?? 'Denied' }
  if (d.kind === 'question') {
    if (!a.answers?.length) throw invalid('a question is answered with answers: one per question, in order')
    return answerFor(d, a.answers) as RespondInput
  }
  return { behavior: 'allow', ...(a.updatedInput ? { updatedInput: a.updatedInput } : {}) }
}
