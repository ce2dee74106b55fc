// What a Claude Code transcript line says about channel events (docs/transcript-receipts.md): the
// `<channel … event_id="…">` tags it carries, and whether the line puts them into the conversation
// (a `user` line, an `attachment` of the kinds that reach the model) or only queues them (a
// `queue-operation` enqueue). Nothing else counts: a queue record is not context, and a tool result
// quoting a tag is not the event.

export type TranscriptMark = 'queued' | 'in_context'

export interface LineMarks {
  mark: TranscriptMark
  ids: string[]
  /** The line's own time (ms), when it has one. */
  at: number | null
}

const TAG = /<channel\b([^>]*)>/g

/** Attachments whose text the model is shown: a prompt absorbed mid-turn, and a hook's context. */
const CONTEXT_ATTACHMENTS = new Set(['queued_command', 'hook_additional_context'])

/**
 * The event ids of the tags in `text`. Given `self`, a tag addressed to another subscriber is left
 * out: two channels of one session may both be handed an event, and one's line must not confirm the
 * other's notification, which Claude Code may have dropped. A tag naming none (the hook's text, an
 * older channel) is anyone's.
 */
export function eventIdsIn(text: string, self?: string): string[] {
  const ids: string[] = []
  for (const [, attrs = ''] of text.matchAll(TAG)) {
    const id = /\bevent_id="([^"]+)"/.exec(attrs)?.[1]
    const to = /\bsubscriber="([^"]*)"/.exec(attrs)?.[1]
    if (id && (self === undefined || to === undefined || to === self)) ids.push(id)
  }
  return ids
}

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((b) =>
      b && typeof b === 'object' && (b as { type?: unknown }).type === 'text'
        ? String((b as { text?: unknown }).text ?? '')
        : '',
    )
    .join('\n')
}

function timeOf(line: Record<string, unknown>): number | null {
  const t = typeof line.timestamp === 'string' ? Date.parse(line.timestamp) : Number.NaN
  return Number.isNaN(t) ? null : t
}

/** The marks of one parsed transcript line (for subscriber `self`, see eventIdsIn), or null when it carries none. */
export function marksOf(line: unknown, self?: string): LineMarks | null {
  if (!line || typeof line !== 'object') return null
  const l = line as Record<string, unknown>
  let text = ''
  let mark: TranscriptMark = 'in_context'
  if (l.type === 'user') {
    text = textOfContent((l.message as { content?: unknown } | undefined)?.content)
  } else if (l.type === 'attachment') {
    const a = l.attachment as { type?: unknown; prompt?: unknown; content?: unknown } | undefined
    if (!a || !CONTEXT_ATTACHMENTS.has(String(a.type))) return null
    text = [a.prompt, a.content].map((v) => (Array.isArray(v) ? v.join('\n') : textOfContent(v))).join('\n')
  } else if (l.type === 'queue-operation' && l.operation === 'enqueue') {
    text = typeof l.content === 'string' ? l.content : ''
    mark = 'queued'
  } else return null
  const ids = eventIdsIn(text, self)
  return ids.length ? { mark, ids, at: timeOf(l) } : null
}

/**
 * One transcript's events so far, as subscriber `self` reads them (see eventIdsIn): in context beats
 * queued, and the first time each was seen stays.
 */
export class TranscriptMarks {
  private readonly seen = new Map<string, { mark: TranscriptMark; at: number }>()

  constructor(private readonly self?: string) {}

  /** Reads one raw line (a half-written or foreign line is skipped); returns the ids it changed. */
  addLine(raw: string, now = Date.now()): { id: string; mark: TranscriptMark; at: number }[] {
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      return []
    }
    const marks = marksOf(parsed, this.self)
    if (!marks) return []
    const changed: { id: string; mark: TranscriptMark; at: number }[] = []
    for (const id of marks.ids) {
      const before = this.seen.get(id)
      if (before && (before.mark === 'in_context' || marks.mark === 'queued')) continue
      const entry = { mark: marks.mark, at: marks.at ?? now }
      this.seen.set(id, entry)
      changed.push({ id, ...entry })
    }
    return changed
  }

  state(id: string): TranscriptMark | 'absent' {
    return this.seen.get(id)?.mark ?? 'absent'
  }

  /** When the id was first seen with its present mark (the line's own time). */
  at(id: string): number | null {
    return this.seen.get(id)?.at ?? null
  }

  /** How many lines put this id into context: a fixture check that an event was shown once. */
  get size(): number {
    return this.seen.size
  }
}
