// What every command does with its flags: the global --home/--port/--database-url, and checking a flag's value.
// Cheap on purpose: `switchboard channel` imports this and nothing else of the CLI's (bench/startup).
import type { Command } from 'commander'
import type { z } from 'zod'
import { type ConfigOverrides, type HubConfig, loadConfig } from '../core/config.js'
import { UserError } from '../core/errors.js'

/** The global --home/--port/--database-url flags, merged with the environment and config.json. */
export function configFrom(command: Command, extra: ConfigOverrides = {}): HubConfig {
  const globals = command.optsWithGlobals() as { home?: string; port?: string; databaseUrl?: string }
  return loadConfig({ home: globals.home, port: globals.port, databaseUrl: globals.databaseUrl, ...extra })
}

/** Validates one flag's value and names the flag in the error. */
export function check<T>(schema: z.ZodType<T>, value: string, flag: string): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new UserError(`${flag} "${value}": ${parsed.error.issues[0]?.message}`)
  return parsed.data
}
