// Turns Claude Code's stream-json lines into what the transcript shows. Lines nobody needs to read
// (system chatter, partial stream events, control requests) give nothing.

export type TranscriptItem =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  /** Claude's extended thinking; shown folded. `redacted` when the CLI gave it encrypted only. */
  | { kind: 'thinking'; text: string; redacted: boolean }
  | { kind: 'tool'; name: string; input: Record<string, unknown> }
  | { kind: 'tool-result'; tool: string | null; text: string; isError: boolean }
  | { kind: 'turn'; cost: number | null; durationMs: number | null; error: string | null }
  | { kind: 'note'; text: string }

type Obj = Record<string, unknown>

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

/** The text of a tool result or a user message's content: strings and text blocks, images named. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content, null, 2)
  return content
    .map((block) => {
      if (!isObj(block)) return ''
      if (block.type === 'text') return str(block.text) ?? ''
      if (block.type === 'image') return '[image]'
      return ''
    })
    .filter(Boolean)
    .join('\n')
}

/** The data of an SSE `line` event: the CLI line, as JSON text (or already wrapped as { line }). */
export function decodeLine(data: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    return null
  }
  if (isObj(value) && !('type' in value) && 'line' in value) {
    const inner = value.line
    if (typeof inner === 'string') return decodeLine(inner)
    return inner
  }
  return value
}

/**
 * Reads lines in order; remembers tool names by id (so a result says which tool it answers) and the
 * user messages already shown (the CLI may echo one the hub also recorded).
 */
export class TranscriptReader {
  private readonly toolNames = new Map<string, string>()
  private readonly userIds = new Set<string>()
  private startedWith: string | null | undefined

  read(line: unknown): TranscriptItem[] {
    if (!isObj(line)) return []
    switch (line.type) {
      case 'assistant':
        return this.assistant(line)
      case 'user':
        return this.user(line)
      case 'result':
        return [this.result(line)]
      case 'system':
        return this.system(line)
      default:
        return []
    }
  }

  private assistant(line: Obj): TranscriptItem[] {
    const message = isObj(line.message) ? line.message : {}
    const content = message.content
    if (typeof content === 'string') return content.trim() ? [{ kind: 'assistant', text: content }] : []
    if (!Array.isArray(content)) return []
    const items: TranscriptItem[] = []
    for (const block of content) {
      if (!isObj(block)) continue
      if (block.type === 'text') {
        const text = str(block.text)
        if (text?.trim()) items.push({ kind: 'assistant', text })
      } else if (block.type === 'thinking') {
        const text = str(block.thinking)
        if (text?.trim()) items.push({ kind: 'thinking', text, redacted: false })
      } else if (block.type === 'redacted_thinking') {
        items.push({ kind: 'thinking', text: '', redacted: true })
      } else if (block.type === 'tool_use') {
        const name = str(block.name) ?? 'tool'
        const id = str(block.id)
        if (id) this.toolNames.set(id, name)
        items.push({ kind: 'tool', name, input: isObj(block.input) ? block.input : {} })
      }
    }
    return items
  }

  private user(line: Obj): TranscriptItem[] {
    const uuid = str(line.uuid)
    if (uuid) {
      if (this.userIds.has(uuid)) return []
      this.userIds.add(uuid)
    }
    const message = isObj(line.message) ? line.message : {}
    const content = message.content
    if (typeof content === 'string') return content.trim() ? [{ kind: 'user', text: content }] : []
    if (!Array.isArray(content)) return []
    const items: TranscriptItem[] = []
    const texts: string[] = []
    for (const block of content) {
      if (!isObj(block)) continue
      if (block.type === 'tool_result') {
        const id = str(block.tool_use_id)
        items.push({
          kind: 'tool-result',
          tool: id ? (this.toolNames.get(id) ?? null) : null,
          text: contentText(block.content),
          isError: block.is_error === true,
        })
      } else if (block.type === 'text') {
        const text = str(block.text)
        if (text?.trim()) texts.push(text)
      } else if (block.type === 'image') {
        texts.push('[image]')
      }
    }
    if (texts.length > 0) items.unshift({ kind: 'user', text: texts.join('\n') })
    return items
  }

  private result(line: Obj): TranscriptItem {
    const subtype = str(line.subtype)
    const failed = line.is_error === true || (subtype !== null && subtype !== 'success')
    return {
      kind: 'turn',
      cost: num(line.total_cost_usd) ?? num(line.cost_usd),
      durationMs: num(line.duration_ms),
      error: failed ? (str(line.result) ?? subtype ?? 'error') : null,
    }
  }

  private system(line: Obj): TranscriptItem[] {
    if (line.subtype !== 'init') return []
    const model = str(line.model)
    // The CLI may announce itself again on later turns: once is enough unless the model changed.
    if (this.startedWith === model) return []
    this.startedWith = model
    return [{ kind: 'note', text: model ? `Session started · ${model}` : 'Session started' }]
  }
}

/** A line that takes the place of the assistant text streamed so far: the finished message, or the turn's end. */
export function endsPartial(line: unknown): boolean {
  return isObj(line) && (line.type === 'assistant' || line.type === 'result')
}

/**
 * The assistant text being written after one more piece of it (a `partial` event): a piece at 0
 * starts over (empty: nothing is being written); one that does not follow on is a gap, which leaves
 * the text as it is (undefined) until the hub sends it whole again.
 */
export function withPiece(text: string | null, data: string): string | null | undefined {
  let piece: unknown
  try {
    piece = JSON.parse(data)
  } catch {
    return undefined
  }
  if (!isObj(piece) || typeof piece.text !== 'string' || typeof piece.at !== 'number') return undefined
  if (piece.at === 0) return piece.text || null
  return text !== null && piece.at === text.length ? text + piece.text : undefined
}
