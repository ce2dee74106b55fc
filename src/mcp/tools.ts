// The six claude_* tools of `switchboard mcp` (seed 004): their arguments, checked with zod, and the
// JSON Schemas clients see.
import { z } from 'zod'
import { claudeOptionsSchema } from '../claude/process.js'

const wait = z.number().int().min(0).max(300).optional()

export const createArgs = z
  .object({
    prompt: z.string().min(1, 'prompt must not be empty'),
    cwd: z.string().min(1).optional(),
    model: z.string().optional(),
    permissionMode: claudeOptionsSchema.shape.permissionMode,
    allowedTools: z.array(z.string()).optional(),
    disallowedTools: z.array(z.string()).optional(),
    maxTurns: z.number().int().positive().optional(),
    appendSystemPrompt: z.string().optional(),
    resume: z.string().optional(),
    fork: z.boolean().optional(),
    waitSeconds: wait,
  })
  .strict()

export const sendArgs = z
  .object({
    sessionId: z.string().min(1),
    message: z.string().min(1),
    fork: z.boolean().optional(),
    waitSeconds: wait,
  })
  .strict()
export const statusArgs = z.object({ sessionId: z.string().min(1), waitSeconds: wait }).strict()
export const respondArgs = z
  .object({
    sessionId: z.string().min(1),
    decision: z.string().min(1),
    behavior: z.enum(['allow', 'deny']),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    answers: z.record(z.string(), z.string()).optional(),
    message: z.string().optional(),
    waitSeconds: wait,
  })
  .strict()
export const interruptArgs = z.object({ sessionId: z.string().min(1) }).strict()
export const listArgs = z
  .object({ cwd: z.string().optional(), limit: z.number().int().min(1).max(500).optional() })
  .strict()

const s = (description: string, type = 'string') => ({ type, description })
const waitProp = s(
  'Seconds to wait for the session to finish its turn or ask for input (default 30, at most 300)',
  'number',
)

export const toolDefinitions = [
  {
    name: 'claude_create_session',
    description:
      'Start a Claude Code session in a folder with a first prompt. Returns its id, status, result so far, ' +
      'and any pendingInputs (permission prompts, questions, plan reviews) to answer with claude_respond.',
    inputSchema: {
      type: 'object' as const,
      properties: {
        prompt: s('The first message'),
        cwd: s('Working folder (default: this server’s folder)'),
        model: s('Model name'),
        permissionMode: {
          type: 'string',
          enum: ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk', 'auto'],
        },
        allowedTools: { type: 'array', items: { type: 'string' } },
        disallowedTools: { type: 'array', items: { type: 'string' } },
        maxTurns: s('Most agentic turns', 'number'),
        appendSystemPrompt: s('Added to the system prompt'),
        resume: s('A Claude Code session id to resume (see claude_list_sessions)'),
        fork: s('With resume: continue under a new session id', 'boolean'),
        waitSeconds: waitProp,
      },
      required: ['prompt'],
    },
  },
  {
    name: 'claude_send_message',
    description: 'Send a message to a session. A session whose process ended is resumed first.',
    inputSchema: {
      type: 'object' as const,
      properties: {
        sessionId: s('Session id'),
        message: s('The message'),
        fork: s('Resume under a new id', 'boolean'),
        waitSeconds: waitProp,
      },
      required: ['sessionId', 'message'],
    },
  },
  {
    name: 'claude_get_status',
    description:
      'A session’s status, last result and pendingInputs; waitSeconds long-polls until it changes.',
    inputSchema: {
      type: 'object' as const,
      properties: { sessionId: s('Session id'), waitSeconds: waitProp },
      required: ['sessionId'],
    },
  },
  {
    name: 'claude_respond',
    description:
      'Answer a pending input: allow (optionally with updatedInput, or answers for a question) or deny with a message.',
    inputSchema: {
      type: 'object' as const,
      properties: {
        sessionId: s('Session id'),
        decision: s('The pending input’s decision id or code'),
        behavior: { type: 'string', enum: ['allow', 'deny'] },
        updatedInput: { type: 'object', description: 'Replaces the tool input when allowing' },
        answers: { type: 'object', description: 'For a question: the chosen option label per question text' },
        message: s('Why, when denying'),
        waitSeconds: waitProp,
      },
      required: ['sessionId', 'decision', 'behavior'],
    },
  },
  {
    name: 'claude_interrupt',
    description: 'Stop the current turn of a session; the session stays ready for the next message.',
    inputSchema: {
      type: 'object' as const,
      properties: { sessionId: s('Session id') },
      required: ['sessionId'],
    },
  },
  {
    name: 'claude_list_sessions',
    description:
      'Every Claude Code session on this machine (driven by the hub or found on disk), newest first.',
    inputSchema: {
      type: 'object' as const,
      properties: { cwd: s('Only sessions of this folder'), limit: s('How many (default 50)', 'number') },
    },
  },
]
