// How a tool call is put to an operator: what would run, shown whole up to a limit and visibly cut
// beyond it, with Claude's own account of it labelled as such. Approving "List the files" must never
// mean approving a `curl … | sh` nobody saw.

const MAX_SHOWN = 600

/** The part of a tool's input that says what it does: a Bash command, else the input as JSON. */
export function inputPreview(toolName: string, input: Record<string, unknown>): string {
  if (toolName === 'Bash' && typeof input.command === 'string') return input.command
  return JSON.stringify(input)
}

/** `text` whole when it fits, else its first `limit` characters and how many more there were. */
export function cutVisibly(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… [cut: ${text.length - limit} more characters]` : text
}

export function toolCallText(toolName: string, preview: string, description?: string | null): string {
  const flat = preview.replace(/\r\n|\r|\n/g, '\\n')
  const account = claudeSaid(description)
  return `Claude wants to run ${toolName}: ${cutVisibly(flat, MAX_SHOWN)}${account ? ` (${account})` : ''}`
}

/** A driven session's call in one line: what would run, or that Claude asks a question or a plan review. */
export function promptText(request: {
  tool_name: string
  input: Record<string, unknown>
  description?: string | null
}): string {
  if (request.tool_name === 'AskUserQuestion') return 'Claude asks a question'
  if (request.tool_name === 'ExitPlanMode') return 'Claude asks you to review its plan'
  const said =
    request.description ?? (typeof request.input.description === 'string' ? request.input.description : null)
  return toolCallText(request.tool_name, inputPreview(request.tool_name, request.input), said)
}

/** Claude's account of a call, labelled as Claude's (never to be read as what runs); '' when none. */
export function claudeSaid(description: string | null | undefined): string {
  const said = description?.replace(/\s+/g, ' ').trim()
  if (!said) return ''
  return `Claude's description: "${said.length > 160 ? `${said.slice(0, 157)}...` : said}"`
}
