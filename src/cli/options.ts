// What commands share beyond their flags: the hub's API, a hub started when none runs. No command
// opens the store but `switchboard serve`: the hub is its one writer (docs/design-notes.md).
import type { Command } from 'commander'
import { HubApi } from '../client/api-client.js'
import { configFrom } from './flags.js'

export { check, configFrom, settingOptions } from './flags.js'

/**
 * The hub's HTTP API for a command, a hub started first when none answers (unless `autostart` is
 * false: commands that report on the hub must not change what they report). Logs go to stderr.
 */
export function hubApi(command: Command, logName = 'cli', autostart = true): HubApi {
  // The logger (pino) is loaded only if a hub is to be started: status and doctor never start one.
  const log = async () => (await import('../core/log.js')).createCliLogger(logName, configFrom(command))
  return new HubApi(configFrom(command), log, autostart, logName)
}
