// What every command does with its flags: the settings' flags (declared from core/settings/table.ts,
// read back into the settings), and checking a flag's value.
// Cheap on purpose: `switchboard channel` imports this and nothing else of the CLI's (bench/startup).
import { type Command, Option } from 'commander'
import type * as z from 'zod'
import { type HubConfig, loadConfig } from '../core/config.js'
import { invalid } from '../core/errors.js'
import type { Setting } from '../core/settings/define.js'
import type { FlagValues } from '../core/settings/resolve.js'
import { SETTING_NAMES, SETTINGS, type SettingName } from '../core/settings/table.js'

/** `switchboard config` takes every setting's flag, to show what a command given them would run with. */
export const EVERY_COMMAND = 'config'

function settingOption(s: Setting): Option {
  const shown = s.defaultText ?? (s.default === null || Array.isArray(s.default) ? null : String(s.default))
  return new Option(
    s.flag?.spec ?? '',
    `${s.description} ($${s.variable}${shown === null ? '' : `, default ${shown}`})`,
  )
}

/** The settings whose flag `command` takes: the global ones for the program itself. */
function flagsOf(command: Command): [SettingName, Setting][] {
  const global = command.parent === null
  return SETTING_NAMES.map((name): [SettingName, Setting] => [name, SETTINGS[name] as Setting]).filter(
    ([, s]) =>
      s.flag !== null &&
      (global
        ? !s.flag.on
        : !!s.flag.on && (command.name() === EVERY_COMMAND || s.flag.on.includes(command.name()))),
  )
}

/** Declares the setting flags `command` takes (the program: those every command takes). */
export function settingOptions<C extends Command>(command: C): C {
  for (const [, s] of flagsOf(command)) command.addOption(settingOption(s))
  return command
}

/** The settings the command line gave: the program's flags and the command's own. */
export function flagValues(command: Command): FlagValues {
  let root = command
  while (root.parent) root = root.parent
  const flags: FlagValues = {}
  for (const from of root === command ? [root] : [root, command]) {
    const opts = from.opts() as Record<string, string | boolean | undefined>
    for (const [name, s] of flagsOf(from)) {
      const value = opts[new Option(s.flag?.spec ?? '').attributeName()]
      if (value !== undefined) flags[name] = value
    }
  }
  return flags
}

/** The settings a command runs with: its flags, the environment, config.json, the defaults. */
export function configFrom(command: Command): HubConfig {
  return loadConfig(flagValues(command))
}

/** Validates one flag's value and names the flag in the error. */
export function check<T>(schema: z.ZodType<T>, value: string, flag: string): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw invalid(`${flag} "${value}": ${parsed.error.issues[0]?.message}`)
  return parsed.data
}
