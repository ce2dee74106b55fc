// Every Claude Code session on this machine, from what the CLI leaves on disk (PROTOCOLS.md §5):
// transcripts under ~/.claude/projects (all sessions) and ~/.claude/history.jsonl (interactive ones
// only). Both are parsed defensively: unknown line types and broken lines are normal.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface DiscoveredSession {
  sessionId: string
  cwd: string | null
  /** The first thing the user said, as far as the files tell. */
  firstPrompt: string | null
  lastActivity: number
  /** Where it was seen: a transcript, the interactive history, or both. */
  sources: ('transcript' | 'history')[]
}

const HEAD_BYTES = 256 * 1024

function parseLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const value = JSON.parse(line) as unknown
      if (value && typeof value === 'object' && !Array.isArray(value))
        out.push(value as Record<string, unknown>)
    } catch {
      // a line cut short, or not JSON: skip it
    }
  }
  return out
}

function readHead(file: string): string {
  const fd = openSync(file, 'r')
  try {
    const buffer = Buffer.alloc(HEAD_BYTES)
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0)
    return buffer.toString('utf8', 0, n)
  } finally {
    closeSync(fd)
  }
}

function promptText(message: unknown): string | null {
  if (!message || typeof message !== 'object') return null
  const content = (message as { content?: unknown }).content
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    const text = content.find((b) => b && typeof b === 'object' && (b as { type?: unknown }).type === 'text')
    return text ? String((text as { text?: unknown }).text ?? '') : null
  }
  return null
}

function fromTranscripts(projects: string): Map<string, DiscoveredSession> {
  const found = new Map<string, DiscoveredSession>()
  if (!existsSync(projects)) return found
  for (const folder of readdirSync(projects, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue
    const dir = join(projects, folder.name)
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.jsonl')) continue
      const file = join(dir, name)
      let lines: Record<string, unknown>[]
      let mtime: number
      try {
        lines = parseLines(readHead(file))
        mtime = statSync(file).mtimeMs
      } catch {
        continue
      }
      const sessionId = name.slice(0, -'.jsonl'.length)
      const withCwd = lines.find((l) => typeof l.cwd === 'string')
      const firstUser = lines.find((l) => l.type === 'user' && promptText(l.message))
      found.set(sessionId, {
        sessionId,
        cwd: (withCwd?.cwd as string | undefined) ?? null,
        firstPrompt: firstUser ? promptText(firstUser.message) : null,
        lastActivity: Math.round(mtime),
        sources: ['transcript'],
      })
    }
  }
  return found
}

function addHistory(file: string, found: Map<string, DiscoveredSession>): void {
  if (!existsSync(file)) return
  let lines: Record<string, unknown>[]
  try {
    lines = parseLines(readFileSync(file, 'utf8'))
  } catch {
    return
  }
  for (const entry of lines) {
    if (typeof entry.sessionId !== 'string') continue
    const at = typeof entry.timestamp === 'number' ? entry.timestamp : 0
    const known = found.get(entry.sessionId)
    if (known) {
      if (!known.sources.includes('history')) known.sources.push('history')
      known.lastActivity = Math.max(known.lastActivity, at)
      known.cwd ??= typeof entry.project === 'string' ? entry.project : null
      continue
    }
    found.set(entry.sessionId, {
      sessionId: entry.sessionId,
      cwd: typeof entry.project === 'string' ? entry.project : null,
      firstPrompt: typeof entry.display === 'string' ? entry.display : null,
      lastActivity: at,
      sources: ['history'],
    })
  }
}

/** Newest first; `cwd` keeps the sessions of one folder. */
export function discoverSessions(options: { claudeDir?: string; cwd?: string } = {}): DiscoveredSession[] {
  const claudeDir = options.claudeDir ?? join(homedir(), '.claude')
  const found = fromTranscripts(join(claudeDir, 'projects'))
  addHistory(join(claudeDir, 'history.jsonl'), found)
  return [...found.values()]
    .filter((s) => !options.cwd || s.cwd === options.cwd)
    .sort((a, b) => b.lastActivity - a.lastActivity)
}
