// Logs never go to stdout: for `channel` and `mcp`, stdout is the MCP protocol.
import { type Logger, pino } from 'pino'

export type { Logger }

/** SWITCHBOARD_LOG_FILE sends logs to a file instead of stderr (Claude Code hides an MCP server's stderr). */
export function createLogger(name: string, file = process.env.SWITCHBOARD_LOG_FILE): Logger {
  const level = process.env.SWITCHBOARD_LOG_LEVEL ?? 'info'
  const destination = file ? pino.destination({ dest: file, mkdir: true, sync: true }) : pino.destination(2)
  return pino({ name, level, base: { pid: process.pid } }, destination)
}
