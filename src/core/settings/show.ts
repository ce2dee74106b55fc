// Settings as a person or a script reads them back: each value (a secret never, a database URL
// without its password) with where it came from, and the README's table of them all.
import type { Setting } from './define.js'
import { flagName, type Resolution, type Source } from './resolve.js'
import { SETTING_NAMES, SETTINGS, type SettingName, type Settings } from './table.js'

export interface ShownSetting {
  name: SettingName
  /** As JSON carries it; a secret's is what `show` leaves of it. */
  value: unknown
  from: Source
  /** `--port`, `SWITCHBOARD_PORT`, the config.json file; null for the default. */
  where: string | null
  /** Refused where it came from (the default stands in): see the problems. */
  refused: boolean
}

const spec = (name: SettingName) => SETTINGS[name] as Setting

export function shownValue(s: Setting, value: unknown): unknown {
  if (s.show) return s.show(value)
  return s.secret ? '(hidden)' : value
}

/** A value as one short line of text. */
export function valueText(s: Setting, value: unknown): string {
  const shown = shownValue(s, value)
  if (shown === null || (Array.isArray(shown) && shown.length === 0))
    return s.defaultText ? `none (${s.defaultText})` : 'none'
  return Array.isArray(shown) ? shown.join(',') : String(shown)
}

export function showSettings({ values, origins, refused }: Resolution): ShownSetting[] {
  return SETTING_NAMES.map((name) => ({
    name,
    value: shownValue(spec(name), values[name]),
    ...origins[name],
    refused: refused.has(name),
  }))
}

/**
 * The settings a hub runs with: those `serve` takes, and those every command does, but not where the
 * CLI and channels dial (`hubs`). Its status reports them as it was started, so `switchboard config`
 * can say where a hub still runs with values it no longer resolves.
 */
export const HUB_SETTINGS: readonly SettingName[] = SETTING_NAMES.filter((name) => {
  const on = spec(name).flag?.on
  return name !== 'hubs' && (!on || on.includes('serve'))
})

/** The hub's settings as its status shows them: each value as `show` leaves it (a secret never). */
export function hubSettingsShown(values: Settings): Record<string, unknown> {
  return Object.fromEntries(HUB_SETTINGS.map((name) => [name, shownValue(spec(name), values[name])]))
}

const cell = (text: string) => text.replaceAll('|', '\\|')
const code = (text: string) => `\`${cell(text)}\``

/** The README's "Settings" table; test/settings-readme.test.ts keeps the README's copy the same. */
export function settingsMarkdown(): string {
  const rows = SETTING_NAMES.map((name) => {
    const s = spec(name)
    const flag = s.flag ? `${code(flagName(s))}${s.flag.on ? ` (${s.flag.on.join(', ')})` : ''}` : '—'
    const fallback = s.defaultText ?? valueText(s, s.default)
    const why = s.why ? ` No ${s.flag ? 'config.json key' : 'flag'}: ${s.why}.` : ''
    return `| ${code(name)} | ${flag} | ${code(s.variable)} | ${cell(fallback)} | ${cell(s.description)}.${cell(why)} |`
  })
  return [
    '| setting (config.json key) | flag | variable | default | what it is |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n')
}
