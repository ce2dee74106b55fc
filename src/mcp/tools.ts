// The six claude_* tools of `switchboard mcp` with seed 004's arguments (and a few optional extras),
// and two of Switchboard's own for the prompts of every session (a terminal's hooks, a channel, a
// driven session): one zod schema per tool's arguments and one per its result, from which
// tools/list derives the JSON Schemas it advertises (core/tool-call.ts).
import * as z from 'zod'
import { agentChoiceSchema } from '../core/agent-options.js'
import { claudeOptionsSchema } from '../core/claude-options.js'
import { topicSchema } from '../core/hub-protocol.js'
import type { ToolSpec } from '../core/tool-call.js'
import {
  answeredResultSchema,
  decisionsResultSchema,
  listResultSchema,
  sessionResultSchema,
} from './results.js'

const options = claudeOptionsSchema.shape
const sessionId = z.string().min(1).describe('The session id')
/**
 * An extra: waits for the turn to end or ask for input, so an agent need not poll. Off by default
 * (the seed answers at once), so an agent also keeps control to interrupt a long turn.
 */
const waitSeconds = (seconds: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(300)
    .default(seconds)
    .describe(`Seconds to wait for the turn to end or ask for input (default ${seconds}, at most 300)`)

export const createArgs = z
  .object({
    prompt: z.string().min(1, 'must not be empty').describe('The initial task/prompt for Claude Code'),
    workingDirectory: z
      .string()
      .min(1)
      .optional()
      .describe('Working directory for the session (default: the folder switchboard mcp runs in)'),
    model: options.model.describe("Model override (e.g. 'sonnet', 'opus', or full model ID)"),
    permissionMode: options.permissionMode.describe(
      "Permission mode. 'plan' starts in planning mode (read-only analysis, then ExitPlanMode). Default: CLI's configured mode. acceptEdits, auto and bypassPermissions are refused unless switchboard mcp was started with --allow-pre-approval",
    ),
    allowedTools: options.allowedTools.describe(
      "Tools to pre-approve without prompting (e.g. ['Read', 'Glob', 'Bash(git diff *)']); refused unless switchboard mcp was started with --allow-pre-approval",
    ),
    disallowedTools: options.disallowedTools.describe('Tools to explicitly block'),
    maxTurns: options.maxTurns.describe('Maximum agentic turns. Default: unlimited'),
    maxBudgetUsd: options.maxBudgetUsd.describe('Maximum spend in USD. Default: unlimited'),
    systemPrompt: z.string().optional().describe('System prompt text to append (--append-system-prompt)'),
    dangerouslySkipPermissions: z
      .boolean()
      .optional()
      .describe(
        'Skip all permission checks (permission mode bypassPermissions); refused unless switchboard mcp was started with --allow-pre-approval',
      ),
    resume: options.resume.describe('A Claude Code session id to continue (see claude_list_sessions)'),
    fork: z.boolean().optional().describe('With resume: continue under a new session id'),
    topics: z
      .array(topicSchema)
      .optional()
      .describe('Hub events on these topics are written into the session as messages'),
    waitSeconds: waitSeconds(0),
    agent: agentChoiceSchema
      .optional()
      .describe(
        "An extra: the coding agent to run, 'claude' (Claude Code, the default), 'codex' (OpenAI Codex, which takes only prompt, workingDirectory, model, systemPrompt and resume), 'gemini' (Gemini CLI) or 'opencode' (OpenCode), which take only prompt, workingDirectory and resume",
      ),
  })
  .strict()

export const sendArgs = z
  .object({
    sessionId: sessionId.describe('The session ID (also one claude_list_sessions found on disk)'),
    message: z.string().min(1, 'must not be empty').describe('The message to send'),
    fork: z.boolean().optional().describe('When the session is resumed: under a new session id'),
    waitSeconds: waitSeconds(0),
  })
  .strict()

export const statusArgs = z
  .object({
    sessionId,
    outputLines: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(50)
      .describe('Number of recent output lines to return (default: 50)'),
    waitSeconds: waitSeconds(0),
  })
  .strict()

export const respondArgs = z
  .object({
    sessionId,
    inputId: z.string().min(1).describe('The pending input request ID (from get_status pendingInputs)'),
    decision: z.enum(['allow', 'deny']).describe('Whether to allow or deny the request'),
    reason: z.string().min(1).optional().describe('Reason for the decision (shown to Claude on deny)'),
    updatedInput: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "Modified tool input (e.g., sanitized command). Used with 'allow'. For a question: { answers } as one label per question, or question text → label",
      ),
    answers: z
      .record(z.string(), z.string())
      .optional()
      .describe('For a question: the chosen option label per question text'),
    waitSeconds: waitSeconds(0),
  })
  .strict()
export type RespondArgs = z.output<typeof respondArgs>

export const interruptArgs = z.object({ sessionId, waitSeconds: waitSeconds(10) }).strict()

export const listArgs = z
  .object({
    projectDirectory: z
      .string()
      .min(1)
      .optional()
      .describe('Filter sessions by project directory path. If omitted, lists all sessions.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(50)
      .describe('Maximum number of sessions to return (default: 50, most recent first)'),
  })
  .strict()

export const decisionsArgs = z.object({}).strict()

export const answerArgs = z
  .object({
    code: z
      .string()
      .min(1)
      .describe('The prompt’s five-letter code (or its decision id), as switchboard_decisions lists it'),
    decision: z
      .enum(['allow', 'deny'])
      .describe(
        'allow: run the tool, approve the plan, or answer the question; deny: refuse, send back, dismiss',
      ),
    reason: z
      .string()
      .min(1)
      .optional()
      .describe('With deny: what Claude is told (a plan sent back with this comment)'),
    answers: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'For a question, with allow: one answer per question, in order: an option’s label or number, or words of your own',
      ),
    updatedInput: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('For a permission, with allow: the tool input to run instead (e.g. an edited command)'),
  })
  .strict()
export type AnswerArgs = z.output<typeof answerArgs>

function tool<A extends z.ZodObject, R extends z.ZodObject>(description: string, args: A, result: R) {
  return { description, args, result } satisfies ToolSpec
}

export const tools = {
  claude_create_session: tool(
    'Start a new Claude Code CLI session with an initial prompt. It runs on its own: follow it with ' +
      'claude_get_status, and answer its pendingInputs (permission prompts, questions, plan reviews) with claude_respond.',
    createArgs,
    sessionResultSchema,
  ),
  claude_send_message: tool(
    'Send a message to a Claude Code session. Automatically resumes the session if it has ended.',
    sendArgs,
    sessionResultSchema,
  ),
  claude_get_status: tool(
    'Get the current status and recent output of a Claude Code session; waitSeconds long-polls while it runs.',
    statusArgs,
    sessionResultSchema,
  ),
  claude_respond: tool(
    'Respond to a pending request in a Claude Code session (permission approval, plan review, or question answer)',
    respondArgs,
    sessionResultSchema,
  ),
  claude_interrupt: tool(
    'Interrupt the running turn of a Claude Code session (equivalent to pressing Escape); the session stays resumable.',
    interruptArgs,
    sessionResultSchema,
  ),
  claude_list_sessions: tool(
    'List all Claude Code sessions across all projects. Includes both programmatic and interactive user-created sessions.',
    listArgs,
    listResultSchema,
  ),
  switchboard_decisions: tool(
    'List the prompts waiting for a person in every session the hub knows: permission dialogs, questions and plans of Claude Code sessions at terminals (through their hooks), of channels, and of driven sessions. Answer one with switchboard_answer; the first answer wins, wherever it comes from.',
    decisionsArgs,
    decisionsResultSchema,
  ),
  switchboard_answer: tool(
    'Answer a prompt switchboard_decisions listed: allow or deny a permission, approve a plan or send it back with a reason, or answer a question (answers: one per question, in order).',
    answerArgs,
    answeredResultSchema,
  ),
}
export type ToolName = keyof typeof tools
