// How `switchboard mcp` puts a pending input to the person behind an MCP client that supports
// elicitation: a form per input, and how the form's answer becomes the hub's.
import type { PendingInput, RespondInput } from '../core/session-api.js'
import { promptText } from '../core/tool-call-text.js'
import { questionsOf } from './questions.js'

export interface Form {
  message: string
  schema: Record<string, unknown>
  read(content: Record<string, unknown>): RespondInput
}

export function form(p: PendingInput): Form {
  if (p.kind === 'question') {
    const questions = questionsOf(p.input)
    const properties: Record<string, unknown> = {}
    questions.forEach((q, i) => {
      properties[`q${i}`] = { type: 'string', title: q.question, enum: (q.options ?? []).map((o) => o.label) }
    })
    return {
      message: 'Claude asks:',
      schema: { type: 'object', properties, required: Object.keys(properties) },
      read: (c) => ({
        behavior: 'allow',
        answers: Object.fromEntries(questions.map((q, i) => [q.question, String(c[`q${i}`] ?? '')])),
      }),
    }
  }
  // What would run, as every surface shows it; Claude's own account of it only labelled as such.
  const what = p.kind === 'plan' ? 'Approve Claude’s plan?' : `${promptText(p)}\nAllow?`
  return {
    message: what,
    schema: {
      type: 'object',
      properties: {
        approve: { type: 'boolean', title: 'Approve' },
        message: { type: 'string', title: 'Reason or feedback (when not approving)' },
      },
      required: ['approve'],
    },
    read: (c) =>
      c.approve === true
        ? { behavior: 'allow' }
        : { behavior: 'deny', message: typeof c.message === 'string' && c.message ? c.message : 'Denied' },
  }
}
