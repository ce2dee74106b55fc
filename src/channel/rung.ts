// Which rung of the delivery ladder this channel can take (shared/DESIGN.md). Claude Code does not
// say whether channels are on (PROTOCOLS.md §2), so the channel reads what the session shows:
//
// 1. The delivery setting (channel|message) decides, when set.
// 2. A client that is not Claude Code (VS Code, Cursor, …) gets `notifications/message` + `inbox`.
// 3. Claude Code started with --channels or --dangerously-load-development-channels (its command
//    line, read from /proc) gets channel notifications; started without either, they would be
//    dropped, so it gets `notifications/message` + `inbox` (and the hook rung, where installed).
// 4. When Claude Code's command line cannot be read, channel notifications.
import { readFileSync } from 'node:fs'

export type Rung = 'channel' | 'message'

const CHANNEL_FLAGS = ['--channels', '--dangerously-load-development-channels']

/** The parent's argv, or null when it cannot be read (not Linux, or gone). */
function parentArgv(): string[] | null {
  try {
    return readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } catch {
    return null
  }
}

export function chooseRung(clientName: string | undefined, delivery: Rung | null, argv = parentArgv()): Rung {
  if (delivery !== null) return delivery
  if (clientName !== 'claude-code') return 'message'
  const isClaude = argv !== null && /(^|\/)claude(\.exe)?$/.test(argv[0] ?? '')
  if (!isClaude) return 'channel'
  return argv.some((a) => CHANNEL_FLAGS.some((f) => a === f || a.startsWith(`${f}=`))) ? 'channel' : 'message'
}
