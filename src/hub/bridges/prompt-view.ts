// A tool call as a phone shows it, in markdown each platform renders its own way: a command in a code
// block (`$ …`), an edit as a diff, a write as its path and how its content starts, a read as its
// path; any other tool as one `key: value` line per field, never raw JSON. Cut visibly, never silently.

import { type ReadableCall, readableCall } from '../../core/readable-call.js'
import { cutVisibly, diff, linesOf } from '../../core/tool-call-text.js'
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

function callView(call: ReadableCall, limit: number, detailed: boolean): string {
  const lines = detailed ? 200 : DIFF_LINES
  switch (call.kind) {
    case 'shell':
      return codeBlock(cutVisibly(`$ ${call.command}`, limit), 'sh')
    case 'edit': {
      const n = call.edits.length
      const many = call.multi ? ` (${n} edit${n === 1 ? '' : 's'})` : ''
      const every = call.everyOccurrence ? ' (every occurrence)' : ''
      const shown = cutVisibly(call.edits.flatMap((e) => diff(e, lines)).join('\n'), limit)
      return `${inlineCode(call.path)}${many}${every}\n${codeBlock(shown, 'diff')}`
    }
    case 'write': {
      const content = linesOf(call.content)
      const start = detailed ? content : content.slice(0, WRITE_LINES)
      const head = `${inlineCode(call.path)} (${content.length} line${content.length === 1 ? '' : 's'})`
      if (!content.length) return head
      const body = [...start, ...more(content.length - start.length, 'line')].join('\n')
      return `${head}\n${codeBlock(cutVisibly(body, limit))}`
    }
    case 'read':
      return inlineCode(call.path)
  }
}

/**
 * What a call does, as markdown, whichever agent's tool it is (core/readable-call.ts). `limit` bounds the part that runs (a command, a diff); `detailed`
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
  const call = readableCall(toolName, input)
  if (call) return callView(call, limit, detailed)
  const fields = Object.entries(input)
  if (!fields.length) return '(no input)'
  return fields
    .map(([key, v]) => `${escapeMarkdown(key)}: ${escapeMarkdown(value(v, detailed ? limit : VALUE_MAX))}`)
    .join('\n')
}
