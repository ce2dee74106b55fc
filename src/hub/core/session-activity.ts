// What a session is doing, as one stream of facts whatever runs it: a tool call, the text Claude is
// writing, a turn's end. Driven sessions say it in their stream-json lines (fromLine, fromPartial);
// sessions at terminals through Claude Code's hooks (PostToolUse, Stop). Chats' progress messages
// (hub/bridges/progress.ts) are built on it. Live only, on the hub that hears it: never stored.

export type ActivityFact =
  | { kind: 'tool'; session: string; tool: string; input: Record<string, unknown> | null }
  /** The whole of the text being written now (a piece at 0 started it over). */
  | { kind: 'text'; session: string; text: string }
  | {
      kind: 'turn-end'
      session: string
      costUsd: number | null
      durationMs: number | null
      failed: boolean
    }

type Listener = (fact: ActivityFact) => void

export class SessionActivity {
  private readonly listeners = new Set<Listener>()
  /** The text being written per session, so each fact carries all of it. */
  private readonly writing = new Map<string, string>()

  on(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  tell(fact: ActivityFact): void {
    if (fact.kind === 'turn-end') this.writing.delete(fact.session)
    for (const listener of this.listeners) listener(fact)
  }

  /** A driven session's stored line: its tool calls, and its turn's end with cost and time. */
  fromLine(session: string, line: { type: string; [key: string]: unknown }): void {
    if (line.type === 'assistant') {
      this.writing.delete(session)
      const content = (line.message as { content?: unknown } | undefined)?.content
      if (!Array.isArray(content)) return
      for (const block of content as { type?: unknown; name?: unknown; input?: unknown }[])
        if (block?.type === 'tool_use' && typeof block.name === 'string')
          this.tell({ kind: 'tool', session, tool: block.name, input: objectOrNull(block.input) })
      return
    }
    if (line.type !== 'result') return
    this.tell({
      kind: 'turn-end',
      session,
      costUsd: typeof line.total_cost_usd === 'number' ? line.total_cost_usd : null,
      durationMs: typeof line.duration_ms === 'number' ? line.duration_ms : null,
      failed: line.is_error === true || line.subtype !== 'success',
    })
  }

  /** A piece of the text a driven session is writing (`at` 0 starts it over, '' at 0: none). */
  fromPartial(session: string, piece: { at: number; text: string }): void {
    const text = piece.at === 0 ? piece.text : `${this.writing.get(session) ?? ''}${piece.text}`
    if (!text) return void this.writing.delete(session)
    this.writing.set(session, text)
    this.tell({ kind: 'text', session, text })
  }
}

function objectOrNull(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
}
