// What a session's stored stream-json lines say, for claude_get_status: the text Claude wrote, each
// tool it called and what became of the call, and the result of the last turn that ended.
import { z } from 'zod'

export interface StoredLine {
  seq: number
  line: Record<string, unknown>
}

export const toolUseEventSchema = z.object({
  toolName: z.string(),
  status: z.enum(['running', 'completed', 'denied']),
  /** An extra: the id the tool_use block carried, so repeated calls of one tool stay apart. */
  toolUseId: z.string(),
})
export type ToolUseEvent = z.infer<typeof toolUseEventSchema>

export interface Transcript {
  /** Claude's text, one entry per line of it, oldest first. */
  text: string[]
  toolUses: ToolUseEvent[]
  /** The `result` of the newest result line; undefined when that turn ended without one (interrupted). */
  lastResult: string | undefined
  /** Whether any turn has ended among these lines. */
  turnEnded: boolean
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : [])
const blocks = (line: Obj): Obj[] => (isObj(line.message) ? objects(line.message.content) : [])

export function transcript(lines: StoredLine[]): Transcript {
  const text: string[] = []
  const uses = new Map<string, ToolUseEvent>()
  let lastResult: string | undefined
  let turnEnded = false
  // A call that was refused stays refused, whatever line about it comes later.
  const settle = (id: unknown, status: 'completed' | 'denied') => {
    const use = typeof id === 'string' ? uses.get(id) : undefined
    if (use && use.status !== 'denied') use.status = status
  }
  for (const { line } of lines) {
    if (line.type === 'assistant') {
      for (const b of blocks(line)) {
        if (b.type === 'text' && typeof b.text === 'string') text.push(...b.text.split('\n'))
        if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string')
          uses.set(b.id, { toolName: b.name, status: 'running', toolUseId: b.id })
      }
    } else if (line.type === 'user') {
      for (const b of blocks(line)) if (b.type === 'tool_result') settle(b.tool_use_id, 'completed')
      // The CLI marks a call it never ran (denied, or cut off by an interrupt) at once; the turn's
      // `permission_denials` say the same only when the turn ends.
      for (const m of objects(line.tool_result_meta)) if (m.non_execution_kind) settle(m.id, 'denied')
    } else if (line.type === 'result') {
      for (const d of objects(line.permission_denials)) settle(d.tool_use_id, 'denied')
      lastResult = typeof line.result === 'string' ? line.result : undefined
      turnEnded = true
    }
  }
  return { text, toolUses: [...uses.values()], lastResult, turnEnded }
}
