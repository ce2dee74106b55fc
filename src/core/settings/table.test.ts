// The table stays the one place: every setting reachable its three ways (or saying why not), no two
// sharing a flag or a variable, no variable read anywhere else, and the README's table its copy.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import type { Setting } from './define.js'
import { flagName } from './resolve.js'
import { settingsMarkdown } from './show.js'
import { SETTING_NAMES, SETTINGS } from './table.js'

const ROOT = join(import.meta.dirname, '../../..')
const all = SETTING_NAMES.map((name) => [name, SETTINGS[name] as Setting] as const)

it('gives every setting a flag, a variable and a config.json key, or says why it lacks one', () => {
  for (const [name, s] of all) {
    expect(s.variable, name).toMatch(/^SWITCHBOARD_[A-Z_]+$/)
    if (!s.flag || !s.inFile) expect(s.why, `${name} says why it lacks a way`).toBeTruthy()
  }
  const variables = all.map(([, s]) => s.variable)
  expect(new Set(variables).size).toBe(variables.length)
  const flags = all.flatMap(([, s]) => (s.flag ? [flagName(s)] : []))
  expect(new Set(flags).size).toBe(flags.length)
})

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return sources(path)
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : []
  })
}

it('reads no setting from the environment outside the settings module', () => {
  const variables = new Set(all.map(([, s]) => s.variable))
  const readers = sources(join(ROOT, 'src'))
    .filter((file) => !file.includes(`${join('core', 'settings')}/`))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\benv(?:\.|\[['"])(SWITCHBOARD_[A-Z_]+)/g)]
        .filter((m) => variables.has(m[1] as string))
        .map((m) => `${relative(ROOT, file)}: ${m[1]}`),
    )
  expect(readers).toEqual([])
})

it("keeps the README's settings table the table's", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = /<!-- settings:start -->\n([\s\S]*?)\n<!-- settings:end -->/.exec(readme)?.[1]
  // On a difference: paste settingsMarkdown()'s table between the markers.
  expect(section).toBe(settingsMarkdown())
})
