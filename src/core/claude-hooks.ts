// Claude Code's hooks as the hub takes them (POST /api/claude-hooks/:event): what each event's input
// carries that Switchboard reads, and the output Claude Code expects back for it (checked against the
// pinned CLI's own schemas; docs/design-notes.md "Without channels"). An empty object leaves the
// dialog to the terminal, which is what every failure, wait or doubt comes down to.
import { z } from 'zod'
import type { RespondInput } from './session-api.js'

/** The events `switchboard install claude --hooks` installs, in that order, each with its matcher. */
export const CLAUDE_HOOK_EVENTS = [
  'PermissionRequest',
  'PreToolUse',
  'Notification',
  'Stop',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PostToolUse',
] as const
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number]

/** Which tools an event's hook is for; none: every one (events without tools take no matcher). */
export const HOOK_MATCHERS: Partial<Record<ClaudeHookEvent, string>> = {
  PreToolUse: 'AskUserQuestion|ExitPlanMode',
  PostToolUse: '*',
}

export function isClaudeHookEvent(name: string): name is ClaudeHookEvent {
  return (CLAUDE_HOOK_EVENTS as readonly string[]).includes(name)
}

/**
 * What every hook input carries and Switchboard needs; the rest of it passes through as sent.
 * (transcript_path and the event's own fields are read where they matter.)
 */
export const hookInputSchema = z
  .object({
    session_id: z.string().min(1).max(200),
    hook_event_name: z.string().min(1).max(100),
    cwd: z.string().min(1).max(4096),
    tool_name: z.string().max(200).optional(),
    tool_input: z.record(z.string(), z.unknown()).optional(),
    tool_use_id: z.string().max(200).optional(),
    message: z.string().optional(),
    notification_type: z.string().optional(),
    last_assistant_message: z.string().optional(),
    model: z.string().optional(),
    source: z.string().optional(),
    reason: z.string().optional(),
    agent_id: z.string().optional(),
  })
  .passthrough()
export type HookInput = z.infer<typeof hookInputSchema>

/** The answer to any hook when there is nothing to say: Claude Code goes on as without the hook. */
export type HookOutput = Record<string, unknown>
export const NOTHING: HookOutput = {}

/** Headers the installed hooks send (values from the session's environment, where Claude Code may read it). */
export const HOOK_HEADERS = {
  /** `1` in a session the hub drives: its prompts reach the hub through the control protocol already. */
  driven: 'x-switchboard-driven',
  /** The session's subscriber name when it has one (SWITCHBOARD_CHANNEL_NAME); else its folder's name. */
  name: 'x-switchboard-name',
  /** The hook's own timeout in seconds, as installed: the hub answers before it. */
  timeout: 'x-switchboard-timeout',
} as const

/** A stored answer to a permission dialog, as a PermissionRequest hook answers it. */
export function permissionOutput(answer: RespondInput): HookOutput {
  const decision =
    answer.behavior === 'deny'
      ? { behavior: 'deny', message: answer.message }
      : { behavior: 'allow', ...(answer.updatedInput ? { updatedInput: answer.updatedInput } : {}) }
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }
}

/**
 * A stored answer to a question or a plan, as a PreToolUse hook answers it: allowed with the
 * question's answers in the input (where the tool reads them), or denied with the reason the model is
 * given (a plan sent back with a comment).
 */
export function preToolUseOutput(input: Record<string, unknown>, answer: RespondInput): HookOutput {
  if (answer.behavior === 'deny')
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: answer.message,
      },
    }
  const updatedInput = answer.answers ? { ...input, answers: answer.answers } : (answer.updatedInput ?? input)
  return {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput },
  }
}

/** Text the model is given with the prompt or after a tool call (UserPromptSubmit, PostToolUse). */
export function contextOutput(event: string, additionalContext: string): HookOutput {
  return { hookSpecificOutput: { hookEventName: event, additionalContext } }
}
