// The generic preset's field map: which values of a JSON body become an event's content and
// attributes, each named by a JSON path such as `$.alert.labels.severity` or `$.items[0].id`.
import * as z from 'zod'
import { META_KEY, RESERVED_META } from '../../../core/event.js'

/** More than a body has attributes worth naming; fewer than meta holds (32). */
export const MAX_FIELDS = 16
const STEP = /\.([A-Za-z0-9_-]+)|\[(\d+)\]/g

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

/** The value at a path of a JSON document, or undefined when the document has none there. */
export function readPath(json: unknown, path: string): unknown {
  let at = json
  for (const [, name, index] of path.matchAll(STEP)) {
    const key = name ?? (index as string)
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}
