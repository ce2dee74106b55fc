// Reads a session's transcript as Claude Code appends to it, and says when an event id shows up
// queued or in context (transcript-marks.ts). TranscriptReading is what the bytes say, however they
// are read; TranscriptWatch reads them the channel's way: polled, because Claude Code appends in small
// writes and inotify is not everywhere (network homes, containers), and a look every POLL_MS costs one
// stat. The hub reads the same lines its own way, asynchronously (hub/terminals/hook-transcript.ts).

import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { transcriptUnwritable } from './transcript-disk.js'
import { type TranscriptMark, TranscriptMarks } from './transcript-marks.js'

export const POLL_MS = 150
/** How much is read at a time. */
export const CHUNK = 1 << 16
/**
 * The longest line kept while it is unfinished: a longer one (a large file a tool read) is skipped
 * to its end. The lines that carry events are far shorter.
 */
const MAX_LINE = 32 << 20

export type MarkListener = (id: string, mark: TranscriptMark, at: number) => void

/** One file as read so far: where to read on, and a line not finished yet. */
interface Tail {
  offset: number
  partial: string
  /** The unfinished line is longer than MAX_LINE: what comes until its end is dropped. */
  skipping: boolean
  decoder: StringDecoder
}

const freshTail = (offset = 0): Tail => ({
  offset,
  partial: '',
  skipping: false,
  decoder: new StringDecoder('utf8'),
})

/**
 * What the transcripts read so far say: the marks of every event line, and when Claude Code made the
 * newest line. Fed the bytes of each file in order, from where `next` says to read on.
 */
export class TranscriptReading {
  private readonly marks: TranscriptMarks
  private readonly files = new Map<string, Tail>()
  private newest: number | null = null
  private firstSince: number | null = null

  constructor(
    private readonly onMark: MarkListener,
    /**
     * When this Claude Code process started, as near as the reader knows: a queue record older than
     * that is a queue that died with an earlier process (a session resumed with --resume), not a
     * reason to wait.
     */
    private readonly since: number,
    /** The subscriber this reader delivers to: tags addressed to another are not its own. */
    self?: string,
  ) {
    this.marks = new TranscriptMarks(self)
  }

  /** Reads `file` from `offset` on, unless it was read before: what is before it is of no interest. */
  startAt(file: string, offset: number): void {
    if (!this.files.has(file)) this.files.set(file, freshTail(offset))
  }

  /**
   * Where to read `file` on, now that it is `size` bytes long; null when nothing was added. A file
   * shorter than what was read of it was written anew, and is read from its start.
   */
  next(file: string, size: number): number | null {
    let tail = this.files.get(file)
    if (!tail || size < tail.offset) {
      tail = freshTail()
      this.files.set(file, tail)
    }
    return size === tail.offset ? null : tail.offset
  }

  /** The bytes of `file` read at the offset `next` gave. */
  take(file: string, bytes: Buffer): void {
    const tail = this.files.get(file) ?? freshTail()
    this.files.set(file, tail)
    tail.offset += bytes.length
    const lines = (tail.partial + tail.decoder.write(bytes)).split('\n')
    tail.partial = lines.pop() ?? ''
    for (const line of lines) {
      if (tail.skipping)
        tail.skipping = false // the end of the line too long to keep
      else if (line) this.line(line)
    }
    if (tail.partial.length > MAX_LINE) Object.assign(tail, { partial: '', skipping: true })
  }

  state(id: string): TranscriptMark | 'absent' {
    const mark = this.marks.state(id)
    return mark === 'queued' && (this.marks.at(id) ?? 0) < this.since ? 'absent' : mark
  }

  /**
   * When Claude Code made the newest line read so far (its own `timestamp`): a transcript that has
   * moved past the moment Claude Code read an event, without it, dropped it (see channel/confirm.ts).
   */
  newestLineAt(): number | null {
    return this.newest
  }

  /**
   * When this Claude Code process made its first line read so far (the oldest line no older than its
   * start): a turn it began then, before it set a channel up, had no channel wired (channel/why.ts).
   */
  firstLineAt(): number | null {
    return this.firstSince
  }

  /** Whether anything of a transcript was read yet. */
  get found(): boolean {
    return [...this.files.values()].some((f) => f.offset > 0)
  }

  private line(line: string): void {
    const at = lineTime(line)
    if (at !== null && (this.newest === null || at > this.newest)) this.newest = at
    if (at !== null && at >= this.since && (this.firstSince === null || at < this.firstSince))
      this.firstSince = at
    // Most lines carry no channel tag: skip them before parsing any JSON.
    if (!line.includes('event_id=')) return
    for (const { id, mark, at } of this.marks.addLine(line))
      if (mark === 'in_context' || at >= this.since) this.onMark(id, mark, at)
  }
}

/** The channel's reader: the files `find` names, read on at each look (synchronously: it is one session's process). */
export class TranscriptWatch extends TranscriptReading {
  private timer: NodeJS.Timeout | null = null

  constructor(
    /** The files to read now (the list may grow: a session's file appears with its first line). */
    private readonly find: () => string[],
    onMark: MarkListener,
    since = Date.now(),
    self?: string,
  ) {
    super(onMark, since, self)
  }

  start(): void {
    this.timer ??= setInterval(() => this.refresh(), POLL_MS)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** Why Claude Code cannot write the files read here now (a full disk, a file it may not write), if so. */
  unwritable(): string | null {
    for (const file of this.find()) {
      const why = transcriptUnwritable(file)
      if (why) return why
    }
    return null
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
    let offset = this.next(file, size)
    if (offset === null) return
    let fd: number
    try {
      fd = openSync(file, 'r')
    } catch {
      return
    }
    try {
      const buffer = Buffer.alloc(CHUNK)
      while (offset < size) {
        const n = readSync(fd, buffer, 0, Math.min(CHUNK, size - offset), offset)
        if (n <= 0) break
        this.take(file, buffer.subarray(0, n))
        offset += n
      }
    } finally {
      closeSync(fd)
    }
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
