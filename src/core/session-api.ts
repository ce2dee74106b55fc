// The hub's session API as its clients see it (the CLI, `switchboard mcp`, the HTTP routes): what a
// session is, how one is set up, and how a person answers what it asks. One definition for both sides.
import * as z from 'zod'
import type { Agent, DrivenAgent } from './agents.js'
import type { PromptKind } from './outbox.js'

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
  /** What it was started with (cut to SESSION_PROMPT_KEPT characters); null for one started before this was kept. */
  firstPrompt: string | null
  /** The name a person gave it; null: it is named by its folder and first prompt (core/session-name.ts). */
  title: string | null
  /** What its usage counts against (core/usage.ts): its project's name, the routine that started it, who did. */
  project: string | null
  routine: string | null
  startedBy: string | null
  createdAt: number
  updatedAt: number
}

/** How much of a session's first prompt its record keeps: enough to name it. */
export const SESSION_PROMPT_KEPT = 500

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

/**
 * What a stored line too long to serve whole comes back as (MAX_LINE_CHARS): its start and its length.
 * The rest never leaves the database; a page shows it as cut.
 */
export interface CutLine {
  type: 'switchboard_cut'
  /** The stored line's length, in characters. */
  chars: number
  /** Its first characters, as stored (JSON text, cut anywhere). */
  head: string
}
export const CUT_LINE_TYPE = 'switchboard_cut'
/** A stored line longer than this many characters is served as a CutLine. */
export const MAX_LINE_CHARS = 256 * 1024
/** How much of a cut line is kept to show. */
export const CUT_HEAD_CHARS = 2_000

export function cutLine(json: string, chars = json.length): CutLine {
  return { type: CUT_LINE_TYPE, chars, head: json.slice(0, CUT_HEAD_CHARS) }
}

/** GET …/lines?after=&limit=: where the page starts, and how many lines it may hold. */
export const linesQuerySchema = z.object({
  after: z.coerce.number().int().min(0, 'after is a seq, 0 or more').default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit is at least 1')
    .max(2_000, 'limit is at most 2000')
    .default(500),
})

/** A line as JSON text for a page or a stream: whole, or cut when it is over MAX_LINE_CHARS. */
export function lineText(line: unknown): string {
  const json = JSON.stringify(line)
  return json.length > MAX_LINE_CHARS ? JSON.stringify(cutLine(json)) : json
}

/** A page of a session's stored lines, and where the next one starts (null: there is none yet). */
export interface LinesPage {
  lines: { seq: number; line: Record<string, unknown>; at: number }[]
  next: number | null
}
/** Lines per page of GET …/lines unless the caller asks for fewer (or more, up to 2000). */
export const LINES_PER_PAGE = 500
/** A page ends before the line that would take it past this many characters (one line always comes). */
export const PAGE_CHARS = 1024 * 1024

export interface PendingInput {
  decision: string
  code: string
  kind: PromptKind
  tool_name: string
  input: Record<string, unknown>
  description?: string
  /** Whose prompt it is when not Claude Code's (core/agents.ts), so every surface names it. */
  agent?: Agent
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
  /** The agent that runs it: a hub session's own; Claude Code for one found in Claude Code's files. */
  agent: DrivenAgent
}

export interface SessionView extends SessionRecord {
  /** The agent that runs it, as its settings say (`config.agent`; Claude Code when they name none). */
  agent: DrivenAgent
  live: boolean
  pendingInputs: PendingInput[]
  /** The IDE its CLI is bound to (`switchboard sessions ide`), while the CLI runs. */
  ide: { port: number; name: string } | null
}
