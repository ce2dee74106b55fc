// What this subscriber's session was shown, kept on disk. A channel started again under the same
// name, after its predecessor died, skips what that one wrote to Claude Code but could not
// acknowledge: the hub sends it again, and Claude must not see it twice.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { replacePrivateFile } from '../core/private-file.js'

/**
 * Ids kept: more than the hub ever has in flight to one subscriber unacknowledged (its window is
 * 1,024), so every id the hub can send again is here.
 */
const KEEP = 4_096

export class ShownLog {
  private readonly ids = new Set<string>()
  /** The ids kept, oldest overwritten first: no array shifting on the path between show and record. */
  private readonly ring: (string | undefined)[] = new Array(KEEP)
  private next = 0
  private fd: number
  private lines = 0
  private closed = false

  private constructor(private readonly file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    if (existsSync(file)) for (const id of readFileSync(file, 'utf8').split('\n')) if (id) this.remember(id)
    this.fd = this.rewrite()
  }

  static open(file: string): ShownLog {
    return new ShownLog(file)
  }

  has(id: string): boolean {
    return this.ids.has(id)
  }

  /**
   * Synchronous, and the file first: a crash between the write to Claude Code and this line is the
   * one moment an event can be shown twice, so the line goes out before any bookkeeping.
   */
  record(id: string): void {
    // Closed with its channel: a delivery still finishing then must not write to an fd the process
    // may have handed to another file.
    if (this.closed || this.ids.has(id)) return
    writeSync(this.fd, `${id}\n`)
    this.remember(id)
    if (++this.lines > 2 * KEEP) this.fd = this.rewrite()
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    closeSync(this.fd)
  }

  private remember(id: string): void {
    const oldest = this.ring[this.next]
    if (oldest !== undefined) this.ids.delete(oldest)
    this.ring[this.next] = id
    this.next = (this.next + 1) % KEEP
    this.ids.add(id)
  }

  /** The ids kept, oldest first. */
  private kept(): string[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)].filter((id) => id !== undefined)
  }

  /** The file cut down to the ids kept, written aside and renamed over: a crash leaves one or the other. */
  private rewrite(): number {
    const ids = this.kept()
    replacePrivateFile(this.file, ids.map((id) => `${id}\n`).join(''))
    if (this.fd !== undefined) closeSync(this.fd)
    this.lines = ids.length
    return openSync(this.file, 'a', 0o600)
  }
}
