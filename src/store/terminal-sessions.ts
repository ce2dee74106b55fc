// The Store's terminal sessions area: the Claude Code sessions people run at terminals, as their hooks
// tell the hub (SessionStart, any hook since, SessionEnd). The hub does not drive them; it lists them
// and reaches them through the hook rung.
import type { TerminalSessionRow } from '../core/api/rows.js'

/** A session's record is also what the API shows, so it is defined once, in core. */
export type TerminalSession = TerminalSessionRow

export interface TerminalSessionSeen {
  sessionId: string
  folder: string
  name: string
  /** Absent: as before (a hook that does not say). */
  branch?: string | null
  repository?: string | null
  /** Kept once known: the title of its first prompt. */
  title?: string | null
  model?: string | null
  channel?: boolean
}

export interface TerminalSessionStore {
  /**
   * The session was heard from at `at`: recorded, or updated and running again. Its name is the one
   * it was first recorded with (a name is bound once: hub/names/session-names.ts).
   */
  sawTerminalSession(seen: TerminalSessionSeen, at: number): Promise<TerminalSession>
  /** SessionEnd: false when the session was not known. */
  endTerminalSession(sessionId: string, reason: string, at: number): Promise<boolean>
  getTerminalSession(sessionId: string): Promise<TerminalSession | null>
  /** The sessions bound to this subscriber name, ended ones too. */
  terminalSessionsNamed(name: string): Promise<TerminalSession[]>
  /** Newest heard first. */
  listTerminalSessions(): Promise<TerminalSession[]>
}
