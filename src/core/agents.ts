// The coding agents whose sessions Switchboard serves. Claude Code is the one everything was built
// for; the others reach the same decision inbox through their own hook mechanisms (issue 35), and an
// agent's name travels with each of their dialogs so every surface can say whose it is.
import * as z from 'zod'

export const AGENTS = ['claude', 'codex', 'gemini', 'opencode'] as const
export const agentSchema = z.enum(AGENTS)
export type Agent = z.infer<typeof agentSchema>

/** The agents whose sessions the hub can start and steer; the others come in through their hooks only. */
export const DRIVEN_AGENTS = ['claude', 'codex', 'gemini', 'opencode'] as const satisfies readonly Agent[]
export const drivenAgentSchema = z.enum(DRIVEN_AGENTS)
export type DrivenAgent = z.infer<typeof drivenAgentSchema>

/** The driven agents the hub speaks the Agent Client Protocol to (agents/acp/), one adapter for all. */
export const ACP_AGENTS = ['gemini', 'opencode'] as const satisfies readonly Agent[]
export type AcpAgentName = (typeof ACP_AGENTS)[number]

/** Whether `agent` is driven over ACP. */
export function isAcpAgent(agent: Agent): agent is AcpAgentName {
  return (ACP_AGENTS as readonly string[]).includes(agent)
}

/** What people are shown for each agent. */
export const AGENT_LABELS: Record<Agent, string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
}

/** Who is asking, as a prompt says it ("Codex wants to run Bash"): the model's side of each agent. */
const SPEAKERS: Record<Agent, string> = {
  claude: 'Claude',
  codex: 'Codex',
  gemini: 'Gemini',
  opencode: 'OpenCode',
}

/**
 * A session's name as a prompt shows it, with its agent beside it when that is not Claude Code
 * ("api · fix the flaky test (Codex)"): a request or prompt body carries `agent` only then.
 */
export function namedWithAgent(name: string, agent: unknown): string {
  const label = otherAgentLabel(agent)
  return label ? `${name} (${label})` : name
}

/**
 * The agent's name to show beside a session's ("Codex"), or null for Claude Code, the agent every
 * surface was built for and names by saying nothing; null too for what names no agent.
 */
export function otherAgentLabel(agent: unknown): string | null {
  const parsed = agentSchema.safeParse(agent)
  return parsed.success && parsed.data !== 'claude' ? AGENT_LABELS[parsed.data] : null
}

/** Who a prompt says is asking ("Codex wants to run Bash"): the model's side, Claude for Claude Code. */
export function speakerOf(agent: unknown): string {
  const parsed = agentSchema.safeParse(agent)
  return SPEAKERS[parsed.success ? parsed.data : 'claude']
}

/**
 * The agent a stored session runs, as its settings say, for every surface to name: read without the
 * seal, since showing it runs nothing (a resume reads it through the sealed settings). Claude Code
 * when they name none, as every session stored before there were other agents.
 */
export function drivenAgentOf(config: Record<string, unknown>): DrivenAgent {
  const named = drivenAgentSchema.safeParse(config.agent)
  return named.success ? named.data : 'claude'
}
