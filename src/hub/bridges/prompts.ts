// Decisions as a phone shows them (in markdown, which each platform renders its own way): a message with buttons (Allow, Deny, See more, one per option
// of a question), the button data that comes back, the answer a press records, and the outcome an
// answered prompt is edited into. A call of several questions is answered one question at a time:
// each option's button carries the choices made so far, so the message is the only state.

import { namedWithAgent } from '../../core/agents.js'
import { TIMEOUT_ANSWERER, timeoutLine } from '../../core/decision-timeout.js'
import type { PromptBody, PromptKind } from '../../core/outbox.js'
import { claudeSaid, cutVisibly } from '../../core/tool-call-text.js'
import { codeBlock, escapeMarkdown } from '../../sources/chat/markdown.js'
import type { Button } from '../../sources/chat/platform.js'
import { inputOf } from '../people/rules.js'
import { promptView } from './prompt-view.js'

/** How much of a call a prompt shows before See more. */
const SUMMARY_LIMIT = 600

interface Question {
  question: string
  options: { label: string }[]
}

/** The questions of an AskUserQuestion call, where its input has them. */
export function questionsOf(input: unknown): Question[] {
  const questions = (input as { questions?: unknown })?.questions
  if (!Array.isArray(questions)) return []
  return questions.flatMap((q) => {
    const question = typeof q?.question === 'string' ? q.question : null
    const options = Array.isArray(q?.options)
      ? q.options.filter((o: unknown) => typeof (o as { label?: unknown })?.label === 'string')
      : []
    return question ? [{ question, options }] : []
  })
}

/**
 * `sb:<verb>:<code>[:<choices>]`, within Telegram's 64 bytes: an option's button carries the option
 * chosen for each question so far, this one's last (`0.1`: the first question's first option, the
 * second's second).
 */
export type PressVerb = 'allow' | 'deny' | 'more' | 'option'
const VERB_CODES: Record<PressVerb, string> = { allow: 'a', deny: 'd', more: 'm', option: 'o' }
/** AskUserQuestion asks at most four questions; a few more are read, none beyond. */
const MAX_QUESTIONS = 8
const MAX_OPTIONS = 10

export function buttonData(verb: PressVerb, code: string, choices?: number[]): string {
  return `sb:${VERB_CODES[verb]}:${code}${choices === undefined ? '' : `:${choices.join('.')}`}`
}

export function parseButtonData(
  data: string,
): { verb: PressVerb; code: string; choices: number[] | null } | null {
  const m = /^sb:([admo]):([a-km-z]{5})(?::(\d{1,2}(?:\.\d{1,2}){0,7}))?$/.exec(data)
  if (!m?.[1] || !m[2]) return null
  const verb = (Object.entries(VERB_CODES).find(([, c]) => c === m[1])?.[0] ?? 'deny') as PressVerb
  return { verb, code: m[2], choices: m[3] === undefined ? null : m[3].split('.').map(Number) }
}

/**
 * A question prompt with `chosen` made: each question, those answered with their answer, and the
 * next one's options as buttons (each carrying the choices so far and its own). Markdown.
 */
export function questionMessage(
  code: string,
  session: string,
  input: unknown,
  chosen: number[] = [],
): { text: string; buttons: Button[][] } {
  const questions = questionsOf(input).slice(0, MAX_QUESTIONS)
  const several = questions.length > 1
  const lines = [`❓ ${escapeMarkdown(session)} asks:`]
  questions.forEach((q, i) => {
    const label = i < chosen.length ? q.options[chosen[i] as number]?.label : undefined
    const mark = i === chosen.length && several ? '▶ ' : ''
    const asked = escapeMarkdown(q.question)
    lines.push(
      `${mark}${several ? `${i + 1}. ` : ''}${asked}${label ? ` → **${escapeMarkdown(label)}**` : ''}`,
    )
  })
  if (!questions.length) lines.push('(a question)')
  const hint = several ? `answer ${code} <one answer per question>` : `answer ${code} <your answer>`
  const next = questions[chosen.length]
  const options = (next?.options ?? []).slice(0, MAX_OPTIONS)
  return {
    text: `${lines.join('\n')}\n\n(id ${code}; words of your own: ${hint})`,
    buttons: [
      ...options.map((o, i) => [
        { text: o.label.slice(0, 60), data: buttonData('option', code, [...chosen, i]) },
      ]),
      [{ text: 'Dismiss', data: buttonData('deny', code) }],
    ],
  }
}

/**
 * Where pressing options leaves a question: every question has its choice (the answers), or the
 * next question is to be shown (`next`: how many are chosen); null when a choice names no option.
 */
export function questionStep(
  input: unknown,
  choices: number[],
): { answers: Record<string, string> } | { next: number; said: string } | null {
  const questions = questionsOf(input).slice(0, MAX_QUESTIONS)
  if (!choices.length || choices.length > questions.length) return null
  const labels = choices.map((c, i) => questions[i]?.options[c]?.label)
  if (labels.some((l) => l === undefined)) return null
  if (choices.length < questions.length)
    return { next: choices.length, said: `${questions[choices.length - 1]?.question} → ${labels.at(-1)}` }
  return { answers: Object.fromEntries(questions.map((q, i) => [q.question, labels[i] as string])) }
}

/** A prompt's two buttons, by its kind: allow's word, then deny's. */
const ANSWER_WORDS: Record<Exclude<PromptKind, 'question'>, [string, string]> = {
  permission: ['Allow', 'Deny'],
  plan: ['Approve', 'Keep planning'],
  denied: ['Allow a retry', 'Leave it denied'],
}

/** A prompt's outbox body (hub/people/decisions.ts): what the message says (markdown) and its buttons. */
export function promptMessage(kind: PromptKind, body: PromptBody): { text: string; buttons: Button[][] } {
  const code = body.id
  // Named as people call it ("api · fix the flaky test"); a prompt from before names only its key.
  const session = namedWithAgent(body.session_name ?? body.session, body.agent)
  const tool = body.tool_name ?? ''
  // What happens if nobody answers, one line under the prompt.
  const end =
    body.expires_at !== undefined && body.on_timeout
      ? `\n⏱ ${timeoutLine(body.expires_at, body.on_timeout)}`
      : ''
  if (kind === 'question') {
    const asked = questionMessage(code, session, body.input)
    return { ...asked, text: `${asked.text}${end}` }
  }
  const title =
    kind === 'plan'
      ? `**📋 Plan review** — ${escapeMarkdown(session)}`
      : kind === 'denied'
        ? `**🛑 Auto mode denied ${escapeMarkdown(tool)}** — ${escapeMarkdown(session)}`
        : `**🔐 Permission: ${escapeMarkdown(tool)}** — ${escapeMarkdown(session)}`
  const [allow, deny] = ANSWER_WORDS[kind]
  return {
    text: `${title}\n${promptSummary(kind, body)}\n\n(reply "yes ${code}" or "no ${code}", or use the buttons)${end}`,
    buttons: [
      [{ text: 'See more', data: buttonData('more', code) }],
      [
        { text: allow, data: buttonData('allow', code) },
        { text: deny, data: buttonData('deny', code) },
      ],
    ],
  }
}

/**
 * What a tool call does (prompt-view.ts: `$ ls -la` in a code block, a file and its diff), with
 * Claude's account of it labelled; a plan review shows the plan (markdown itself), and a prompt
 * without a tool says what the hub said.
 */
function promptSummary(kind: PromptKind, body: PromptBody): string {
  const tool = body.tool_name || null
  const input = inputOf(body)
  const preview = body.input_preview ?? null
  // A terminal session's plan comes with its text (the plan file's, as Claude Code hands it over).
  if (kind === 'plan' && typeof input?.plan === 'string') return cutVisibly(input.plan, SUMMARY_LIMIT)
  if (kind === 'plan' || !tool || (!input && preview === null))
    return escapeMarkdown(body.text.replace(/ — reply "yes [a-z]{5}" or "no [a-z]{5}"( \(.*\))?$/, ''))
  // Why auto mode said no, under the call it said no to.
  if (kind === 'denied') {
    const why = typeof body.denied_reason === 'string' ? body.denied_reason : ''
    return `${promptView(tool, input, preview, SUMMARY_LIMIT)}${why ? `\n${escapeMarkdown(`Why: ${why}`)}` : ''}`
  }
  const description = body.description ?? (text(input?.description) || null)
  const said = claudeSaid(description)
  return `${promptView(tool, input, preview, SUMMARY_LIMIT)}${said ? `\n_${escapeMarkdown(said)}_` : ''}`
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** The full request, for See more (markdown): the whole call as far as one message holds it. */
export function promptDetails(request: Record<string, unknown>, limit: number): string {
  const tool = String(request.tool_name ?? '')
  const input = inputOf(request)
  const preview = typeof request.input_preview === 'string' ? request.input_preview : null
  const description =
    typeof request.description === 'string' ? `_${escapeMarkdown(request.description)}_\n\n` : ''
  const head = `**${escapeMarkdown(tool)}**\n${description}`
  const room = Math.max(0, limit - head.length - 40)
  if (typeof input?.plan === 'string') return `${head}${cutVisibly(input.plan, room)}`
  if (!input) return `${head}${promptView(tool, null, preview, room)}`
  // The part that runs in full first, then every field of the input as it came, where room is left.
  const view = promptView(tool, input, preview, room, true)
  const left = room - view.length - 20
  if (left < 100) return `${head}${view}`
  return `${head}${view}\n\n${codeBlock(cutVisibly(JSON.stringify(input, null, 2), left), 'json')}`
}

/** What the decision records for a press; null when the press does not fit the decision. */
export function answerFor(
  kind: string,
  request: Record<string, unknown>,
  verb: PressVerb,
  choices: number[] | null,
  by: string,
): Record<string, unknown> | null {
  // A question's dialog takes answers, not a bare yes.
  if (verb === 'allow') return kind === 'question' ? null : { behavior: 'allow' }
  if (verb === 'deny') return { behavior: 'deny', message: `Denied by ${by}` }
  if (verb === 'option' && kind === 'question' && choices !== null) {
    const step = questionStep(request.input, choices)
    return step && 'answers' in step ? { behavior: 'allow', answers: step.answers } : null
  }
  return null
}

/** One line saying how a decision ended and who ended it, for the edited prompt. */
export function outcomeLine(
  answer: Record<string, unknown> | undefined,
  by: string | null,
  /** Why a cancelled prompt closed, when its session said (e.g. "answered at the terminal"). */
  reason?: string,
  /** The decision's kind: a call auto mode denied had its retry allowed, or was left denied. */
  kind?: string,
): string {
  // The person at the terminal answered first: who they are is known, what they chose is not.
  if (by === null && reason?.startsWith('answered at the terminal')) return `⌨️ A${reason.slice(1)}`
  if (by === null) return `⏹ No longer open: ${reason ?? 'its session ended or withdrew it'}`
  // Nobody answered in time: what the timeout did ("Denied: no one answered within 10 min").
  if (by === TIMEOUT_ANSWERER) return `⏱ ${reason ?? 'No one answered in time'}`
  const answers = answer?.answers as Record<string, string> | undefined
  if (answers) return `✅ Answered "${Object.values(answers).join(', ')}" by ${by}`
  if (kind === 'denied')
    return answer?.behavior === 'allow' ? `✅ Retry allowed by ${by}` : `❌ Left denied by ${by}`
  return answer?.behavior === 'allow' ? `✅ Allowed by ${by}` : `❌ Denied by ${by}`
}
