// Newline-delimited JSON both ways. The reader survives chunks split anywhere, very long lines and
// garbage (logged, skipped, counted); the writer validates every line before the CLI sees it,
// because one malformed line on its stdin kills the CLI (PROTOCOLS.md §3).
import type { Writable } from 'node:stream'
import type * as z from 'zod'

export interface ReaderStats {
  lines: number
  skipped: number
}

/** Checks one parsed line: returns the typed value, or a reason to skip it. */
export type LineCheck<T> = (value: unknown) => { ok: true; value: T } | { ok: false; reason: string }

const NEWLINE = 0x0a

export class NdjsonReader<T> {
  readonly stats: ReaderStats = { lines: 0, skipped: 0 }
  /** Bytes of a line not finished yet, as the chunks they came in: joined once, when the line ends,
   * so a long line arriving in small chunks costs its length, not its length squared. Lines split at
   * the newline byte, which never occurs inside a multi-byte UTF-8 character, so chunks can be cut
   * anywhere. */
  private pending: Buffer[] = []
  private pendingBytes = 0
  /** Inside a line that was too long: dropping bytes up to its end. */
  private discarding = false

  constructor(
    private readonly check: LineCheck<T>,
    private readonly onLine: (value: T) => void,
    private readonly onSkip: (reason: string, line: string) => void = () => {},
    /** Longer lines are dropped (and counted), so a runaway line cannot exhaust memory. */
    private readonly maxLineBytes = 64 * 1024 * 1024,
  ) {}

  push(chunk: Buffer | string): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let start = 0
    let nl = data.indexOf(NEWLINE)
    if (this.discarding) {
      if (nl === -1) return
      this.discarding = false
      start = nl + 1
      nl = data.indexOf(NEWLINE, start)
    }
    while (nl !== -1) {
      if (this.pending.length > 0) {
        this.pending.push(data.subarray(start, nl))
        this.line(Buffer.concat(this.pending).toString('utf8'))
        this.pending = []
        this.pendingBytes = 0
      } else if (nl > start) this.line(data.toString('utf8', start, nl))
      start = nl + 1
      nl = data.indexOf(NEWLINE, start)
    }
    if (start < data.length) {
      const rest = data.subarray(start)
      if (this.pendingBytes + rest.length > this.maxLineBytes) {
        const head = (this.pending[0] ?? rest).toString('utf8', 0, 200)
        this.skip(`line longer than ${this.maxLineBytes} bytes`, head)
        this.pending = []
        this.pendingBytes = 0
        this.discarding = true
      } else {
        this.pending.push(rest)
        this.pendingBytes += rest.length
      }
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.pending.length > 0) this.line(Buffer.concat(this.pending).toString('utf8'))
    this.pending = []
    this.pendingBytes = 0
  }

  private line(raw: string): void {
    let json: unknown
    try {
      json = JSON.parse(raw)
    } catch {
      if (raw.trim()) this.skip('not JSON', raw)
      return
    }
    const checked = this.check(json)
    if (!checked.ok) {
      this.skip(checked.reason, raw)
      return
    }
    this.stats.lines++
    this.onLine(checked.value)
  }

  private skip(reason: string, line: string): void {
    this.stats.skipped++
    this.onSkip(reason, line.length > 200 ? `${line.slice(0, 200)}…` : line)
  }
}

export class InvalidLineError extends Error {
  override name = 'InvalidLineError'
}

/** One validated line as text (without its newline), or why it was refused. */
export function encodeLine<T>(schema: z.ZodType<T>, value: unknown): string | InvalidLineError {
  const parsed = schema.safeParse(value)
  if (parsed.success) return JSON.stringify(parsed.data)
  const issue = parsed.error.issues[0]
  const at = issue?.path.length ? `${issue.path.join('.')}: ` : ''
  return new InvalidLineError(`refused to write an invalid line: ${at}${issue?.message}`)
}

/** Validates, then writes one line. Rejects with InvalidLineError (and writes nothing) for a bad line. */
export function writeLine<T>(out: Writable, schema: z.ZodType<T>, value: unknown): Promise<void> {
  const text = encodeLine(schema, value)
  if (text instanceof InvalidLineError) return Promise.reject(text)
  return new Promise((resolve, reject) => {
    out.write(`${text}\n`, (err) => (err ? reject(err) : resolve()))
  })
}
