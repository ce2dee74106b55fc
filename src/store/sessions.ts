// The Store's sessions area: the Claude Code sessions the hub drives, and every line of their stream.
import type { SessionRecord, SessionStatus } from '../core/session-api.js'

// A session's record is also what the session API shows, so it is defined once, in core.
export type { SessionRecord, SessionStatus }

export interface SessionLine {
  seq: number
  /** The stored line, or a CutLine (core/session-api.ts) for one over `maxLineChars`. */
  line: Record<string, unknown>
  at: number
}

/** How much one read of a session's lines may bring out of the database. */
export interface LinePageSize {
  limit: number
  /** The page ends before the line that would take it past this many characters; one line always comes. */
  maxChars: number
  /** A longer line comes back cut (CutLine): the database gives its start and length only. */
  maxLineChars: number
}

export interface SessionLinePage {
  lines: SessionLine[]
  /** More lines follow the page's last (it was full, or its characters were). */
  more: boolean
}

export interface SessionStore {
  createSession(input: {
    id: string
    cwd: string
    config: Record<string, unknown>
    status: SessionStatus
    firstPrompt?: string | null
    project?: string | null
    routine?: string | null
    startedBy?: string | null
  }): Promise<SessionRecord>
  updateSession(
    id: string,
    change: Partial<
      Pick<
        SessionRecord,
        'claudeSessionId' | 'status' | 'costUsd' | 'turns' | 'lastResult' | 'config' | 'reason' | 'title'
      >
    >,
  ): Promise<void>
  getSession(id: string): Promise<SessionRecord | null>
  /** Forgets a session and its lines (`switchboard sessions prune`). False when there was none. */
  removeSession(id: string): Promise<boolean>
  listSessions(): Promise<SessionRecord[]>
  appendSessionLine(id: string, line: Record<string, unknown>): Promise<number>
  /** The lines after `afterSeq`, in order, a page at a time. */
  sessionLines(id: string, afterSeq: number, size: LinePageSize): Promise<SessionLinePage>
}
