// Binding a session's CLI to a live IDE (its port or name), as Claude Code's /ide does: the `ide`
// entry joins the session's dynamic MCP servers (PROTOCOLS.md §3, mcp_set_servers). It lasts as long
// as this CLI.
import * as z from 'zod'
import { configuredServers, findIde, ideServer, listIdes } from '../../claude/ide.js'
import { AGENT_LABELS } from '../../core/agents.js'
import { conflict } from '../../core/errors.js'
import type { LiveSession } from './live-session.js'

/** What the CLI answers to mcp_set_servers, as far as a binding reads it. */
const setServersAnswerSchema = z.object({ errors: z.record(z.string(), z.unknown()).optional() })

/** Binds `live` to the IDE named `which` among those in `ideFolder`; null unbinds. */
export async function bindIde(live: LiveSession, which: string | null, ideFolder: string): Promise<void> {
  const ide = which === null ? null : findIde(listIdes(ideFolder), which)
  if (!live.process.setMcpServers)
    throw conflict(`a ${AGENT_LABELS[live.process.agent]} session takes no IDE`)
  const servers = configuredServers(live.mcpConfig)
  const answer = await live.process.setMcpServers(ide ? { ...servers, ide: ideServer(ide) } : servers)
  // Newer CLIs (seen: 2.1.330) take no IDE from outside and say so; older ones connect at once.
  const refused = setServersAnswerSchema.safeParse(answer).data?.errors?.ide
  if (refused) throw conflict(`this Claude Code took no IDE: ${String(refused)}`)
  live.ide = ide
}
