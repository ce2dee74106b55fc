// When the Claude Code process this channel serves started (Linux: /proc). A queue record in the
// transcript older than that belongs to a process that is gone (a session resumed with --resume);
// one newer is a live queue, also when the channel itself was started again (/mcp reconnect).
import { readFileSync } from 'node:fs'

const TICKS_PER_SECOND = 100 // USER_HZ, 100 on every Linux that matters

function parentOf(pid: number): { ppid: number; startTicks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name may hold spaces and parentheses: fields count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(fields[1]), startTicks: Number(fields[19]) }
  } catch {
    return null
  }
}

/** Seconds since boot, to the hundredth (/proc/uptime), the clock a process's start is counted on. */
function uptimeSeconds(): number | null {
  try {
    const up = Number.parseFloat(readFileSync('/proc/uptime', 'utf8'))
    return Number.isFinite(up) ? up : null
  } catch {
    return null
  }
}

function isClaude(pid: number): boolean {
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? ''
    return /(^|\/)claude(\.exe)?$/.test(argv0)
  } catch {
    return false
  }
}

/**
 * The start (ms) of the nearest ancestor that is Claude Code, within a few levels; else `fallback`.
 * Counted back from now on the boot clock, to its ticks (10 ms), not from /proc/stat's btime (whole
 * seconds): with a second's margin, a CLI resumed within a second of a kill took the dead one's
 * queue records for a live queue and waited on them.
 */
export function claudeStartedAt(fallback: number): number {
  const now = Date.now()
  const up = uptimeSeconds()
  if (up === null) return fallback
  let pid = process.ppid
  for (let level = 0; level < 4 && pid > 1; level++) {
    const info = parentOf(pid)
    if (!info) return fallback
    // Both clocks read in 10 ms steps: two steps of margin, so this process's own first records count.
    if (isClaude(pid)) return now - (up * 1000 - (info.startTicks * 1000) / TICKS_PER_SECOND) - 20
    pid = info.ppid
  }
  return fallback
}
