// Gemini CLI's BeforeTool hook as the hub takes it (POST /api/claude-hooks/BeforeTool with
// `x-switchboard-agent: gemini`; shared/AGENTS.md §2c): its input carries what Claude Code's hooks
// carry (session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input), and it answers
// `{"decision":"allow"}` or `{"decision":"deny","reason":…}`. Gemini treats a hook that prints
// nothing, fails or times out as having no objection, which under `--approval-mode yolo` runs the
// tool: so every answer that is not a person's is `{"decision":"ask"}`, which puts Gemini's own
// dialog on its terminal. That is Gemini's "fail toward the terminal".
import type { HookOutput } from './claude-hooks.js'
import type { RespondInput } from './session-api.js'

/** The one event Switchboard hooks in Gemini CLI: it runs before every tool its matcher names. */
export const GEMINI_HOOK_EVENT = 'BeforeTool'

/** No person answered (no hub, a refusal, the wait ended): Gemini's own dialog decides. */
export const GEMINI_ASK: HookOutput = { decision: 'ask' }

/**
 * A person's answer, as Gemini's BeforeTool takes it. An edited input goes back as
 * `hookSpecificOutput.tool_input`, which Gemini runs in place of the model's.
 */
export function geminiOutput(answer: RespondInput): HookOutput {
  if (answer.behavior === 'deny') return { decision: 'deny', reason: answer.message }
  return {
    decision: 'allow',
    ...(answer.updatedInput
      ? { hookSpecificOutput: { hookEventName: GEMINI_HOOK_EVENT, tool_input: answer.updatedInput } }
      : {}),
  }
}
