// What the hub can tell of sessions past and present: its own beside every other Claude Code session
// found on disk, and a session's transcript a page at a time.
import { discoverSessions } from '../../claude/discovery.js'
import {
  LINES_PER_PAGE,
  type LinesPage,
  type ListedSession,
  MAX_LINE_CHARS,
  PAGE_CHARS,
  type SessionView,
} from '../../core/session-api.js'
import type { Store } from '../../store/store.js'

/**
 * The hub's sessions (`managed`) and every other session found on disk, newest first. Any of them
 * can be resumed: a discovered one by creating a session with `resume: <claudeSessionId>`.
 */
export function listAll(
  managed: SessionView[],
  options: { cwd?: string; claudeDir?: string } = {},
): ListedSession[] {
  const mine = managed.filter((s) => !options.cwd || s.cwd === options.cwd)
  const known = new Set(mine.map((s) => s.claudeSessionId))
  const listed: ListedSession[] = mine.map((s) => ({
    id: s.id,
    claudeSessionId: s.claudeSessionId,
    cwd: s.cwd,
    status: s.status,
    managed: true,
    lastActivity: s.updatedAt,
    summary: s.lastResult,
    sources: ['hub'],
    agent: s.agent,
  }))
  for (const d of discoverSessions(options)) {
    if (known.has(d.sessionId)) continue
    listed.push({
      id: d.sessionId,
      claudeSessionId: d.sessionId,
      cwd: d.cwd,
      status: 'on_disk',
      managed: false,
      lastActivity: d.lastActivity,
      summary: d.firstPrompt,
      sources: d.sources,
      agent: 'claude',
    })
  }
  return listed.sort((a, b) => b.lastActivity - a.lastActivity)
}

/**
 * A page of the session's stored lines after `afterSeq`: at most `limit`, about PAGE_CHARS, an
 * over-long line cut. A transcript can be tens of MB; no caller holds more than a page of it.
 */
export async function linesPage(
  store: Store,
  id: string,
  afterSeq: number,
  limit = LINES_PER_PAGE,
): Promise<LinesPage> {
  const page = await store.sessionLines(id, afterSeq, {
    limit,
    maxChars: PAGE_CHARS,
    maxLineChars: MAX_LINE_CHARS,
  })
  return { lines: page.lines, next: page.more ? (page.lines.at(-1)?.seq ?? afterSeq) : null }
}
