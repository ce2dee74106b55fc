// The transcript of the session this channel serves (receipts, issue 23): the one witness of what
// reached Claude's context. Only Claude Code writes one (it sets CLAUDECODE=1 for what it starts),
// and not without persistence: other clients' channels acknowledge what they wrote, as before.
import { readFileSync } from 'node:fs'
import { transcriptFiles } from '../claude/transcript-file.js'
import type { MarkListener } from '../claude/transcript-watch.js'
import { TranscriptWatch } from '../claude/transcript-watch.js'
import { claudeStartedAt } from './claude-started.js'

/** Whether the channel's parent is a Claude Code that writes a transcript to confirm from. */
export function transcriptWritten(): boolean {
  return process.env.CLAUDECODE === '1' && !/(^|\0)--no-session-persistence(\0|$)/.test(parentCmdline())
}

export interface Session {
  /** Claude Code starts its MCP servers in the session's folder. */
  folder: string
  /** The session's id, when Claude Code said (CLAUDE_CODE_SESSION_ID). */
  id: string | undefined
  /** The subscriber the channel delivers as: tags addressed to another are not its own. */
  subscriber: string
}

/**
 * Opens the session's transcript as the channel reads it. Files written from a minute before the
 * channel started count (its session may have begun before it); a queue record older than Claude
 * Code's own start belongs to a process that is gone (claude-started.ts).
 */
export function sessionTranscript(session: Session, startedAt = Date.now()) {
  return (onMark: MarkListener) =>
    new TranscriptWatch(
      () => transcriptFiles(session.folder, session.id, startedAt - 60_000),
      onMark,
      claudeStartedAt(startedAt - 5_000),
      session.subscriber,
    )
}

function parentCmdline(): string {
  try {
    return readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8')
  } catch {
    return ''
  }
}
