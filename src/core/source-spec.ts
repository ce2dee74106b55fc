// What a webhook source is made of, checked once for the CLI's flags and the hub's API alike: its
// name, the header that de-duplicates retries, its preset, the generic preset's field map (which
// values of a JSON body become an event's content and attributes, each named by a JSON path such as
// `$.alert.labels.severity`), a secret its sender made, and the projects it is about.
import * as z from 'zod'
import { META_KEY, RESERVED_META } from './event.js'

/** How a webhook source's bodies become events (src/sources/webhook/presets). */
export const WEBHOOK_PRESETS = ['generic', 'github', 'alertmanager', 'grafana', 'sentry'] as const
export type WebhookPreset = (typeof WEBHOOK_PRESETS)[number]

/** The presets whose sender makes the secret (Sentry's Client Secret): adding one is given it. */
export const SENDER_MADE_SECRET: ReadonlySet<WebhookPreset> = new Set(['sentry'])

export const sourceNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'use 1-64 letters, digits or . _ -')

export const headerNameSchema = z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'not an HTTP header name')

export const presetSchema = z.enum(WEBHOOK_PRESETS, {
  error: `unknown preset; use one of ${WEBHOOK_PRESETS.join(', ')}`,
})

/** More than a body has attributes worth naming; fewer than meta holds (32). */
export const MAX_FIELDS = 16

export const jsonPathSchema = z
  .string()
  .max(200, 'a JSON path is at most 200 characters')
  .regex(
    /^\$(?:\.[A-Za-z0-9_-]+|\[\d+\])*$/,
    'a JSON path is $ and then .name or [index] steps, e.g. $.alert.labels.severity',
  )

export const fieldNameSchema = z
  .string()
  .regex(META_KEY, 'a field is named by a letter or _ and then letters, digits or _')
  .max(64, 'a field name is at most 64 characters')
  // The hub sets these itself (who sent an event, where replies go): a body never does.
  .refine((name) => !RESERVED_META.has(name), 'the hub sets this attribute itself; pick another name')

/** `name=path`, as `--field` takes it: `content` names the event's content, any other name an attribute. */
export const fieldSpecSchema = z
  .string()
  .regex(/^[^=]+=.+$/, 'write name=path, e.g. content=$.alert.text')
  .transform((spec) => [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)])
  .pipe(z.tuple([fieldNameSchema, jsonPathSchema]))

/** A whole field map: a name (content, or an attribute) → a JSON path. */
export const fieldMapSchema = z
  .record(fieldNameSchema, jsonPathSchema)
  .refine((map) => Object.keys(map).length <= MAX_FIELDS, `at most ${MAX_FIELDS} fields`)

/** A secret the sending side made (Sentry's Client Secret), given instead of one made here. */
export const givenSecretSchema = z
  .string()
  .trim()
  .regex(/^\S{16,500}$/, 'a secret is 16 to 500 characters without spaces')

/** What a source's events are about: project keys (core/event.ts), `repo:owner/name` or `folder:/path`. */
export const projectKeysSchema = z
  .array(
    z
      .string()
      .max(4200)
      .regex(/^(repo:[^/\s]+\/[^/\s]+|folder:\/.*)$/, 'a project key is repo:<owner/name> or folder:<path>'),
  )
  .max(100, 'at most 100 projects')
