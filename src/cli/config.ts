// `switchboard config`: the settings a command would run with, each with where it came from (flag,
// variable, config.json, default), secrets hidden; every mistake on stderr, a line each, and exit 2.
// When this home's hub runs and was started with other values (a variable set since, config.json
// changed), each such setting says what the hub has. It reads and never writes: no home, no admin
// token is made, and no hub is started.
import type { Command } from 'commander'
import { HubApi } from '../client/api-client.js'
import type { HubStatus } from '../core/hub-protocol.js'
import { createCliLogger } from '../core/log.js'
import type { Setting } from '../core/settings/define.js'
import { type Resolution, resolveSettings } from '../core/settings/resolve.js'
import { HUB_SETTINGS, type ShownSetting, showSettings, valueText } from '../core/settings/show.js'
import { SETTINGS, type SettingName } from '../core/settings/table.js'
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
    .action(async (opts: { json?: boolean }, command: Command) => {
      const resolution = resolveSettings(flagValues(command))
      const shown = showSettings(resolution)
      const hub = await runningHub(resolution)
      const differs = hub ? hubDiffers(shown, hub.settings) : new Map<SettingName, unknown>()
      if (opts.json)
        printJson({
          settings: Object.fromEntries(
            shown.map(({ name, ...rest }) => [
              name,
              differs.has(name) ? { ...rest, runningHub: differs.get(name) } : rest,
            ]),
          ),
          file: resolution.file,
          problems: resolution.problems,
        })
      else {
        // Name, where it came from, the value last: a value may be long.
        const from = shown.map((s) => (s.from === 'config.json' ? 'config.json' : (s.where ?? 'default')))
        const nameWidth = Math.max(...shown.map((s) => s.name.length)) + 2
        const fromWidth = Math.max(...from.map((f) => f.length)) + 2
        for (const [i, s] of shown.entries()) {
          const spec = SETTINGS[s.name] as Setting
          const value = s.refused ? '(refused, see below)' : valueText(spec, s.value)
          const hubHas = differs.has(s.name) ? `  (the running hub: ${shownText(differs.get(s.name))})` : ''
          process.stdout.write(
            `${s.name.padEnd(nameWidth)}${(from[i] as string).padEnd(fromWidth)}${value}${hubHas}\n`,
          )
        }
        if (hub && differs.size)
          process.stdout.write(
            `the running hub (pid ${hub.pid}) was started with other values for ${[...differs.keys()].join(', ')}; restart it to use these: switchboard stop, then switchboard start\n`,
          )
      }
      for (const problem of resolution.problems) process.stderr.write(`switchboard: ${problem}\n`)
      if (resolution.problems.length) process.exitCode = 2
    })
}

/** This home's own hub, when it runs (never one of SWITCHBOARD_HUBS, never one started for this). */
async function runningHub({ values }: Resolution): Promise<HubStatus | null> {
  const { tlsCert, tlsKey } = values
  const config = {
    ...values,
    hubs: [],
    tls: tlsCert !== null && tlsKey !== null ? { cert: tlsCert, key: tlsKey } : null,
  }
  // Nothing logged (no log file made); a hub too old to report its settings compares as having none.
  return new HubApi(
    config,
    createCliLogger('config', { ...config, logFile: null, logLevel: 'silent' }),
    false,
  )
    .call('status')
    .then((status) => (status.settings ? status : null))
    .catch(() => null)
}

/** The hub's settings (as its status shows them) that are not what this resolution shows. */
function hubDiffers(shown: ShownSetting[], hub: Record<string, unknown>): Map<SettingName, unknown> {
  const differs = new Map<SettingName, unknown>()
  for (const s of shown)
    if (HUB_SETTINGS.includes(s.name) && Object.hasOwn(hub, s.name) && !same(s.value, hub[s.name]))
      differs.set(s.name, hub[s.name])
  return differs
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** A value the hub reported, already as `show` leaves it, in the table's words. */
function shownText(value: unknown): string {
  if (value === null || (Array.isArray(value) && value.length === 0)) return 'none'
  return Array.isArray(value) ? value.join(',') : String(value)
}
