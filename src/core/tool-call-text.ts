// How a tool call is put to a person, once for every surface that writes text (operators' streams,
// `switchboard run`, `decisions`, the MCP driver's forms, push, the chats' views): what would run,
// shown whole up to a limit and visibly cut beyond it (`$ <command>` for Bash, a file for a read),
// with Claude's own account of it labelled as such. Approving "List the files" must never mean
// approving a `curl … | sh` nobody saw.
import { speakerOf } from './agents.js'
import { type ReadableCall, readableCall } from './readable-call.js'

const MAX_SHOWN = 600
/** Lines of each side of an edit a prompt shows before it says how many more there are. */
const DIFF_LINES = 8

/**
 * The input a channel's relayed prompt previews, when its preview is whole JSON (Claude Code cuts a
 * long one short, and then there is none: it is shown as it came).
 */
export function previewedInput(preview: string | null): Record<string, unknown> | null {
  if (preview === null) return null
  try {
    const parsed: unknown = JSON.parse(preview)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/** `text` whole when it fits, else its first `limit` characters and how many more there were. */
export function cutVisibly(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… [cut: ${text.length - limit} more characters]` : text
}

/** What a call does on one line (toolCallView's, its line breaks shown as `\n`), visibly cut at `limit`. */
export function toolCallLine(
  toolName: string,
  input: Record<string, unknown> | null,
  preview: string | null,
  limit = MAX_SHOWN,
): string {
  const whole = toolCallView(toolName, input, preview, Number.POSITIVE_INFINITY)
  return cutVisibly(whole.replace(/\r\n|\r|\n/g, '\\n'), limit)
}

/** "Claude wants to run Bash: $ ls (Claude's description: "…")": a driven session's input, or a relay's preview. */
export function toolCallText(
  toolName: string,
  input: Record<string, unknown> | null,
  preview: string | null,
  description?: string | null,
  who = 'Claude',
): string {
  const account = claudeSaid(description, who)
  return `${who} wants to run ${toolName}: ${toolCallLine(toolName, input, preview)}${account ? ` (${account})` : ''}`
}

/** A driven session's call in one line: what would run, or that Claude asks a question or a plan review. */
export function promptText(request: {
  tool_name: string
  input: Record<string, unknown>
  description?: string | null
  /** Whose prompt (core/agents.ts); unset: Claude Code's. */
  agent?: unknown
  /** A call auto mode denied: its classifier's reason (a `denied` decision, hub/terminals/terminal-hooks.ts). */
  denied_reason?: unknown
  /** The project it was denied in (the session's folder's name). */
  project?: unknown
}): string {
  if (typeof request.denied_reason === 'string') return deniedText(request)
  if (request.tool_name === 'AskUserQuestion') return 'Claude asks a question'
  if (request.tool_name === 'ExitPlanMode') return 'Claude asks you to review its plan'
  const said =
    request.description ?? (typeof request.input.description === 'string' ? request.input.description : null)
  return toolCallText(request.tool_name, request.input, null, said, speakerOf(request.agent))
}

/**
 * "Auto mode denied Bash `rm -rf build` in api: <reason>": what a `denied` decision asks operators
 * about, the command itself for a shell call and the call's line for any other tool.
 */
export function deniedText(request: {
  tool_name: string
  input: Record<string, unknown>
  denied_reason?: unknown
  project?: unknown
}): string {
  const call = readableCall(request.tool_name, request.input)
  const what =
    call?.kind === 'shell'
      ? cutVisibly(call.command, MAX_SHOWN)
      : toolCallLine(request.tool_name, request.input, null)
  const where = typeof request.project === 'string' && request.project ? ` in ${request.project}` : ''
  const reason = typeof request.denied_reason === 'string' ? request.denied_reason.trim() : ''
  return `Auto mode denied ${request.tool_name} \`${what}\`${where}${reason ? `: ${reason}` : ''}`
}

/** Claude's account of a call, labelled as Claude's (never to be read as what runs); '' when none. */
export function claudeSaid(description: string | null | undefined, who = 'Claude'): string {
  const said = description?.replace(/\s+/g, ' ').trim()
  if (!said) return ''
  return `${who}'s description: "${said.length > 160 ? `${said.slice(0, 157)}...` : said}"`
}

export function text(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

export function linesOf(s: string): string[] {
  if (s === '') return []
  const lines = s.split(/\r\n|\r|\n/)
  if (lines.length > 1 && lines.at(-1) === '') lines.pop()
  return lines
}

/**
 * An edit as the dashboard and the chats show it: removed lines `- `, added lines `+ `, `lines` of
 * each at most.
 */
export function diff(edit: { old: string; new: string }, lines = DIFF_LINES): string[] {
  const side = (all: string[], mark: string) => [
    ...all.slice(0, lines).map((line) => `${mark} ${line}`),
    ...(all.length > lines ? [`${mark} … ${all.length - lines} more lines`] : []),
  ]
  const removed = linesOf(edit.old)
  const added = linesOf(edit.new)
  return removed.length || added.length ? [...side(removed, '-'), ...side(added, '+')] : ['(no change)']
}

/** A readable call's lines: `$ <command>`, a file and its diff, a file written, a file read. */
function linesOfCall(call: ReadableCall): string[] {
  switch (call.kind) {
    case 'shell':
      return [`$ ${call.command}`]
    case 'edit': {
      const n = call.edits.length
      const many = call.multi ? ` (${n} edit${n === 1 ? '' : 's'})` : ''
      const every = call.everyOccurrence ? ' (every occurrence)' : ''
      return [`${call.path}${many}${every}`, ...call.edits.flatMap((e) => diff(e))]
    }
    case 'write':
      return [`${call.path} (${linesOf(call.content).length} lines)`]
    case 'read':
      return [call.path]
  }
}

/**
 * What a call does, as the dashboard shows it (web/src/ui/tool-call.tsx): a shell command as
 * `$ <command>`, an edit as the file and a short diff, a write or a read as the path, whichever
 * agent's tool it is (core/readable-call.ts); other tools' input as compact JSON; a preview that is
 * not whole JSON as it came. Cut visibly at `limit`.
 */
export function toolCallView(
  toolName: string,
  input: Record<string, unknown> | null,
  preview: string | null,
  limit = MAX_SHOWN,
): string {
  if (!input) return cutVisibly(preview ?? '(no input)', limit)
  const call = readableCall(toolName, input)
  return cutVisibly((call ? linesOfCall(call) : [JSON.stringify(input)]).join('\n'), limit)
}
