// What the one ACP adapter (agent.ts) needs to know of each agent it drives: how to start it so that
// it speaks the Agent Client Protocol on stdio, what it is called, where (if anywhere) its own record
// of a session can be read back, and what it needs before loading a session in a new process.
import type { AcpAgentName } from '../../core/agents.js'

/** The command that starts the agent speaking ACP on stdio. */
export interface AcpCommand {
  bin: string
  args: string[]
  /** Variables the agent's process gets on top of the session's environment. */
  env?: Record<string, string>
}

/**
 * The agent's own record of one session, read back to confirm that a prompt entered its context
 * (an event's `in_context` receipt): null when nothing was found yet.
 */
export interface SessionRecordReader {
  /** Every user text the record holds for the session, in order; [] when there is none yet. */
  userTexts(sessionId: string): Promise<string[]>
}

export interface AcpProfile {
  readonly agent: AcpAgentName
  /** What people are shown: the agent's name ("Gemini CLI"). */
  readonly label: string
  /** How to start it for a session in `cwd`; throws unavailable when it is not installed. */
  command(cwd: string, env: NodeJS.ProcessEnv): AcpCommand
  /**
   * How to read the agent's own session record, given the session's environment; absent for an
   * agent whose record Switchboard cannot read (its events are then `unconfirmed`, with why).
   */
  record?(env: NodeJS.ProcessEnv): SessionRecordReader
  /** Why an agent without a record reader cannot confirm an event. */
  readonly unreadable?: string
  /**
   * Before `session/load` in a new process: resolves once loading is safe, calling `waiting` with a
   * sentence when it has to wait (see gemini.ts: a load in the session's first minute breaks it).
   */
  beforeLoad?(sessionId: string, env: NodeJS.ProcessEnv, waiting: (why: string) => void): Promise<void>
}
