// The generic preset: a text body is the content; a JSON body's text field is (or, without one, the
// JSON itself), and its top-level scalars are attributes. A field map picks content and attributes
// from anywhere in the body by JSON path instead (field-map.ts).
import type { NewEvent } from '../../../core/event.js'
import type { FieldMap } from '../../../store/store.js'
import { header, type ParsedBody, retryKey } from '../request.js'
import { readPath } from './field-map.js'
import { metaOf, type Preset, type PresetRequest, sourceEvent } from './preset.js'

const CONTENT_FIELDS = ['content', 'text', 'message'] as const

interface Picked {
  content: string
  /** The body's own top-level fields (the one taken as content left out). */
  fields: Record<string, unknown>
}

/** A JSON body's top-level fields, when it is an object. */
function objectOf(json: unknown): Record<string, unknown> | null {
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null
}

/**
 * Without a content field the JSON itself is the content, kept compact so an event is never much
 * bigger than the body that made it (indenting a deeply nested body multiplies its size).
 */
function picked(body: ParsedBody): Picked {
  if ('text' in body) return { content: body.text, fields: {} }
  const obj = objectOf(body.json)
  if (!obj) return { content: JSON.stringify(body.json), fields: {} }
  const field = CONTENT_FIELDS.find((f) => typeof obj[f] === 'string' && obj[f] !== '')
  if (!field) return { content: JSON.stringify(obj), fields: obj }
  const { [field]: content, ...fields } = obj
  return { content: content as string, fields }
}

/** What the field map finds in a JSON body: its content (when mapped and present) and attributes. */
function mapped(map: FieldMap, json: unknown): { content?: string; attributes: Record<string, unknown> } {
  let content: string | undefined
  const attributes: Record<string, unknown> = {}
  for (const [name, path] of Object.entries(map)) {
    const value = readPath(json, path)
    if (value === undefined || value === null) continue
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
    if (name === 'content') content = text
    else attributes[name] = text
  }
  return { content, attributes }
}

export function genericEvent({ source, headers, body, query, proof }: PresetRequest): NewEvent {
  const found = source.fieldMap && 'json' in body ? mapped(source.fieldMap, body.json) : null
  // A mapped content leaves the body's own text field where it was: among the attributes.
  const { content, fields } =
    found?.content !== undefined && 'json' in body
      ? { content: found.content, fields: objectOf(body.json) ?? {} }
      : picked(body)
  // The query is the sender's word only when the secret vouched for the whole request.
  const asked = proof.kind === 'secret' ? Object.fromEntries(query) : {}
  return sourceEvent(source, {
    content,
    meta: metaOf(found?.attributes ?? {}, { github_event: header(headers, 'x-github-event') }, fields, asked),
    idempotencyKey: retryKey(headers, proof, [source.deliveryHeader]),
  })
}

export const generic: Preset = {
  parse: (request) => ({ events: [genericEvent(request)] }),
}
