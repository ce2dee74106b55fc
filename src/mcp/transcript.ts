// What a session's stored stream-json lines say, for claude_get_status: the text Claude wrote, each
// tool it called and what became of the call, and the result of the last turn that ended.
import * as z from 'zod'
import { contentBlocks, resultOf } from '../claude/messages.js'

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

/** The most lines of text any answer shows (claude_get_status's outputLines at most). */
const TEXT_KEPT = 10_000

/**
 * Reads a session's lines as they come, keeping what the answers need and not the lines: a transcript
 * can be tens of MB. Lines the hub cut for being over-long say nothing here.
 */
export class TranscriptReader {
  private text: string[] = []
  private readonly uses = new Map<string, ToolUseEvent>()
  private lastResult: string | undefined
  private turnEnded = false

  add(line: Record<string, unknown>): void {
    if (line.type === 'assistant') {
      for (const b of contentBlocks(line)) {
        if (b.type === 'text' && typeof b.text === 'string') this.text.push(...b.text.split('\n'))
        if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string')
          this.uses.set(b.id, { toolName: b.name, status: 'running', toolUseId: b.id })
      }
      if (this.text.length > 2 * TEXT_KEPT) this.text = this.text.slice(-TEXT_KEPT)
    } else if (line.type === 'user') {
      for (const b of contentBlocks(line))
        if (b.type === 'tool_result') this.settle(b.tool_use_id, 'completed')
      // The CLI marks a call it never ran (denied, or cut off by an interrupt) at once; the turn's
      // `permission_denials` say the same only when the turn ends.
      for (const m of objects(line.tool_result_meta)) if (m.non_execution_kind) this.settle(m.id, 'denied')
    } else if (line.type === 'result') {
      for (const d of objects(line.permission_denials)) this.settle(d.tool_use_id, 'denied')
      this.lastResult = resultOf(line)?.result
      this.turnEnded = true
    }
  }

  get transcript(): Transcript {
    return {
      text: this.text.slice(-TEXT_KEPT),
      toolUses: [...this.uses.values()].map((u) => ({ ...u })),
      lastResult: this.lastResult,
      turnEnded: this.turnEnded,
    }
  }

  /** A call that was refused stays refused, whatever line about it comes later. */
  private settle(id: unknown, status: 'completed' | 'denied'): void {
    const use = typeof id === 'string' ? this.uses.get(id) : undefined
    if (use && use.status !== 'denied') use.status = status
  }
}

export function transcript(lines: StoredLine[]): Transcript {
  const reader = new TranscriptReader()
  for (const { line } of lines) reader.add(line)
  return reader.transcript
}
