// Claude Code's hooks as the hub takes them (POST /api/claude-hooks/:event): what each event's input
// carries that Switchboard reads, and the output Claude Code expects back for it (checked against the
// pinned CLI's own schemas; docs/design-notes.md "Without channels"). An empty object leaves the
// dialog to the terminal, which is what every failure, wait or doubt comes down to.
import * as z from 'zod'
import type { RespondInput } from './session-api.js'

/** The events `switchboard install claude --hooks` installs, in that order, each with its matcher. */
export const CLAUDE_HOOK_EVENTS = [
  'PermissionRequest',
  'PermissionDenied',
  'PreToolUse',
  'Notification',
  'Stop',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PostToolUse',
] as const
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number]

/**
 * Events an earlier install hooked and this one no longer does: install or remove takes their
 * entries out. (PreToolUse was one, when it asked questions and plans; it is hooked again, for every
 * tool, to let through a call operators allowed a retry of: hub/terminals/retry-grants.ts.)
 */
export const FORMER_HOOK_EVENTS = [] as const

/** Which tools an event's hook is for; none: every one (events without tools take no matcher). */
export const HOOK_MATCHERS: Partial<Record<ClaudeHookEvent, string>> = {
  PostToolUse: '*',
  PreToolUse: '*',
  PermissionDenied: '*',
}

/** The events whose hook waits for operators' answer (and is timed to it when installed). */
export const DIALOG_HOOK_EVENTS: readonly ClaudeHookEvent[] = ['PermissionRequest', 'PermissionDenied']

/** An event the hub's hook route takes: one install writes, or one an earlier install wrote. */
export function isClaudeHookEvent(name: string): boolean {
  return ([...CLAUDE_HOOK_EVENTS, ...FORMER_HOOK_EVENTS] as readonly string[]).includes(name)
}

/** The tools whose dialog asks the person something: a question, or a plan to approve. */
export const QUESTION_TOOL = 'AskUserQuestion'
export const PLAN_TOOL = 'ExitPlanMode'

/**
 * What every hook input carries and Switchboard needs; the rest of it passes through as sent.
 * (The event's own fields are read where they matter.)
 */
export const hookInputSchema = z
  .object({
    session_id: z.string().min(1).max(200),
    /** The session's transcript, where the hub sees what the hooks handed over reach Claude's context; one it cannot take is left out. */
    transcript_path: z.string().min(1).max(4096).optional().catch(undefined),
    hook_event_name: z.string().min(1).max(100),
    cwd: z.string().min(1).max(4096),
    tool_name: z.string().max(200).optional(),
    tool_input: z.record(z.string(), z.unknown()).optional(),
    tool_use_id: z.string().max(200).optional(),
    message: z.string().optional(),
    /**
     * UserPromptSubmit: the turn's prompt, as the person typed it (a session's title comes from their
     * first) or as Claude Code wrote a channel's notification that started it (hub/terminals/turn-starter.ts).
     */
    prompt: z.string().optional(),
    /** The turn this hook is of: every hook of one turn carries its UserPromptSubmit's. One it cannot take is left out. */
    prompt_id: z.string().max(200).optional().catch(undefined),
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

/** The hook route's path, less its event (POST /api/claude-hooks/:event). */
export const HOOK_ROUTE_PATH = '/api/claude-hooks/'

/** Headers the installed hooks send (values from the session's environment). */
export const HOOK_HEADERS = {
  /**
   * The session's subscriber name when its environment names one (SWITCHBOARD_CHANNEL_NAME): taken
   * when the session is first heard of, if no other session holds it, and bound to it from then on.
   */
  name: 'x-switchboard-name',
  /** The hook's own timeout in seconds, as installed: the hub answers before it. */
  timeout: 'x-switchboard-timeout',
  /**
   * The agent whose hook this is, when it is not Claude Code (core/agents.ts): Codex's
   * PermissionRequest hook sends Claude Code's input and takes its output, and says `codex` here.
   */
  agent: 'x-switchboard-agent',
} as const

/**
 * A stored answer to a dialog, as a PermissionRequest hook answers it. A question's and a plan's
 * dialog takes an allow only with `updatedInput` (a bare allow is ignored: docs/claude-hooks.md §2):
 * the question's input with its answers, or the plan's input echoed. `input`: the dialog's tool input
 * as Claude Code sent it (a plan's text in full, whatever operators were shown of it).
 */
export function permissionOutput(
  answer: RespondInput,
  asks?: { tool: string; input: Record<string, unknown> },
): HookOutput {
  let decision: Record<string, unknown>
  if (answer.behavior === 'deny') decision = { behavior: 'deny', message: answer.message }
  else if (asks && (asks.tool === QUESTION_TOOL || asks.tool === PLAN_TOOL))
    decision = {
      behavior: 'allow',
      updatedInput: answer.answers
        ? { ...asks.input, answers: answer.answers }
        : (answer.updatedInput ?? asks.input),
    }
  else decision = { behavior: 'allow', ...(answer.updatedInput ? { updatedInput: answer.updatedInput } : {}) }
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }
}

/**
 * PermissionDenied (2.1.330, seen): Claude Code's auto mode denied a call. It fires only for the
 * auto-mode classifier's denials, with the call and the classifier's reason; its answer may only say
 * `retry`, which adds "The PermissionDenied hook indicated you may retry this tool call." after the
 * denial. Checked before a decision is opened: a call without these is answered `{}`.
 */
export const permissionDeniedSchema = z.object({
  tool_name: z.string().min(1).max(200),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().max(200).optional(),
  reason: z.string().max(10_000),
})
export type PermissionDenied = z.infer<typeof permissionDeniedSchema>

/** A denied call's hook, answered "the model may retry it". */
export const RETRY_OUTPUT: HookOutput = {
  hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true },
}

/**
 * PreToolUse's allow: the call runs without auto mode's classifier or a dialog (seen with 2.1.330:
 * a call the classifier flags runs). Given only to the one call operators allowed a retry of.
 */
export function preToolAllow(reason: string): HookOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: reason,
    },
  }
}

/** Text the model is given with the prompt or after a tool call (UserPromptSubmit, PostToolUse). */
export function contextOutput(event: string, additionalContext: string): HookOutput {
  return { hookSpecificOutput: { hookEventName: event, additionalContext } }
}
