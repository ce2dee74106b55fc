// One running agent process of a session and what the hub keeps about it while it runs: the prompts it waits
// on, why the hub is ending it, its last words, the text it is writing, the IDE it is bound to.

import type { AgentProcess } from '../../agents/agent-process.js'
import type { Ide } from '../../claude/ide.js'
import type { PendingInput } from '../../core/session-api.js'
import { PartialText } from './partial-text.js'

/** How much of the CLI's stderr is kept, for the reason when it dies. */
const STDERR_TAIL = 2_000

export class LiveSession {
  /** Set by an interrupt: the turn's error result then means "interrupted", not "failed". */
  interrupting = false
  /** Its tool prompts no one has answered yet, by decision id. */
  readonly pending = new Map<string, PendingInput>()
  /** Set when the hub ends the CLI on purpose: why, for the record. */
  stopping: string | null = null
  /** The IDE this CLI is bound to (its MCP server is the dynamic `ide` server), if any. */
  ide: Ide | null = null
  /** The assistant text streaming in, before its line arrives. */
  readonly partial = new PartialText()
  /** Settles once the hub has recorded the CLI's end (status and reason). */
  readonly ended: Promise<void>
  private stderrTail = ''
  private settleEnded: () => void = () => {}

  constructor(
    readonly id: string,
    readonly process: AgentProcess,
    /** The MCP servers it was started with (checked, see session-seal.ts): an IDE is bound beside them. */
    readonly mcpConfig: string | undefined,
  ) {
    this.ended = new Promise((resolve) => {
      this.settleEnded = resolve
    })
  }

  heard(stderr: string): void {
    this.stderrTail = (this.stderrTail + stderr).slice(-STDERR_TAIL)
  }

  /** The last line it wrote on stderr, if any: what it died saying. */
  lastWords(): string | undefined {
    return this.stderrTail.trim().split('\n').at(-1) || undefined
  }

  markEnded(): void {
    this.settleEnded()
  }
}
