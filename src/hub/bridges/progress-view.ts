// A turn's progress as a phone shows it, in markdown each platform renders its own way: a header
// (working, or finished with its time and cost), one line per tool call (`$ cmd`, `Read path`,
// `Edit path` …), the newest kept when they do not all fit, and at `full` Claude's text so far.
import { formatUsd } from '../../core/money.js'
import { text } from '../../core/tool-call-text.js'
import { escapeMarkdown, inlineCode } from '../../sources/chat/markdown.js'

/** The longest line a tool call gets: the phone shows what it is, the prompt shows it whole. */
const LINE_MAX = 100
/** How much of Claude's text `full` shows: the end of it, where it is being written. */
const TEXT_MAX = 1_200

export interface TurnView {
  /** Who the message is about; '' in the session's own thread. */
  label: string
  tools: string[]
  /** Claude's text so far (shown at `full`). */
  text: string
  startedAt: number
  ended: { costUsd: number | null; durationMs: number | null; failed: boolean } | null
}

/** One tool call as one line: what runs or what is touched, never its input as JSON. */
export function toolLine(tool: string, input: Record<string, unknown> | null): string {
  const i = input ?? {}
  const path = text(i.file_path) || text(i.notebook_path) || text(i.path)
  let line: string
  if (tool === 'Bash' && text(i.command)) line = `$ ${text(i.command).split('\n')[0]}`
  else if (path && /^(Read|Edit|MultiEdit|Write|NotebookEdit)$/.test(tool)) line = `${tool} ${path}`
  else if ((tool === 'Grep' || tool === 'Glob') && text(i.pattern))
    line = `${tool} ${text(i.pattern)}${path ? ` in ${path}` : ''}`
  else if (tool === 'WebFetch' && text(i.url)) line = `${tool} ${text(i.url)}`
  else if (tool === 'WebSearch' && text(i.query)) line = `${tool} ${text(i.query)}`
  else if ((tool === 'Task' || tool === 'Agent') && text(i.description))
    line = `${tool} ${text(i.description)}`
  else {
    const first = Object.values(i).find((v) => typeof v === 'string' && v.trim()) as string | undefined
    line = first ? `${tool} ${first.split('\n')[0]}` : tool
  }
  const flat = line.replace(/\s+/g, ' ').trim()
  return flat.length > LINE_MAX ? `${flat.slice(0, LINE_MAX - 1)}…` : flat
}

export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  return m < 60 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${m % 60}m`
}

/** The header: working with how many calls, or finished with time and cost. */
export function turnHeader(view: TurnView, now: number): string {
  const who = view.label ? `${escapeMarkdown(view.label)}: ` : ''
  const calls = `${view.tools.length} tool call${view.tools.length === 1 ? '' : 's'}`
  if (!view.ended) return `⏳ ${who}working · ${calls} · ${duration(now - view.startedAt)}`
  const { costUsd, durationMs, failed } = view.ended
  const took = duration(durationMs ?? now - view.startedAt)
  const cost = costUsd === null ? '' : ` · ${formatUsd(costUsd)}`
  const made = view.tools.length ? ` · ${calls}` : ''
  return `${failed ? '✗' : '✓'} ${who}turn ${failed ? 'failed' : 'finished'}${made} · ${took}${cost}`
}

/** The whole message, within `room` characters of markdown (the adapter cuts visibly beyond it). */
export function turnMarkdown(view: TurnView, full: boolean, now: number, room: number): string {
  const header = turnHeader(view, now)
  const said = full && view.text ? `\n\n${escapeMarkdown(tail(view.text, TEXT_MAX))}` : ''
  let left = room - header.length - said.length - 40
  const lines: string[] = []
  for (let i = view.tools.length - 1; i >= 0 && left > 0; i--) {
    const line = inlineCode(view.tools[i] as string)
    if (line.length + 1 > left) break
    lines.unshift(line)
    left -= line.length + 1
  }
  const earlier = view.tools.length - lines.length
  const more = earlier > 0 ? [`… ${earlier} earlier`] : []
  return [header, ...more, ...lines].join('\n') + said
}

function tail(s: string, max: number): string {
  return s.length > max ? `…${s.slice(s.length - max + 1)}` : s
}
