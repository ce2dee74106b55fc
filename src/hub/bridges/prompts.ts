// Decisions as a phone shows them: a message with buttons (Allow, Deny, See more, one per option
// of a question), the button data that comes back, the answer a press records, and the outcome an
// answered prompt is edited into.
import type { Button } from '../../sources/chat/platform.js'

export const PROMPT_KINDS = ['permission', 'question', 'plan'] as const
export type PromptKind = (typeof PROMPT_KINDS)[number]

export function isPromptKind(kind: string): kind is PromptKind {
  return (PROMPT_KINDS as readonly string[]).includes(kind)
}

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

/** `sb:<verb>:<code>[:<option>]`, within Telegram's 64 bytes. */
export type PressVerb = 'allow' | 'deny' | 'more' | 'option'
const VERB_CODES: Record<PressVerb, string> = { allow: 'a', deny: 'd', more: 'm', option: 'o' }

export function buttonData(verb: PressVerb, code: string, option?: number): string {
  return `sb:${VERB_CODES[verb]}:${code}${option === undefined ? '' : `:${option}`}`
}

export function parseButtonData(
  data: string,
): { verb: PressVerb; code: string; option: number | null } | null {
  const m = /^sb:([admo]):([a-km-z]{5})(?::(\d{1,2}))?$/.exec(data)
  if (!m?.[1] || !m[2]) return null
  const verb = (Object.entries(VERB_CODES).find(([, c]) => c === m[1])?.[0] ?? 'deny') as PressVerb
  return { verb, code: m[2], option: m[3] === undefined ? null : Number(m[3]) }
}

/** A prompt's outbox body (hub/core/decisions.ts): what the message says and its buttons. */
export function promptMessage(
  kind: PromptKind,
  body: Record<string, unknown>,
): { text: string; buttons: Button[][] } {
  const code = String(body.id)
  const session = String(body.session ?? '')
  const tool = String(body.tool_name ?? '')
  if (kind === 'question') {
    const [first, ...more] = questionsOf(body.input)
    const lines = [`❓ ${session} asks:`, first?.question ?? '(a question)']
    for (const q of more) lines.push(q.question)
    const options = (first?.options ?? []).slice(0, 10)
    return {
      text: `${lines.join('\n')}\n\n(id ${code})`,
      buttons: [
        ...options.map((o, i) => [{ text: o.label.slice(0, 60), data: buttonData('option', code, i) }]),
        [{ text: 'Dismiss', data: buttonData('deny', code) }],
      ],
    }
  }
  const title = kind === 'plan' ? `📋 Plan review — ${session}` : `🔐 Permission: ${tool} — ${session}`
  const summary = String(body.text ?? '').replace(/ — reply "yes [a-z]{5}" or "no [a-z]{5}"$/, '')
  return {
    text: `${title}\n${summary}\n\n(reply "yes ${code}" or "no ${code}", or use the buttons)`,
    buttons: [
      [{ text: 'See more', data: buttonData('more', code) }],
      [
        { text: kind === 'plan' ? 'Approve' : 'Allow', data: buttonData('allow', code) },
        { text: kind === 'plan' ? 'Keep planning' : 'Deny', data: buttonData('deny', code) },
      ],
    ],
  }
}

/** The full request, for See more: the whole input, cut to what one message holds. */
export function promptDetails(request: Record<string, unknown>, limit: number): string {
  const input = request.input ?? request.input_preview ?? {}
  const shown = typeof input === 'string' ? input : JSON.stringify(input, null, 2)
  const description = typeof request.description === 'string' ? `${request.description}\n\n` : ''
  const text = `${String(request.tool_name ?? '')}\n${description}${shown}`
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}

/** What the decision records for a press; null when the press does not fit the decision. */
export function answerFor(
  kind: string,
  request: Record<string, unknown>,
  verb: PressVerb,
  option: number | null,
  by: string,
): Record<string, unknown> | null {
  if (verb === 'allow') return { behavior: 'allow' }
  if (verb === 'deny') return { behavior: 'deny', message: `Denied by ${by}` }
  if (verb === 'option' && kind === 'question' && option !== null) {
    const [first] = questionsOf(request.input)
    const label = first?.options[option]?.label
    return first && label ? { behavior: 'allow', answers: { [first.question]: label } } : null
  }
  return null
}

/** One line saying how a decision ended and who ended it, for the edited prompt. */
export function outcomeLine(answer: Record<string, unknown> | undefined, by: string | null): string {
  if (by === null) return '⏹ No longer open: its session ended or withdrew it'
  const answers = answer?.answers as Record<string, string> | undefined
  if (answers) return `✅ Answered "${Object.values(answers).join(', ')}" by ${by}`
  return answer?.behavior === 'allow' ? `✅ Allowed by ${by}` : `❌ Denied by ${by}`
}
