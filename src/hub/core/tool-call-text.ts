// How a tool call is put to an operator: what would run, shown whole up to a limit and visibly cut
// beyond it, with Claude's own account of it labelled as such. Approving "List the files" must never
// mean approving a `curl … | sh` nobody saw.

const MAX_SHOWN = 600

/** The part of a tool's input that says what it does: a Bash command, else the input as JSON. */
export function inputPreview(toolName: string, input: Record<string, unknown>): string {
  if (toolName === 'Bash' && typeof input.command === 'string') return input.command
  return JSON.stringify(input)
}

export function toolCallText(toolName: string, preview: string, description?: string | null): string {
  const flat = preview.replace(/\r\n|\r|\n/g, '\\n')
  const shown =
    flat.length > MAX_SHOWN
      ? `${flat.slice(0, MAX_SHOWN)}… [cut: ${flat.length - MAX_SHOWN} more characters]`
      : flat
  const said = description?.replace(/\s+/g, ' ').trim()
  const account = said
    ? ` (Claude's description: "${said.length > 160 ? `${said.slice(0, 157)}...` : said}")`
    : ''
  return `Claude wants to run ${toolName}: ${shown}${account}`
}
