// The hub's session API as its clients see it (the CLI, `switchboard mcp`, the HTTP routes): what a
// session is, how one is set up, and how a person answers what it asks. One definition for both sides.
import { z } from 'zod'

/** `stopped`: its CLI was ended (by a person, or after sitting idle); the next message resumes it. */
export type SessionStatus =
  | 'running'
  | 'waiting_for_input'
  | 'idle'
  | 'completed'
  | 'stopped'
  | 'error'
  | 'interrupted'

export interface SessionRecord {
  id: string
  /** Claude Code's own id, known from the first `system/init`; what `--resume` takes. */
  claudeSessionId: string | null
  cwd: string
  config: Record<string, unknown>
  status: SessionStatus
  costUsd: number
  turns: number
  lastResult: string | null
  /** Why it is stopped, failed or never started, in words for a person; null when all is well. */
  reason: string | null
  createdAt: number
  updatedAt: number
}

/** How a person answers a decision of a driven session. */
export const respondSchema = z.discriminatedUnion('behavior', [
  z
    .object({
      behavior: z.literal('allow'),
      /** Replaces the tool's input: the edited command is the one that runs. */
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      /** For a question: the chosen label per question text. */
      answers: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
  z.object({ behavior: z.literal('deny'), message: z.string().min(1).default('Denied') }).strict(),
])
export type RespondInput = z.infer<typeof respondSchema>

export interface PendingInput {
  decision: string
  code: string
  kind: 'permission' | 'question' | 'plan'
  tool_name: string
  input: Record<string, unknown>
  description?: string
}

/** How the hub runs a session's CLI, beside the CLI's own flags. */
export const sessionSetupSchema = z
  .object({
    /** `sdk-url`: the CLI connects back to the hub over WebSocket (CLIs up to 2.1.120, PROTOCOLS.md §4). */
    transport: z.enum(['stdio', 'sdk-url']).default('stdio'),
    /** A CLI other than CLAUDE_CODE_PATH / `claude` on PATH. */
    claudePath: z.string().min(1).optional(),
  })
  .strict()
export type SessionSetup = z.input<typeof sessionSetupSchema>

export interface ListedSession {
  id: string
  claudeSessionId: string | null
  cwd: string | null
  /** A hub session's status, or `on_disk` for one found only in Claude Code's files. */
  status: SessionStatus | 'on_disk'
  managed: boolean
  lastActivity: number
  summary: string | null
  /** Where a session was found: the hub, Claude Code's transcripts, its interactive history. */
  sources: ('hub' | 'transcript' | 'history')[]
}

export interface SessionView extends SessionRecord {
  live: boolean
  pendingInputs: PendingInput[]
  /** The IDE its CLI is bound to (`switchboard sessions ide`), while the CLI runs. */
  ide: { port: number; name: string } | null
}
