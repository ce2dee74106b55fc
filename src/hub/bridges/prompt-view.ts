// A tool call as a phone shows it, in markdown each platform renders its own way: a command in a code
// block (`$ …`), an edit as a diff, a write as its path and how its content starts, a read as its
// path; any other tool as one `key: value` line per field, never raw JSON. Cut visibly, never silently.

import { cutVisibly, diff, linesOf, text } from '../../core/tool-call-text.js'
import { codeBlock, escapeMarkdown, inlineCode } from '../../sources/chat/markdown.js'

/** Lines of each side of an edit, and of a written file's start, a prompt shows. */
const DIFF_LINES = 8
const WRITE_LINES = 6
const VALUE_MAX = 200

function more(n: number, what: string): string[] {
  return n > 0 ? [`… ${n} more ${what}${n === 1 ? '' : 's'}`] : []
}

function value(v: unknown, limit: number): string {
  const shown = typeof v === 'string' ? v.replace(/\s*\n\s*/g, ' ⏎ ') : JSON.stringify(v)
  return cutVisibly(shown ?? String(v), limit)
}

/**
 * What a call does, as markdown. `limit` bounds the part that runs (a command, a diff); `detailed`
 * shows more lines of an edit or a write (See more).
 */
export function promptView(
  toolName: string,
  input: Record<string, unknown> | null,
  preview: string | null,
  limit: number,
  detailed = false,
): string {
  if (!input) return codeBlock(cutVisibly(preview ?? '(no input)', limit))
  const path = text(input.file_path) || text(input.notebook_path) || text(input.path)
  const lines = detailed ? 200 : DIFF_LINES
  if (toolName === 'Bash' && typeof input.command === 'string')
    return codeBlock(cutVisibly(`$ ${input.command}`, limit), 'sh')
  if (toolName === 'Edit' && path) {
    const every = input.replace_all === true ? ' (every occurrence)' : ''
    return `${inlineCode(path)}${every}\n${codeBlock(cutVisibly(diff(input, lines).join('\n'), limit), 'diff')}`
  }
  if (toolName === 'MultiEdit' && path && Array.isArray(input.edits)) {
    const edits = input.edits.filter(
      (e): e is Record<string, unknown> => typeof e === 'object' && e !== null && !Array.isArray(e),
    )
    const shown = cutVisibly(edits.flatMap((e) => diff(e, lines)).join('\n'), limit)
    return `${inlineCode(path)} (${edits.length} edit${edits.length === 1 ? '' : 's'})\n${codeBlock(shown, 'diff')}`
  }
  if (toolName === 'Write' && path) {
    const content = linesOf(text(input.content))
    const start = detailed ? content : content.slice(0, WRITE_LINES)
    const head = `${inlineCode(path)} (${content.length} line${content.length === 1 ? '' : 's'})`
    if (!content.length) return head
    const body = [...start, ...more(content.length - start.length, 'line')].join('\n')
    return `${head}\n${codeBlock(cutVisibly(body, limit))}`
  }
  if ((toolName === 'Read' || toolName === 'NotebookEdit') && path) return inlineCode(path)
  const fields = Object.entries(input)
  if (!fields.length) return '(no input)'
  return fields
    .map(([key, v]) => `${escapeMarkdown(key)}: ${escapeMarkdown(value(v, detailed ? limit : VALUE_MAX))}`)
    .join('\n')
}
