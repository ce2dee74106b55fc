// The generic preset's field map: which values of a JSON body become an event's content and
// attributes, each named by a JSON path such as `$.alert.labels.severity` or `$.items[0].id`.
export {
  fieldNameSchema,
  fieldSpecSchema,
  jsonPathSchema,
  MAX_FIELDS,
} from '../../../core/source-spec.js'

const STEP = /\.([A-Za-z0-9_-]+)|\[(\d+)\]/g

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
