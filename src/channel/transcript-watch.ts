// Reads the session's transcript as Claude Code appends to it, and says when an event id shows up
// queued or in context (src/claude/transcript-marks.ts). Polled: Claude Code appends in small writes,
// inotify is not everywhere (network homes, containers), and a look every POLL_MS costs one stat.
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { type TranscriptMark, TranscriptMarks } from './transcript-marks.js'

const POLL_MS = 150
const CHUNK = 1 << 16

export type MarkListener = (id: string, mark: TranscriptMark, at: number) => void

export class TranscriptWatch {
  private readonly marks: TranscriptMarks
  /** Per file: how far it was read, and a line not finished yet. */
  private readonly files = new Map<string, { offset: number; partial: string; decoder: StringDecoder }>()
  private timer: NodeJS.Timeout | null = null
  private newest: number | null = null

  constructor(
    /** The files to read now (the list may grow: a session's file appears with its first line). */
    private readonly find: () => string[],
    private readonly onMark: MarkListener,
    /**
     * When this Claude Code process started, as near as the channel knows: a queue record older than
     * that is a queue that died with an earlier process (a session resumed with --resume), not a
     * reason to wait.
     */
    private readonly since = Date.now(),
    /** The subscriber this channel delivers to: tags addressed to another are not its own. */
    self?: string,
  ) {
    this.marks = new TranscriptMarks(self)
  }

  start(): void {
    this.timer ??= setInterval(() => this.refresh(), POLL_MS)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  state(id: string): TranscriptMark | 'absent' {
    const mark = this.marks.state(id)
    return mark === 'queued' && (this.marks.at(id) ?? 0) < this.since ? 'absent' : mark
  }

  /**
   * When Claude Code made the newest line read so far (its own `timestamp`): a transcript that has
   * moved past the moment Claude Code read an event, without it, dropped it (see confirm.ts).
   */
  newestLineAt(): number | null {
    return this.newest
  }

  /** Whether any transcript was found yet. */
  get found(): boolean {
    return [...this.files.values()].some((f) => f.offset > 0)
  }

  /** Reads what was appended since the last look, and tells the listener what changed. */
  refresh(): void {
    for (const file of this.find()) this.readOn(file)
  }

  private readOn(file: string): void {
    let size: number
    try {
      size = statSync(file).size
    } catch {
      return // not written yet
    }
    const entry = this.files.get(file) ?? { offset: 0, partial: '', decoder: new StringDecoder('utf8') }
    this.files.set(file, entry)
    if (size < entry.offset)
      Object.assign(entry, { offset: 0, partial: '', decoder: new StringDecoder('utf8') }) // rewritten from scratch
    if (size === entry.offset) return
    let fd: number
    try {
      fd = openSync(file, 'r')
    } catch {
      return
    }
    try {
      const buffer = Buffer.alloc(CHUNK)
      while (entry.offset < size) {
        const n = readSync(fd, buffer, 0, Math.min(CHUNK, size - entry.offset), entry.offset)
        if (n <= 0) break
        entry.offset += n
        const lines = (entry.partial + entry.decoder.write(buffer.subarray(0, n))).split('\n')
        entry.partial = lines.pop() ?? ''
        for (const line of lines) if (line) this.take(line)
      }
    } finally {
      closeSync(fd)
    }
  }

  private take(line: string): void {
    const at = lineTime(line)
    if (at !== null && (this.newest === null || at > this.newest)) this.newest = at
    // Most lines carry no channel tag: skip them before parsing any JSON.
    if (!line.includes('event_id=')) return
    for (const { id, mark, at } of this.marks.addLine(line))
      if (mark === 'in_context' || at >= this.since) this.onMark(id, mark, at)
  }
}

const TIME_KEY = '"timestamp":"'

/**
 * A line's own time without parsing it: the last `timestamp` key, which is the line's own (Claude
 * Code writes it after the message, whose tool results may carry times of their own). Text quoted in
 * a message has its quotes escaped, so it cannot pose as the key.
 */
export function lineTime(line: string): number | null {
  const start = line.lastIndexOf(TIME_KEY)
  if (start === -1) return null
  const from = start + TIME_KEY.length
  const end = line.indexOf('"', from)
  const at = end === -1 ? Number.NaN : Date.parse(line.slice(from, end))
  return Number.isNaN(at) ? null : at
}
