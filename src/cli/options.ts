import type { Command } from 'commander'
import type { z } from 'zod'
import { HubApi } from '../client/api-client.js'
import { type ConfigOverrides, type HubConfig, loadConfig } from '../core/config.js'
import { UserError } from '../core/errors.js'
import { createCliLogger } from '../core/log.js'
import { openStore } from '../store/open.js'
import type { Store } from '../store/store.js'

/** The global --home/--port flags, merged with the environment and config.json. */
export function configFrom(command: Command, extra: ConfigOverrides = {}): HubConfig {
  const globals = command.optsWithGlobals() as { home?: string; port?: string }
  return loadConfig({ home: globals.home, port: globals.port, ...extra })
}

/**
 * The hub's HTTP API for a command, a hub started first when none answers (unless `autostart` is
 * false: commands that report on the hub must not change what they report). Logs go to stderr.
 */
export function hubApi(command: Command, logName = 'cli', autostart = true): HubApi {
  return new HubApi(configFrom(command), createCliLogger(logName), autostart)
}

/** Validates one flag's value and names the flag in the error. */
export function check<T>(schema: z.ZodType<T>, value: string, flag: string): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new UserError(`${flag} "${value}": ${parsed.error.issues[0]?.message}`)
  return parsed.data
}

/** Admin commands work on the store directly, so they work whether or not a hub runs. */
export async function withStore<T>(command: Command, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(configFrom(command))
  try {
    return await work(store)
  } finally {
    await store.close()
  }
}
