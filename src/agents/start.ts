// Which adapter runs a session's agent: the one place that knows every agent the hub can drive.
import type { SpawnEnv } from '../claude/process.js'
import { type DrivenAgent, isAcpAgent } from '../core/agents.js'
import type { ClaudeOptions } from '../core/claude-options.js'
import { AcpAgent } from './acp/agent.js'
import { GEMINI } from './acp/gemini.js'
import { OPENCODE } from './acp/opencode.js'
import type { AgentHandlers, AgentProcess } from './agent-process.js'
import { ClaudeAgent } from './claude.js'
import { CodexAgent } from './codex/agent.js'

/** Starts `agent`'s process for a session; throws (unavailable) when it cannot start at all. */
export function startAgent(
  agent: DrivenAgent,
  options: ClaudeOptions,
  handlers: AgentHandlers,
  spawnEnv: SpawnEnv,
): AgentProcess {
  if (agent === 'codex') return new CodexAgent(options, handlers, spawnEnv)
  if (isAcpAgent(agent))
    return new AcpAgent(agent === 'gemini' ? GEMINI : OPENCODE, options, handlers, spawnEnv)
  return new ClaudeAgent(options, handlers, spawnEnv)
}
