// Logs never go to stdout: for `channel` and `mcp`, stdout is the MCP protocol.
import { type Logger, pino } from 'pino'

export type { Logger }

export function createLogger(name: string, file?: string): Logger {
  const level = process.env.SWITCHBOARD_LOG_LEVEL ?? 'info'
  const destination = file ? pino.destination({ dest: file, mkdir: true, sync: false }) : pino.destination(2)
  return pino({ name, level, base: { pid: process.pid } }, destination)
}
