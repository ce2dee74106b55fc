// Logs never go to stdout: for `channel` and `mcp`, stdout is the MCP protocol.
import { fchmodSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import { type Logger, pino } from 'pino'

export type { Logger }

/** SWITCHBOARD_LOG_FILE sends logs to a file instead of stderr (Claude Code hides an MCP server's stderr). */
export function createLogger(name: string, file = process.env.SWITCHBOARD_LOG_FILE): Logger {
  const level = process.env.SWITCHBOARD_LOG_LEVEL ?? 'info'
  const destination = pino.destination({ dest: file ? ownerOnly(file) : 2, sync: true })
  return pino({ name, level, base: { pid: process.pid } }, destination)
}

/** Logs can quote what senders wrote: the file is the owner's alone, also when it existed before. */
function ownerOnly(file: string): number {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const fd = openSync(file, 'a', 0o600)
  fchmodSync(fd, 0o600)
  return fd
}

/**
 * For commands a person runs: what they should know, as plain `switchboard: …` lines on stderr,
 * never JSON. SWITCHBOARD_LOG_FILE still gets the structured lines.
 */
export function createCliLogger(name: string): Logger {
  if (process.env.SWITCHBOARD_LOG_FILE) return createLogger(name)
  const level = process.env.SWITCHBOARD_LOG_LEVEL ?? 'info'
  return pino({ name, level }, { write: (line: string) => process.stderr.write(humanLine(line)) })
}

function humanLine(json: string): string {
  try {
    const entry = JSON.parse(json) as { msg?: string; err?: { message?: string } }
    const reason = entry.err?.message ? `: ${entry.err.message}` : ''
    return `switchboard: ${entry.msg ?? ''}${reason}\n`
  } catch {
    return json
  }
}
