// Claude Code behind the seam: its stream-json process (claude/process.ts) as it is, started with
// partial messages on so the dashboard shows text as it is written. Its lines are the line model
// itself, so they pass through untouched.
import { ClaudeProcess, type SpawnEnv } from '../claude/process.js'
import type { ClaudeOptions } from '../core/claude-options.js'
import type { PermissionMode } from '../core/permission-modes.js'
import type { AgentHandlers, AgentProcess, AgentProcessEvents } from './agent-process.js'

export class ClaudeAgent implements AgentProcess {
  readonly agent = 'claude' as const
  private readonly process: ClaudeProcess

  constructor(options: ClaudeOptions, handlers: AgentHandlers, spawnEnv: SpawnEnv = {}) {
    this.process = new ClaudeProcess(
      // Partial messages let the dashboard show the text as it is written (stream_event lines).
      { ...options, includePartialMessages: options.includePartialMessages ?? true },
      handlers,
      spawnEnv,
    )
  }

  on<E extends keyof AgentProcessEvents>(event: E, listener: (...args: AgentProcessEvents[E]) => void) {
    // ClaudeProcess's events are the seam's, one for one.
    this.process.on(event, listener as never)
    return this
  }

  sendUser(text: string, extra: { uuid?: string } = {}): Promise<void> {
    return this.process.sendUser(text, extra)
  }

  interrupt(): Promise<void> {
    return this.process.interrupt()
  }

  async setModel(model: string): Promise<void> {
    await this.process.setModel(model)
  }

  async setPermissionMode(mode: PermissionMode): Promise<void> {
    await this.process.setPermissionMode(mode)
  }

  setMcpServers(servers: Record<string, Record<string, unknown>>): Promise<Record<string, unknown>> {
    return this.process.control.mcpSetServers(servers)
  }

  stop(graceMs?: number): Promise<void> {
    return this.process.stop(graceMs)
  }
}
