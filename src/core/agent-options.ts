// Which of a driven session's options each agent takes. The options are Claude Code's flags
// (claude-options.ts); Codex's app-server has a place for only some of them, the Agent Client
// Protocol (Gemini CLI, OpenCode) for fewer, and a session asking another agent for one it cannot
// honour is refused at the start, in one line, not run without it.
import * as z from 'zod'
import { AGENT_LABELS, DRIVEN_AGENTS, type DrivenAgent } from './agents.js'
import type { ClaudeOptions } from './claude-options.js'

/** The agent a person names for a session (the API's `agent`, run's --agent, the MCP tool's). */
export const agentChoiceSchema = z.enum(DRIVEN_AGENTS, {
  error: `the agent is one of: ${DRIVEN_AGENTS.join(', ')}`,
})

/** The options a Codex thread takes: its folder, model and instructions, and a thread to resume. */
const CODEX_OPTIONS: ReadonlySet<keyof ClaudeOptions> = new Set([
  'cwd',
  'model',
  'systemPrompt',
  'appendSystemPrompt',
  'resume',
  'includePartialMessages',
])

/** The options an ACP session takes: its folder and a session to load (ACP has no model or instructions to give at the start). */
const ACP_OPTIONS: ReadonlySet<keyof ClaudeOptions> = new Set(['cwd', 'resume', 'includePartialMessages'])

/** The variable that tells the hub where each agent's program is, instead of a session's claudePath. */
const PATH_VARIABLES: Record<Exclude<DrivenAgent, 'claude'>, string> = {
  codex: 'CODEX_PATH',
  gemini: 'GEMINI_PATH',
  opencode: 'OPENCODE_PATH',
}

/** What an agent cannot do of these options and setup, as one line; null when it can do them all. */
export function agentOptionsProblem(
  agent: DrivenAgent,
  options: Partial<Record<keyof ClaudeOptions, unknown>>,
  setup?: { transport?: string; claudePath?: string },
): string | null {
  if (agent === 'claude') return null
  // "an OpenCode session", "a Codex session"
  const label = `${/^[AEIOU]/.test(AGENT_LABELS[agent]) ? 'an' : 'a'} ${AGENT_LABELS[agent]}`
  const takes = agent === 'codex' ? CODEX_OPTIONS : ACP_OPTIONS
  const unsupported = Object.entries(options).find(
    ([key, value]) => value !== undefined && !takes.has(key as keyof ClaudeOptions),
  )
  if (unsupported) return `${label} session takes no ${unsupported[0]}`
  if (setup?.transport === 'sdk-url') return `${label} session has no sdk-url transport`
  if (setup?.claudePath)
    return `${label} session takes no claudePath (set ${PATH_VARIABLES[agent]} for the hub)`
  return null
}
