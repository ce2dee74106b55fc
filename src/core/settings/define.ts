// What a setting is: how it is named in each place it may come from, how the text of a flag or a
// variable becomes a value, the schema that checks the value, and what it is when nothing sets it.
// Every command reads the table, and checks only the settings it was given: a schema is built the
// first time a value is checked against it, not when the table is loaded (building them all took
// longer than the rest of `switchboard status` with no hub; `npm run bench:startup`).
import * as z from 'zod'
import { durationSeconds } from '../decision-timeout.js'

export interface Setting<T = unknown> {
  /** SWITCHBOARD_…, in the environment. */
  variable: string
  /** Commander's spec (`--port <port>`); `on`: the commands that take it, none: every command. */
  flag: { spec: string; on?: readonly string[] } | null
  /** Whether config.json may hold it (under the setting's name). */
  inFile: boolean
  /** Why the setting lacks a flag or a config key, for the README and the test that checks all do. */
  why?: string
  /** The text of a flag or a variable as the value the schema checks (a number, a list, a boolean). */
  text: (raw: string) => unknown
  /** Built on first use (lazySchema). */
  readonly schema: z.ZodType<T>
  default: T
  /** What the default means, where the bare value would not say it (none: SQLite in the home). */
  defaultText?: string
  /** A value nobody may read back: never printed, never quoted in a message. */
  secret?: boolean
  /** How the value is shown (`switchboard config`, the README); secrets show only this. */
  show?: (value: T) => unknown
  /** A path: relative to the working folder on the command line, to the home in config.json. */
  path?: boolean
  description: string
}

/** A schema built the first time it is asked for, then kept. */
export function lazySchema<S extends z.ZodType>(build: () => S): () => S {
  let built: S | undefined
  return () => {
    built ??= build()
    return built
  }
}

/**
 * One entry of the table, its value's type taken from its schema and its default; `schema` says how
 * to build the schema, which is built when a value is first checked.
 */
export function setting<S extends z.ZodType, D>(
  spec: Omit<Setting<z.output<S> | D>, 'schema' | 'default'> & { schema: () => S; default: D },
): Setting<z.output<S> | D> {
  const { schema, ...rest } = spec
  const built = lazySchema(schema)
  return Object.defineProperty(rest, 'schema', { get: built, enumerable: true }) as unknown as Setting<
    z.output<S> | D
  >
}

export const text = {
  string: (raw: string): unknown => raw.trim(),
  /** Text that is no number stays text, so the message quotes what was typed. */
  number: (raw: string): unknown => {
    const n = Number(raw.trim())
    return raw.trim() !== '' && Number.isFinite(n) ? n : raw.trim()
  },
  /** Comma-separated, blanks dropped. */
  list: (raw: string): unknown =>
    raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  boolean: (raw: string): unknown => {
    const word = raw.trim().toLowerCase()
    if (['1', 'true', 'yes', 'on'].includes(word)) return true
    if (['0', 'false', 'no', 'off'].includes(word)) return false
    return raw.trim()
  },
}

const quoted = (input: unknown) => (typeof input === 'string' ? JSON.stringify(input) : String(input))

/** A number within bounds; every way of missing them is one message that quotes what was given. */
export function numberIn(
  what: string,
  min: number,
  max: number,
  options: { whole?: boolean; above?: boolean } = {},
) {
  const error = (issue: { input?: unknown }) => `${quoted(issue.input)} is not ${what}`
  let schema = z.number({ error })
  if (options.whole) schema = schema.int({ error })
  schema = options.above ? schema.gt(min, { error }) : schema.min(min, { error })
  return schema.max(max, { error })
}

/** A list: an array in config.json, comma-separated in a flag or a variable. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.array(item, {
    error: 'a list: ["…", "…"] in config.json, comma-separated in a flag or a variable',
  })
}

export const booleanSchema = lazySchema(() =>
  z.boolean({ error: (issue) => `${quoted(issue.input)} is not true or false (1 or 0)` }),
)

/** A span of time as people write it (`90s`, `10m`, `1h`) or `off`; kept as written, read by durationSeconds. */
export function durationSchema() {
  const what = 'a duration such as 90s, 10m or 1h (at most 24h), or off'
  return z
    .string({ error: (issue) => `${quoted(issue.input)} is not ${what}` })
    .refine((value) => durationSeconds(value) !== undefined, {
      error: (issue) => `${quoted(issue.input)} is not ${what}`,
    })
    .transform((value) => value.trim().toLowerCase())
}
