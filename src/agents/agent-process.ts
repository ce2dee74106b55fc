// The seam between the hub's driven sessions and the coding agent behind each: what a session
// needs of an agent's process, whichever agent it is. An adapter per agent (claude.ts over Claude
// Code's stream-json, codex/ over `codex app-server`) speaks its agent's protocol and says what
// happens in the one line model every surface reads, Claude Code's stream-json lines (system/init,
// assistant, user with tool results, stream_event, result): a session's transcript, costs, status
// and prompts are read the same way whoever wrote them.
import type { CanUseTool, CliLine, PermissionAnswer } from '../claude/messages.js'
import type { DrivenAgent } from '../core/agents.js'
import type { PermissionMode } from '../core/permission-modes.js'

/** What an agent's process tells its session, in the order it happened. */
export interface AgentProcessEvents {
  /** A line of the session, in the one line model. */
  line: [CliLine]
  /** Something the agent said that could not be read: the reason, and what it was. */
  skipped: [string, string]
  stderr: [string]
  exit: [number | null, NodeJS.Signals | null]
}

/** What the session answers for its agent. */
export interface AgentHandlers {
  /** A tool wants to run; the signal aborts when the agent withdraws the request. */
  canUseTool(request: CanUseTool, signal: AbortSignal): Promise<PermissionAnswer>
}

export interface AgentProcess {
  readonly agent: DrivenAgent
  on<E extends keyof AgentProcessEvents>(
    event: E,
    listener: (...args: AgentProcessEvents[E]) => void,
  ): unknown
  /** A user turn; `uuid` is the caller's id for it, which the agent's receipts name. */
  sendUser(text: string, extra?: { uuid?: string }): Promise<void>
  /** Ends the turn in progress; the process stays for the next one. */
  interrupt(): Promise<void>
  /** The model for the turns from now on. */
  setModel(model: string): Promise<void>
  /** A conflict for an agent that has no such modes. */
  setPermissionMode(mode: PermissionMode): Promise<void>
  /**
   * Replaces the session's dynamic MCP servers, returning what the agent answered; absent for an
   * agent that takes none from outside (only Claude Code's control protocol does).
   */
  setMcpServers?(servers: Record<string, Record<string, unknown>>): Promise<Record<string, unknown>>
  /** Ends the process cleanly, killing it after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>
}
