// IDEs a session can use (seed 001): each IDE with the Claude Code integration writes
// `~/.claude/ide/<port>.lock` naming its MCP server; binding a session is an `mcp_set_servers` control
// request whose `ide` entry points there, scoped `dynamic` so it does not outlive the CLI.
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import * as z from 'zod'
import { invalid, notFound } from '../core/errors.js'
import { processAlive } from '../core/process-alive.js'

const lockSchema = z.object({
  pid: z.number().int().positive(),
  workspaceFolders: z.array(z.string()).default([]),
  ideName: z.string().default('IDE'),
  transport: z.string().optional(),
  useWebSocket: z.boolean().optional(),
  authToken: z.string().optional(),
})

export interface Ide {
  port: number
  pid: number
  name: string
  workspaceFolders: string[]
  /** How Claude Code reaches its MCP server. */
  transport: 'ws' | 'sse'
  authToken: string | null
}

export function ideFolder(claudeDir = join(homedir(), '.claude')): string {
  return join(claudeDir, 'ide')
}

/** The live IDEs; lock files of IDEs that are gone (or unreadable) are removed, as Claude Code does. */
export function listIdes(folder = ideFolder()): Ide[] {
  let files: string[]
  try {
    files = readdirSync(folder).filter((f) => /^\d+\.lock$/.test(f))
  } catch {
    return []
  }
  const ides: Ide[] = []
  for (const file of files) {
    const path = join(folder, file)
    let lock: z.infer<typeof lockSchema>
    try {
      lock = lockSchema.parse(JSON.parse(readFileSync(path, 'utf8')))
    } catch {
      continue // being written, or not an IDE's: left alone
    }
    if (!processAlive(lock.pid)) {
      rmSync(path, { force: true })
      continue
    }
    ides.push({
      port: Number(file.slice(0, -'.lock'.length)),
      pid: lock.pid,
      name: lock.ideName,
      workspaceFolders: lock.workspaceFolders,
      // Claude Code itself reads only useWebSocket; `transport` is what newer IDEs write.
      transport: lock.useWebSocket === true || lock.transport === 'ws' ? 'ws' : 'sse',
      authToken: lock.authToken ?? null,
    })
  }
  return ides.sort((a, b) => a.port - b.port)
}

/** The IDE a person named: its port, or its name (case aside) when only one IDE has it. */
export function findIde(ides: Ide[], which: string): Ide {
  const byPort = /^\d+$/.test(which) ? ides.find((i) => i.port === Number(which)) : undefined
  if (byPort) return byPort
  const named = ides.filter((i) => i.name.toLowerCase() === which.toLowerCase())
  if (named.length === 1) return named[0] as Ide
  const known = ides.map((i) => `${i.port} (${i.name})`).join(', ') || 'none running'
  if (named.length > 1)
    throw invalid(`${named.length} IDEs are called "${which}"; name one by its port: ${known}`)
  throw notFound(`no live IDE "${which}"; live IDEs: ${known}`)
}

/** The `ide` entry of `mcp_set_servers` for this IDE. */
export function ideServer(ide: Ide): Record<string, unknown> {
  return {
    type: ide.transport === 'ws' ? 'ws-ide' : 'sse-ide',
    url: `${ide.transport === 'ws' ? 'ws' : 'http'}://127.0.0.1:${ide.port}`,
    ideName: ide.name,
    ...(ide.authToken ? { authToken: ide.authToken } : {}),
    scope: 'dynamic',
  }
}

/**
 * The servers a session was started with (`--mcp-config`, a JSON text or a file): `mcp_set_servers`
 * replaces the session's dynamic servers, and those are among them, so a binding sends them again.
 */
export function configuredServers(mcpConfig: string | undefined): Record<string, Record<string, unknown>> {
  if (!mcpConfig) return {}
  try {
    const text = mcpConfig.trimStart().startsWith('{') ? mcpConfig : readFileSync(mcpConfig, 'utf8')
    const servers = (JSON.parse(text) as { mcpServers?: unknown }).mcpServers
    return servers && typeof servers === 'object' ? (servers as Record<string, Record<string, unknown>>) : {}
  } catch {
    return {}
  }
}
