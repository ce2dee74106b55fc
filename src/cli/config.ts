// `switchboard config`: the settings a command would run with, each with where it came from (flag,
// variable, config.json, default), secrets hidden; every mistake on stderr, a line each, and exit 2.
// It reads and never writes: no home, no admin token is made.
import type { Command } from 'commander'
import type { Setting } from '../core/settings/define.js'
import { resolveSettings } from '../core/settings/resolve.js'
import { showSettings, valueText } from '../core/settings/show.js'
import { SETTINGS } from '../core/settings/table.js'
import { EVERY_COMMAND, flagValues, settingOptions } from './flags.js'
import { printJson } from './output.js'

export function registerConfig(program: Command): void {
  settingOptions(
    program
      .command(EVERY_COMMAND)
      .description(
        'the settings in effect and where each came from (flag, variable, config.json, default); takes any command’s setting flags',
      ),
  )
    .option('--json', 'one JSON object, for scripts')
    .action((opts: { json?: boolean }, command: Command) => {
      const resolution = resolveSettings(flagValues(command))
      const shown = showSettings(resolution)
      if (opts.json)
        printJson({
          settings: Object.fromEntries(shown.map(({ name, ...rest }) => [name, rest])),
          file: resolution.file,
          problems: resolution.problems,
        })
      else {
        // Name, where it came from, the value last: a value may be long.
        const from = shown.map((s) => (s.from === 'config.json' ? 'config.json' : (s.where ?? 'default')))
        const nameWidth = Math.max(...shown.map((s) => s.name.length)) + 2
        const fromWidth = Math.max(...from.map((f) => f.length)) + 2
        for (const [i, s] of shown.entries()) {
          const value = s.refused ? '(refused, see below)' : valueText(SETTINGS[s.name] as Setting, s.value)
          process.stdout.write(
            `${s.name.padEnd(nameWidth)}${(from[i] as string).padEnd(fromWidth)}${value}\n`,
          )
        }
      }
      for (const problem of resolution.problems) process.stderr.write(`switchboard: ${problem}\n`)
      if (resolution.problems.length) process.exitCode = 2
    })
}
