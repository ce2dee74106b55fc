// What a tool call does, whichever agent's tool it is: Claude Code's Bash, Gemini CLI's
// run_shell_command and OpenCode's bash are each a shell command; Edit, Gemini's replace and
// OpenCode's edit an edit of a file; and so on. Every surface that shows a call reads it from here,
// so a Gemini or OpenCode prompt reads as `$ <command>` or a diff, not as the JSON its model wrote.

export type ReadableCall =
  | { kind: 'shell'; command: string }
  | {
      kind: 'edit'
      path: string
      edits: { old: string; new: string }[]
      everyOccurrence: boolean
      /** Several edits in one call (Claude Code's MultiEdit), counted where shown. */
      multi: boolean
    }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'read'; path: string }

const SHELL = new Set(['Bash', 'run_shell_command', 'bash', 'shell'])
const EDIT = new Set(['Edit', 'replace', 'edit'])
const WRITE = new Set(['Write', 'write_file', 'write'])
const READ = new Set(['Read', 'read_file', 'read', 'NotebookEdit'])

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/** The file a call works on, under the name each agent gives it. */
export function pathOf(input: Record<string, unknown>): string {
  return text(input.file_path) || text(input.filePath) || text(input.notebook_path) || text(input.path)
}

const editOf = (e: Record<string, unknown>) => ({
  old: text(e.old_string) || text(e.oldString),
  new: text(e.new_string) || text(e.newString),
})

const isRecord = (e: unknown): e is Record<string, unknown> =>
  typeof e === 'object' && e !== null && !Array.isArray(e)

/** The call as what it does, or null for a tool read best as its input. */
export function readableCall(tool: string, input: Record<string, unknown>): ReadableCall | null {
  const path = pathOf(input)
  if (SHELL.has(tool) && typeof input.command === 'string') return { kind: 'shell', command: input.command }
  if (EDIT.has(tool) && path)
    return {
      kind: 'edit',
      path,
      edits: [editOf(input)],
      everyOccurrence: input.replace_all === true || input.replaceAll === true,
      multi: false,
    }
  if (tool === 'MultiEdit' && path && Array.isArray(input.edits))
    return {
      kind: 'edit',
      path,
      edits: input.edits.filter(isRecord).map(editOf),
      everyOccurrence: false,
      multi: true,
    }
  if (WRITE.has(tool) && path) return { kind: 'write', path, content: text(input.content) }
  if (READ.has(tool) && path) return { kind: 'read', path }
  return null
}
