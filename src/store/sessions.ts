// The Store's sessions area: the Claude Code sessions the hub drives, and every line of their stream.
import type { SessionRecord, SessionStatus } from '../core/session-api.js'

// A session's record is also what the session API shows, so it is defined once, in core.
export type { SessionRecord, SessionStatus }

export interface SessionLine {
  seq: number
  line: Record<string, unknown>
  at: number
}

export interface SessionStore {
  createSession(input: {
    id: string
    cwd: string
    config: Record<string, unknown>
    status: SessionStatus
  }): Promise<SessionRecord>
  updateSession(
    id: string,
    change: Partial<
      Pick<
        SessionRecord,
        'claudeSessionId' | 'status' | 'costUsd' | 'turns' | 'lastResult' | 'config' | 'reason'
      >
    >,
  ): Promise<void>
  getSession(id: string): Promise<SessionRecord | null>
  /** Forgets a session and its lines (`switchboard sessions prune`). False when there was none. */
  removeSession(id: string): Promise<boolean>
  listSessions(): Promise<SessionRecord[]>
  appendSessionLine(id: string, line: Record<string, unknown>): Promise<number>
  sessionLines(id: string, afterSeq: number, limit: number): Promise<SessionLine[]>
}
