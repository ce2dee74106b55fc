// Newline-delimited JSON both ways. The reader survives chunks split anywhere, very long lines and
// garbage (logged, skipped, counted); the writer validates every line before the CLI sees it,
// because one malformed line on its stdin kills the CLI (PROTOCOLS.md §3).
import type { Writable } from 'node:stream'
import type { z } from 'zod'

export interface ReaderStats {
  lines: number
  skipped: number
}

export class NdjsonReader<T> {
  readonly stats: ReaderStats = { lines: 0, skipped: 0 }
  private pending = ''
  private readonly decoder = new TextDecoder()

  constructor(
    private readonly schema: z.ZodType<T>,
    private readonly onLine: (value: T) => void,
    private readonly onSkip: (reason: string, line: string) => void = () => {},
    /** Longer lines are dropped (and counted), so a runaway line cannot exhaust memory. */
    private readonly maxLineBytes = 64 * 1024 * 1024,
  ) {}

  push(chunk: Buffer | string): void {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true })
    let start = 0
    let nl = this.pending.indexOf('\n', start)
    while (nl !== -1) {
      this.line(this.pending.slice(start, nl))
      start = nl + 1
      nl = this.pending.indexOf('\n', start)
    }
    this.pending = start === 0 ? this.pending : this.pending.slice(start)
    if (this.pending.length > this.maxLineBytes) {
      this.skip(`line longer than ${this.maxLineBytes} bytes`, this.pending)
      this.pending = ''
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    this.pending += this.decoder.decode()
    if (this.pending.trim()) this.line(this.pending)
    this.pending = ''
  }

  private line(raw: string): void {
    const text = raw.trim()
    if (!text) return
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      this.skip('not JSON', text)
      return
    }
    const parsed = this.schema.safeParse(json)
    if (!parsed.success) {
      this.skip(parsed.error.issues[0]?.message ?? 'invalid', text)
      return
    }
    this.stats.lines++
    this.onLine(parsed.data)
  }

  private skip(reason: string, line: string): void {
    this.stats.skipped++
    this.onSkip(reason, line.length > 200 ? `${line.slice(0, 200)}…` : line)
  }
}

export class InvalidLineError extends Error {
  override name = 'InvalidLineError'
}

/** Validates, then writes one line. Throws InvalidLineError (and writes nothing) for a bad line. */
export function writeLine<T>(out: Writable, schema: z.ZodType<T>, value: unknown): Promise<void> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const at = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    return Promise.reject(new InvalidLineError(`refused to write an invalid line: ${at}${issue?.message}`))
  }
  const text = `${JSON.stringify(parsed.data)}\n`
  return new Promise((resolve, reject) => {
    out.write(text, (err) => (err ? reject(err) : resolve()))
  })
}
