// The result shapes of seed 004's tools, one zod schema each (the types the mapping returns, and the
// outputSchema tools/list advertises), and how a hub session and its stored lines map onto them.

import * as z from 'zod'
import { agentSchema } from '../core/agents.js'
import { TIMEOUT_OUTCOMES } from '../core/decision-timeout.js'
import { PROMPT_KINDS } from '../core/outbox.js'
import type { ListedSession, PendingInput, SessionStatus, SessionView } from '../core/session-api.js'
import { promptText } from '../core/tool-call-text.js'
import { questionsOf } from './questions.js'
import { type Transcript, toolUseEventSchema } from './transcript.js'

const statusSchema = z.enum(['running', 'waiting_for_input', 'completed', 'error', 'interrupted'])
type Status = z.infer<typeof statusSchema>

/**
 * The hub keeps a CLI alive between turns (`idle`) and ends one that sat idle (`stopped`): to the
 * seed both are a finished turn, and claude_send_message continues either.
 */
const SEED_STATUS: Record<SessionStatus, Status> = {
  running: 'running',
  waiting_for_input: 'waiting_for_input',
  idle: 'completed',
  completed: 'completed',
  stopped: 'completed',
  error: 'error',
  interrupted: 'interrupted',
}

// A call auto mode denied is a permission to the seed's clients: allow lets it be retried.
const SEED_TYPE = {
  permission: 'permission',
  plan: 'plan_review',
  question: 'user_question',
  denied: 'permission',
} as const

export const pendingInputSchema = z.object({
  inputId: z.string().describe('What claude_respond takes as inputId'),
  type: z.enum(['permission', 'plan_review', 'user_question']),
  toolName: z.string(),
  toolInput: z.record(z.string(), z.unknown()),
  description: z.string(),
})
export type SeedPendingInput = z.infer<typeof pendingInputSchema>

export const sessionResultSchema = z.object({
  sessionId: z.string(),
  status: statusSchema,
  result: z.string().optional().describe('The result text of the last turn, once it has ended'),
  recentOutput: z.array(z.string()).describe('The last lines of text Claude wrote, oldest first'),
  pendingInputs: z.array(pendingInputSchema),
  toolUseEvents: z.array(toolUseEventSchema),
  costUsd: z.number(),
  turnCount: z.number(),
  claudeSessionId: z.string().optional().describe('Claude Code’s own session id'),
  reason: z.string().optional().describe('Why the session stopped or failed'),
  next: z.string().optional().describe('What the driving agent is expected to do next'),
})
export type SessionResult = z.infer<typeof sessionResultSchema>

export const listedSessionSchema = z.object({
  sessionId: z.string().describe('What claude_send_message takes, also for a session found on disk'),
  projectDirectory: z.string(),
  displayText: z.string(),
  timestamp: z.string().describe('Last activity, ISO 8601'),
  isActive: z.boolean().describe('Whether the hub runs a Claude Code process for it now'),
  activeStatus: statusSchema.optional(),
  claudeSessionId: z.string().optional(),
})
export const listResultSchema = z.object({ sessions: z.array(listedSessionSchema) })
export type ListedResult = z.infer<typeof listedSessionSchema>

/** The seed's "human-readable summary"; toolInput beside it holds what would actually run. */
function summary(p: PendingInput): string {
  if (p.kind === 'plan') return 'Claude has finished a plan (toolInput.plan) and asks to proceed with it'
  if (p.kind === 'question')
    return `Claude asks: ${questionsOf(p.input)
      .map((q) => q.question)
      .join(' / ')}`
  // What would run, as every surface shows it: Claude's own account alone could hide it.
  return promptText(p)
}

export function seedPendingInput(p: PendingInput): SeedPendingInput {
  return {
    inputId: p.decision,
    type: SEED_TYPE[p.kind],
    toolName: p.tool_name,
    toolInput: p.input,
    description: summary(p),
  }
}

/** A session as claude_get_status (and every tool that answers with a session) returns it. */
export function sessionResult(view: SessionView, seen: Transcript, outputLines: number): SessionResult {
  const status = SEED_STATUS[view.status]
  // The hub's lastResult outlives an interrupted turn; the lines say what the last turn ended with.
  const result = seen.turnEnded ? seen.lastResult : (view.lastResult ?? undefined)
  const ended = status !== 'running' && status !== 'waiting_for_input'
  return {
    sessionId: view.id,
    status,
    ...(ended && result !== undefined ? { result } : {}),
    recentOutput: outputLines > 0 ? seen.text.slice(-outputLines) : [],
    pendingInputs: view.pendingInputs.map(seedPendingInput),
    toolUseEvents: seen.toolUses,
    costUsd: view.costUsd,
    turnCount: view.turns,
    ...(view.claudeSessionId ? { claudeSessionId: view.claudeSessionId } : {}),
    ...(view.reason ? { reason: view.reason } : {}),
    ...(view.pendingInputs.length
      ? { next: 'answer each of pendingInputs with claude_respond(sessionId, inputId, decision: allow|deny)' }
      : {}),
  }
}

/** One entry of claude_list_sessions; `live`: the hub runs its CLI now. */
export function listedResult(s: ListedSession, live: boolean): ListedResult {
  return {
    sessionId: s.id,
    // A session found only in Claude Code's history may not say where it ran.
    projectDirectory: s.cwd ?? '',
    displayText: s.summary ?? '',
    timestamp: new Date(s.lastActivity).toISOString(),
    isActive: live,
    ...(s.status === 'on_disk' ? {} : { activeStatus: SEED_STATUS[s.status] }),
    ...(s.claudeSessionId && s.claudeSessionId !== s.id ? { claudeSessionId: s.claudeSessionId } : {}),
  }
}

/** A prompt waiting for a person, as switchboard_decisions lists it. */
export const decisionSchema = z.object({
  code: z.string().describe('What switchboard_answer takes'),
  decisionId: z.string(),
  kind: z.enum(PROMPT_KINDS),
  session: z
    .string()
    .describe('The session: a terminal session’s id, a channel’s name, a driven session’s id'),
  project: z.string().optional().describe('A terminal session’s folder name'),
  agent: agentSchema.optional().describe('The coding agent asking, when not Claude Code (codex)'),
  toolName: z.string(),
  toolInput: z.record(z.string(), z.unknown()).describe('The call; a plan’s text is in plan'),
  questions: z
    .array(z.object({ question: z.string(), options: z.array(z.string()) }))
    .optional()
    .describe('A question’s questions, each with its option labels, in the order answers takes them'),
  waitingSeconds: z.number(),
  expiresAt: z
    .number()
    .optional()
    .describe('When its timeout runs out (ms since the epoch); absent: it waits on'),
  onTimeout: z
    .enum(TIMEOUT_OUTCOMES)
    .optional()
    .describe('What happens then: deny, or terminal (the dialog goes back to Claude Code’s own prompt)'),
})

export const decisionsResultSchema = z.object({ decisions: z.array(decisionSchema) })

export const answeredResultSchema = z.object({
  code: z.string(),
  kind: z.string(),
  session: z.string(),
  behavior: z.enum(['allow', 'deny']),
  answers: z.record(z.string(), z.string()).optional(),
})
