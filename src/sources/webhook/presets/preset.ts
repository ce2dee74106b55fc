// What a preset is (a pure function from a verified request to the events it makes) and what the
// presets share: reading their payload, and building a source's event.
import type { IncomingHttpHeaders } from 'node:http'
import type * as z from 'zod'
import { describeZod, invalid } from '../../../core/errors.js'
import { type NewEvent, repoKey, toMeta } from '../../../core/event.js'
import type { Source } from '../../../store/store.js'
import type { ParsedBody, Proof, SignatureScheme } from '../request.js'

export interface PresetRequest {
  source: Source
  headers: IncomingHttpHeaders
  body: ParsedBody
  query: URLSearchParams
  proof: Proof
}

/** The events to publish, in order; or why this request publishes nothing (GitHub's ping). */
export type PresetOutcome = { events: NewEvent[] } | { ignored: string }

export interface Preset {
  parse(request: PresetRequest): PresetOutcome
  /** When a bearer secret alone is refused: why, for the 401. */
  signatureRequired?: string
  /** How its sender signs a body (verify.ts); X-Hub-Signature-256 when it does not say. */
  signatures?: readonly SignatureScheme[]
  /**
   * The largest body its sender sends, when that is more than the hub's maxBodyBytes: a real
   * delivery refused for its size is lost (GitHub never retries one).
   */
  maxBodyBytes?: number
}

/** The JSON body, checked against the preset's schema; another body answers 400 saying what is wrong. */
export function payload<T>(body: ParsedBody, schema: z.ZodType<T>, what: string): T {
  if (!('json' in body)) throw invalid(`${what}: the body is not JSON (send application/json)`)
  return shaped(body.json, schema, what)
}

/** A JSON value checked against a schema, answering 400 with the first problem. */
export function shaped<T>(json: unknown, schema: z.ZodType<T>, what: string): T {
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw invalid(`${what} payload: ${describeZod(parsed.error)}`)
  return parsed.data
}

/**
 * Attributes from several parts, the earlier part winning a name (a preset's own attributes before
 * the body's), as meta: scalars only, names made identifiers, a reserved name kept as `body_<name>`.
 */
export function metaOf(...parts: Record<string, unknown>[]): NewEvent['meta'] {
  // A Map, so a body's `__proto__` is a name like any other.
  const merged = new Map<string, unknown>()
  for (const part of parts)
    for (const [key, value] of Object.entries(part))
      if (value !== undefined && value !== null && !merged.has(key)) merged.set(key, value)
  return toMeta(Object.fromEntries(merged), { untrusted: true })
}

/**
 * An event of a webhook source: no chat, no sender, no one subscriber in particular. It is about the
 * projects its source is bound to, and the repository it names (`repository`: owner/name), so the
 * sessions of those projects get it (core/event.ts wants).
 */
export function sourceEvent(
  source: Source,
  event: Pick<NewEvent, 'content' | 'meta' | 'idempotencyKey'> & { topic?: string },
): NewEvent {
  const repository = event.meta.repository
  const named = repository && /^[^/\s]+\/[^/\s]+$/.test(repository) ? [repoKey(repository)] : []
  return {
    topic: event.topic ?? source.topic,
    source: source.name,
    sender: null,
    chat_id: null,
    target: null,
    content: event.content,
    meta: event.meta,
    idempotencyKey: event.idempotencyKey,
    about: [...new Set([...(source.about ?? []), ...named])],
  }
}
