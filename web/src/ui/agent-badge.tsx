// Whose session it is, beside its name, when that is not Claude Code's: "Codex", "Gemini CLI". A
// Claude Code session shows nothing, as it always did.
import { otherAgentLabel } from '../../../src/core/agents.ts'

export function AgentBadge({ agent }: { agent: unknown }) {
  const label = otherAgentLabel(agent)
  return label ? <span className="badge agent-badge">{label}</span> : null
}
