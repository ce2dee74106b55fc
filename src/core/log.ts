// Logs never go to stdout: for `channel` and `mcp`, stdout is the MCP protocol.
import { fchmodSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import { type Logger, pino } from 'pino'

export type { Logger }

/** The settings a logger keeps to (logFile, logLevel). */
export interface LogSettings {
  logFile: string | null
  logLevel: string
}

/** A logFile takes the logs instead of stderr (Claude Code hides an MCP server's stderr). */
export function createLogger(name: string, { logFile, logLevel }: LogSettings): Logger {
  const destination = pino.destination({ dest: logFile ? ownerOnly(logFile) : 2, sync: true })
  return pino({ name, level: logLevel, base: { pid: process.pid } }, destination)
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
 * never JSON. A logFile still gets the structured lines.
 */
export function createCliLogger(name: string, settings: LogSettings): Logger {
  if (settings.logFile) return createLogger(name, settings)
  return pino(
    { name, level: settings.logLevel },
    { write: (line: string) => process.stderr.write(humanLine(line)) },
  )
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
