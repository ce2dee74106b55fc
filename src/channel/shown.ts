// What this subscriber's session was shown, kept on disk. A channel started again under the same
// name, after its predecessor died, skips what that one wrote to Claude Code but could not
// acknowledge: the hub sends it again, and Claude must not see it twice.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'

/**
 * Ids kept: more than the hub ever has in flight to one subscriber unacknowledged (its window is
 * 1,024), so every id the hub can send again is here.
 */
const KEEP = 4_096

export class ShownLog {
  private readonly ids = new Set<string>()
  private readonly order: string[] = []
  private fd: number
  private lines = 0

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

  /** Synchronous, so nothing else runs between showing an event and recording it. */
  record(id: string): void {
    if (this.ids.has(id)) return
    this.remember(id)
    writeSync(this.fd, `${id}\n`)
    if (++this.lines > 2 * KEEP) this.fd = this.rewrite()
  }

  close(): void {
    closeSync(this.fd)
  }

  private remember(id: string): void {
    this.ids.add(id)
    this.order.push(id)
    if (this.order.length > KEEP) this.ids.delete(this.order.shift() as string)
  }

  /** The file cut down to the ids kept, written aside and renamed over: a crash leaves one or the other. */
  private rewrite(): number {
    const draft = `${this.file}.${process.pid}.tmp`
    writeFileSync(draft, this.order.map((id) => `${id}\n`).join(''), { mode: 0o600 })
    renameSync(draft, this.file)
    if (this.fd !== undefined) closeSync(this.fd)
    this.lines = this.order.length
    return openSync(this.file, 'a', 0o600)
  }
}
