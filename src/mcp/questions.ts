// AskUserQuestion's input as `switchboard mcp` reads it, for a form, a summary and an answer alike.

export interface Question {
  question: string
  options?: { label: string }[]
}

/** The questions of a pending AskUserQuestion; none when its input has another shape. */
export function questionsOf(input: Record<string, unknown>): Question[] {
  const questions = input.questions
  return Array.isArray(questions)
    ? questions.filter((q): q is Question => typeof q?.question === 'string')
    : []
}
