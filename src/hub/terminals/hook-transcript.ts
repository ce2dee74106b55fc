// A session's transcript as the hub reads it for the hooks rung (docs/transcript-receipts.md): the
// lines Claude Code writes after a hook's answer, to see the events it handed over in Claude's
// context. The path comes in the hook's input, so the hub reads it with care: asynchronously (a hub
// serves every session), never a link, only a regular file (a FIFO or a device is opened without
// waiting and left alone), only under Claude Code's projects folder or owned by the hub's user, and at
// most LOOK_BYTES a look, on from where the last look ended.
import { constants } from 'node:fs'
import { type FileHandle, open, realpath } from 'node:fs/promises'
import { isAbsolute, join, sep } from 'node:path'
import { transcriptUnwritableAsync } from '../../claude/transcript-disk.js'
import { configDir } from '../../claude/transcript-file.js'
import { CHUNK, type MarkListener, TranscriptReading } from '../../claude/transcript-watch.js'

/** How much of a transcript one look reads at most; the rest waits for the next look. */
export const LOOK_BYTES = 4 << 20

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY

/** Where the hub may read transcripts: Claude Code's projects folder, and files of its own user. */
export interface TranscriptPlace {
  projects: string
  /** The hub's user (null where there are no uids). */
  uid: number | null
}

export function hubTranscriptPlace(env: NodeJS.ProcessEnv = process.env): TranscriptPlace {
  return { projects: join(configDir(env), 'projects'), uid: process.getuid?.() ?? null }
}

type Opened = { handle: FileHandle; size: number } | { missing: true } | { refused: string }

export class HookTranscript {
  readonly reading: TranscriptReading
  /** Why the hub reads no transcript here, for good (no path, or one it may not read). */
  private refused: string | null
  /** The file was there at some look. */
  private seen = false

  constructor(
    /** As the hook's input named it. */
    readonly path: string | undefined,
    private readonly place: TranscriptPlace,
    onMark: MarkListener,
    /** The subscriber the events were handed to (see TranscriptMarks). */
    self: string,
    private readonly lookBytes = LOOK_BYTES,
  ) {
    this.reading = new TranscriptReading(onMark, 0, self)
    this.refused =
      path === undefined
        ? "the hook's input named no transcript"
        : isAbsolute(path)
          ? null
          : `the hook's input named ${path}, not an absolute path`
  }

  /**
   * Takes the file's end as it is now: what Claude Code writes after this moment (a hook's answer
   * leaving) is what counts, and what was written before is never read.
   */
  async begin(): Promise<void> {
    const opened = await this.open()
    if (!('handle' in opened)) return
    await opened.handle.close()
    if (this.path) this.reading.startAt(this.path, opened.size)
  }

  /** Reads what was added since the last look, up to LOOK_BYTES, and tells the listener what it shows. */
  async look(): Promise<void> {
    const opened = await this.open()
    if (!('handle' in opened) || !this.path) return
    const { handle, size } = opened
    try {
      let offset = this.reading.next(this.path, size)
      if (offset === null) return
      const end = Math.min(size, offset + this.lookBytes)
      const buffer = Buffer.alloc(Math.min(CHUNK, end - offset))
      while (offset < end) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - offset), offset)
        if (bytesRead <= 0) break
        this.reading.take(this.path, buffer.subarray(0, bytesRead))
        offset += bytesRead
      }
    } finally {
      await handle.close()
    }
  }

  /**
   * Why nothing here shows an event handed over at `handedAt` in Claude's context, as far as the
   * transcript can tell.
   */
  why(handedAt: number): string {
    if (this.refused) return this.refused
    if (!this.seen)
      return `the session's transcript ${this.path} was not found (Claude Code keeps none with --no-session-persistence), so nothing shows the event arrived`
    const newest = this.reading.newestLineAt()
    if (newest !== null && newest > handedAt)
      return "Claude Code's transcript went on without it: the hook's answer did not reach the conversation (too late for the hook's timeout, or the session stopped)"
    return "Claude Code's transcript has said nothing since the hook answered: the session may have stopped"
  }

  /** Why Claude Code cannot write the transcript now (a full disk, a file it may not write), if so. */
  async unwritable(): Promise<string | null> {
    return this.refused || !this.path || !this.seen ? null : transcriptUnwritableAsync(this.path)
  }

  /** The file, if the hub may read it: a regular file, no link, where transcripts are or its user's own. */
  private async open(): Promise<Opened> {
    if (this.refused || !this.path) return { refused: this.refused ?? '' }
    let handle: FileHandle
    try {
      handle = await open(this.path, FLAGS)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true }
      return this.refuse(code === 'ELOOP' ? 'a link, not a regular file' : `not readable (${code})`)
    }
    try {
      const stat = await handle.stat()
      let why: string | null = null
      if (!stat.isFile()) why = 'not a regular file'
      else if (stat.uid !== this.place.uid && !(await this.underProjects()))
        why = `neither under ${this.place.projects} nor owned by the hub's user`
      if (why) {
        await handle.close()
        return this.refuse(why)
      }
      this.seen = true
      return { handle, size: stat.size }
    } catch (err) {
      await handle.close().catch(() => {})
      return this.refuse(`not readable (${(err as NodeJS.ErrnoException).code ?? String(err)})`)
    }
  }

  private refuse(why: string): Opened {
    this.refused = `the hub reads no transcript at ${this.path}: ${why}`
    return { refused: this.refused }
  }

  private async underProjects(): Promise<boolean> {
    try {
      const [file, projects] = await Promise.all([
        realpath(this.path as string),
        realpath(this.place.projects),
      ])
      return file.startsWith(projects + sep)
    } catch {
      return false
    }
  }
}
