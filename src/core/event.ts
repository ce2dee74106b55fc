// The Event: one thing for Claude to see. Stored before its sender hears 202.
import * as z from 'zod'
import type { Scope } from './scope.js'

export { SCOPES, type Scope } from './scope.js'

/** Claude Code drops meta keys that are not identifiers, silently; we rename them instead. */
export const META_KEY = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const MAX_META_KEY = 64
const MAX_META_VALUE = 500
const MAX_META_ENTRIES = 32

export const metaSchema = z.record(z.string().regex(META_KEY), z.string())
export type Meta = z.infer<typeof metaSchema>

export const eventSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  topic: z.string(),
  source: z.string(),
  sender: z.string().nullable(),
  chat_id: z.string().nullable(),
  content: z.string(),
  meta: metaSchema,
  created_at: z.number(),
})
export type StoredEvent = z.infer<typeof eventSchema>

/** What a source hands the router; the store assigns id, seq and time. */
export interface NewEvent {
  topic: string
  source: string
  sender: string | null
  chat_id: string | null
  /** A direct message names one subscriber; otherwise topics decide. */
  target: string | null
  content: string
  meta: Meta
  idempotencyKey: string | null
  /**
   * The projects the event is about (projectKey: `repo:acme/api`, `folder:/home/me/api`): the sessions
   * of those projects get it by default (see `wants`). None: about no project in particular.
   */
  about?: string[]
}

/**
 * Attributes only Switchboard (or Claude Code, for `source`) sets: who sent an event, where a reply
 * goes, where it came from. Taken from a body or a query they would let a stranger speak as an
 * operator or steer replies into someone else's chat.
 */
export const RESERVED_META = new Set([
  'source',
  'origin',
  'topic',
  'event_id',
  'sender',
  'chat_id',
  'from',
  'to',
  'room',
  'user',
  'user_id',
  'message_id',
  'ts',
])

export function sanitizeMetaKey(key: string): string | null {
  let k = key.replace(/[^a-zA-Z0-9_]/g, '_').slice(0, MAX_META_KEY)
  if (/^[0-9]/.test(k)) k = `_${k}`
  return META_KEY.test(k) && /[a-zA-Z0-9]/.test(k) ? k : null
}

/**
 * Scalars only, keys made into identifiers, values capped: meta is a label, not a payload. From
 * `untrusted` input (a webhook's body or query) a reserved key is kept as `body_<key>`.
 */
export function toMeta(input: Record<string, unknown>, options: { untrusted?: boolean } = {}): Meta {
  // A Map, so keys such as `constructor` or `__proto__` are plain names like any other.
  const meta = new Map<string, string>()
  for (const [rawKey, value] of Object.entries(input)) {
    if (meta.size >= MAX_META_ENTRIES) break
    if (value === null || value === undefined) continue
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue
    let key = sanitizeMetaKey(rawKey)
    if (key && options.untrusted && RESERVED_META.has(key)) key = `body_${key}`
    if (!key || meta.has(key)) continue
    meta.set(key, String(value).slice(0, MAX_META_VALUE))
  }
  return Object.fromEntries(meta)
}

/**
 * The attributes of an event as Claude sees them: its meta, then what the hub itself knows, which
 * nothing in the meta can override. Claude Code writes its own `source` attribute (the MCP server's
 * name) on the tag, so where an event came from is `origin`. (Events stored before reserved keys were
 * renamed on the way in may still carry `source`; it is shown as `body_source`.)
 */
export function eventMeta(event: StoredEvent): Meta {
  const { source: bodySource, origin, topic, event_id, sender, chat_id, ...rest } = event.meta
  const meta: Meta = { ...rest, origin: event.source, topic: event.topic, event_id: event.id }
  if (bodySource !== undefined) meta.body_source = bodySource
  if (event.sender) meta.sender = event.sender
  if (event.chat_id) meta.chat_id = event.chat_id
  return meta
}

/** A subscriber's topic list matches exact names and trailing-`*` prefixes; `*` matches all. */
export function topicMatches(patterns: readonly string[], topic: string): boolean {
  for (const p of patterns) {
    if (p === '*' || p === topic) return true
    if (p.endsWith('*') && topic.startsWith(p.slice(0, -1))) return true
  }
  return false
}

/**
 * What a subscriber wants. A topic it names (`ci`, `github.*`) it gets whatever the event is about;
 * `*` is everything when its scope is `everything` (outbound webhooks, a person who chose it), and for
 * a session (`project`) everything about its own project: an event whose `about` shares a key with
 * the session's `keys` (its repository, its folder, more its project file names).
 */
export interface Interest {
  topics: readonly string[]
  scope: Scope
  keys: readonly string[]
}

export function wants(interest: Interest, event: { topic: string; about?: readonly string[] }): boolean {
  for (const p of interest.topics) {
    if (p === '*') {
      if (interest.scope === 'everything') return true
      if (event.about?.some((key) => interest.keys.includes(key))) return true
      continue
    }
    if (p === event.topic || (p.endsWith('*') && event.topic.startsWith(p.slice(0, -1)))) return true
  }
  return false
}

/** A repository as a project key: `repo:<owner>/<name>`, in lower case as GitHub compares them. */
export function repoKey(fullName: string): string {
  return `repo:${fullName.toLowerCase()}`
}

/** A folder as a project key: `folder:<absolute path>`. */
export function folderKey(path: string): string {
  return `folder:${path}`
}
