// What an answer typed as `<code> <values…>` means for the decision it names (`switchboard answer`,
// a chat's `answer <code> …`): yes or no for a permission or a plan (no with --message: the reason
// Claude is given), one value per question for a question (an option's label or number, or an answer
// of one's own).
import type { Answer } from './api/rows.js'
import { invalid } from './errors.js'

interface Question {
  question: string
  options: string[]
}

/** The questions of an AskUserQuestion call, each with its option labels. */
export function questionsOf(request: Record<string, unknown>): Question[] {
  const input = request.input as { questions?: unknown } | undefined
  if (!Array.isArray(input?.questions)) return []
  return input.questions.flatMap((q: unknown) => {
    const { question, options } = (q ?? {}) as { question?: unknown; options?: unknown }
    if (typeof question !== 'string') return []
    const labels = Array.isArray(options)
      ? options.flatMap((o) =>
          typeof (o as { label?: unknown })?.label === 'string' ? [(o as { label: string }).label] : [],
        )
      : []
    return [{ question, options: labels }]
  })
}

export function verdictOf(word: string): 'allow' | 'deny' | null {
  if (/^(y|yes|allow|approve)$/i.test(word)) return 'allow'
  if (/^(n|no|deny)$/i.test(word)) return 'deny'
  return null
}

export function answerFor(
  decision: { kind: string; request: Record<string, unknown> },
  values: string[],
  message?: string,
): Answer {
  if (decision.kind === 'question') {
    const questions = questionsOf(decision.request)
    const [only] = values
    // "no" to a question with one value and no option of that name dismisses it.
    if (
      values.length === 1 &&
      only &&
      verdictOf(only) === 'deny' &&
      !questions.some((q) => q.options.includes(only))
    )
      return { behavior: 'deny', message: message ?? 'Dismissed at the terminal' }
    if (values.length !== questions.length)
      throw invalid(
        `this prompt asks ${questions.length} question${questions.length === 1 ? '' : 's'}: give one answer each, in order (got ${values.length})`,
      )
    const answers: Record<string, string> = {}
    questions.forEach((q, i) => {
      const value = values[i] as string
      const n = /^\d+$/.test(value) ? Number(value) : null
      answers[q.question] =
        n !== null && n >= 1 && n <= q.options.length
          ? (q.options[n - 1] as string)
          : (q.options.find((o) => o.toLowerCase() === value.toLowerCase()) ?? value)
    })
    return { behavior: 'allow', answers }
  }
  if (values.length !== 1) throw invalid('say yes or no')
  const behavior = verdictOf(values[0] as string)
  if (!behavior) throw invalid(`verdict "${values[0]}": say yes or no`)
  if (behavior === 'allow') return { behavior: 'allow' }
  const fallback =
    decision.kind === 'plan'
      ? 'Keep planning'
      : decision.kind === 'denied'
        ? 'Left denied'
        : 'Denied at the terminal'
  return { behavior: 'deny', message: message ?? fallback }
}
