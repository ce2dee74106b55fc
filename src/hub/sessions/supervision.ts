// The agents' processes the hub runs, one per session at most (Claude Code's, or another agent's
// behind the same seam, agents/): started, handed their lines in order, stopped, and, once one has
// ended, what its end means for its session.
import type { AgentProcess } from '../../agents/agent-process.js'
import { startAgent } from '../../agents/start.js'
import type { CanUseTool, CliLine, PermissionAnswer } from '../../claude/messages.js'
import type { SpawnEnv } from '../../claude/process.js'
import type { DrivenAgent } from '../../core/agents.js'
import type { ClaudeOptions } from '../../core/claude-options.js'
import { conflict, isDomainError, unavailable } from '../../core/errors.js'
import type { Logger } from '../../core/log.js'
import type { SessionStatus } from '../../store/store.js'
import { LiveSession } from './live-session.js'

/** What the hub does with what a CLI says, and with its end. */
export interface SupervisedHooks {
  /** A tool wants to run; `signal` aborts when the CLI withdraws the request. */
  canUseTool(live: LiveSession, request: CanUseTool, signal: AbortSignal): Promise<PermissionAnswer>
  /** A line it printed. The next line waits for this one: lines are handled in the order they came. */
  line(live: LiveSession, line: CliLine): Promise<void>
  /** It ended, after every line it printed was handled. */
  exited(live: LiveSession, code: number | null, signal: NodeJS.Signals | null): Promise<void>
}

export class Supervisor {
  private readonly running = new Map<string, LiveSession>()

  constructor(
    private readonly log: Logger,
    private readonly hooks: SupervisedHooks,
  ) {}

  get(id: string): LiveSession | undefined {
    return this.running.get(id)
  }

  has(id: string): boolean {
    return this.running.has(id)
  }

  /** The session's running CLI; a conflict when none runs. */
  require(id: string): LiveSession {
    const live = this.running.get(id)
    if (!live) throw conflict(`session ${id} is not running`)
    return live
  }

  get size(): number {
    return this.running.size
  }

  /** Starts the session's agent. Unavailable when it cannot be started at all (see exitOutcome for later). */
  start(id: string, agent: DrivenAgent, options: ClaudeOptions, spawnEnv: SpawnEnv): LiveSession {
    let live: LiveSession | undefined
    let process: AgentProcess
    try {
      process = startAgent(
        agent,
        options,
        {
          canUseTool: (request, signal) =>
            live
              ? this.hooks.canUseTool(live, request, signal)
              : Promise.resolve({ behavior: 'deny', message: 'session is stopping' }),
        },
        spawnEnv,
      )
    } catch (err) {
      throw isDomainError(err) ? err : unavailable((err as Error).message)
    }
    live = new LiveSession(id, process, options.mcpConfig)
    this.running.set(id, live)
    this.follow(live)
    return live
  }

  /** Ends the CLI (its stdin closed; killed after `graceMs`) and waits until its end is recorded. */
  async stop(live: LiveSession, reason: string, graceMs = 5_000): Promise<void> {
    live.stopping = reason
    await live.process.stop(graceMs)
    await live.ended
  }

  /** Ends every CLI (the hub is stopping); does not wait for their ends to be recorded. */
  async stopAll(reason: string, graceMs: number): Promise<void> {
    const all = [...this.running.values()]
    for (const live of all) live.stopping = reason
    await Promise.all(all.map((live) => live.process.stop(graceMs)))
  }

  private follow(live: LiveSession): void {
    const { id, process } = live
    // Lines are handled in the order they came; the chain keeps that order across awaits.
    let chain = Promise.resolve()
    process.on('line', (line) => {
      chain = chain
        .then(() => this.hooks.line(live, line))
        .catch((err) => this.log.error({ err, session: id }, 'line not stored'))
    })
    process.on('skipped', (reason, line) =>
      this.log.warn({ session: id, reason, line }, 'unreadable line from the CLI'),
    )
    process.on('stderr', (text) => {
      live.heard(text)
      this.log.debug({ session: id, text }, 'CLI stderr')
    })
    process.on('exit', (code, signal) => {
      chain = chain
        .then(() => {
          if (this.running.get(id) === live) this.running.delete(id)
          return this.hooks.exited(live, code, signal)
        })
        .catch((err) => this.log.error({ err, session: id }, 'CLI end not recorded'))
        .finally(() => live.markEnded())
    })
  }
}

/** A session in one of these has a CLI running somewhere, as far as its record says. */
export const LIVE_STATUSES: ReadonlySet<SessionStatus> = new Set(['running', 'waiting_for_input', 'idle'])

/** What a CLI's end leaves its session in, and why, in words for a person. */
export function exitOutcome(end: {
  code: number | null
  signal: NodeJS.Signals | null
  /** Why the hub ended it, when it did. */
  stopping: string | null
  /** The session's status when it ended. */
  status: SessionStatus | undefined
  lastWords: string | undefined
}): { status: SessionStatus; reason: string | null } {
  if (end.stopping) return { status: 'stopped', reason: end.stopping }
  if (end.code !== 0 || end.signal !== null) {
    const how = end.signal ? `signal ${end.signal}` : `code ${end.code}`
    return {
      status: 'error',
      reason: `the CLI exited with ${how}${end.lastWords ? `: ${end.lastWords}` : ''}`,
    }
  }
  if (end.status === 'running' || end.status === 'waiting_for_input')
    return { status: 'error', reason: 'the CLI ended in the middle of a turn' }
  return { status: 'completed', reason: null }
}
