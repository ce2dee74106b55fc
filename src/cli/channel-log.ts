// The channel's logger: pino's JSON lines on stderr, written without loading pino, which would add
// about 10 ms to every session's start (bench/startup). A logFile gets pino itself.
import type { Logger, LogSettings } from '../core/log.js'

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 }

type Fields = Record<string, unknown>

/** Errors as pino's serializer writes them; JSON.stringify would write `{}`. */
function plain(fields: Fields): Fields {
  const out: Fields = {}
  for (const [key, value] of Object.entries(fields))
    out[key] =
      value instanceof Error ? { type: value.name, message: value.message, stack: value.stack } : value
  return out
}

function lineLogger(bindings: Fields, floor: number): Logger {
  const logger: Fields = { child: (more: Fields) => lineLogger({ ...bindings, ...more }, floor) }
  for (const [name, level] of Object.entries(LEVELS))
    logger[name] = (first?: Fields | string, msg?: string) => {
      if (level < floor) return
      const fields = typeof first === 'object' && first !== null ? plain(first) : {}
      const text = typeof first === 'string' ? first : msg
      const line = { level, time: Date.now(), ...bindings, ...fields, msg: text }
      process.stderr.write(`${JSON.stringify(line)}\n`)
    }
  // The channel and the hub client call info, warn, error and child, all of which are here.
  return logger as unknown as Logger
}

export async function channelLogger(settings: LogSettings): Promise<Logger> {
  if (settings.logFile) return (await import('../core/log.js')).createLogger('channel', settings)
  const level = settings.logLevel
  const floor = level === 'silent' ? Number.POSITIVE_INFINITY : (LEVELS[level] ?? 30)
  return lineLogger({ pid: process.pid, name: 'channel' }, floor)
}
