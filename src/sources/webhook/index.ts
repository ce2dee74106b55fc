// Inbound webhooks: POST /hooks/<source>. Verifies the caller, then turns the body into an event.
import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { HttpError } from '../../core/errors.js'
import { type NewEvent, toMeta } from '../../core/event.js'
import { safeEqual } from '../../core/ids.js'
import { parseJson } from '../../core/json.js'
import type { Source } from '../../store/store.js'

const MAX_IDEMPOTENCY_KEY = 200

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const v = headers[name.toLowerCase()]
  return (Array.isArray(v) ? v[0] : v) ?? null
}

/**
 * How a request proved it comes from the source: the secret itself covers the whole request; a
 * signature covers the body only, so a signed request's query is not the sender's word.
 */
export type Proof = { kind: 'secret' } | { kind: 'signature'; signature: string }

/** Bearer secret, or a GitHub-style HMAC of the exact body bytes. */
export function verifyWebhook(source: Source, headers: IncomingHttpHeaders, body: Buffer): Proof {
  const signature = header(headers, 'x-hub-signature-256')
  if (signature) {
    const expected = `sha256=${createHmac('sha256', source.secret).update(body).digest('hex')}`
    if (safeEqual(signature.trim(), expected)) return { kind: 'signature', signature: expected }
    throw new HttpError(401, 'X-Hub-Signature-256 does not match the body signed with this source secret')
  }
  const auth = header(headers, 'authorization')
  if (!auth) throw new HttpError(401, 'missing Authorization: Bearer <secret> or X-Hub-Signature-256')
  const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
  if (!m?.[1] || !safeEqual(m[1], source.secret)) throw new HttpError(401, 'wrong source secret')
  return { kind: 'secret' }
}

function parseBody(headers: IncomingHttpHeaders, body: Buffer): { json: unknown } | { text: string } {
  const type = header(headers, 'content-type') ?? ''
  const text = body.toString('utf8')
  if (text.trim() === '') throw new HttpError(400, 'empty body')
  const looksJson = /json/i.test(type) || (!type.startsWith('text/') && /^\s*[[{]/.test(text))
  if (!looksJson) return { text }
  return { json: parseJson(text) }
}

const CONTENT_FIELDS = ['content', 'text', 'message'] as const

/**
 * Text bodies are the content; JSON bodies, and the query of a request the secret vouches for,
 * give their top-level scalars as meta (reserved names renamed, see RESERVED_META).
 */
export function webhookEvent(
  source: Source,
  headers: IncomingHttpHeaders,
  body: Buffer,
  query: URLSearchParams,
  proof: Proof,
): NewEvent {
  const parsed = parseBody(headers, body)
  // Without a content field the JSON itself is the content, kept compact so an event is never much
  // bigger than the body that made it (indenting a deeply nested body multiplies its size).
  let content: string
  let fields: Record<string, unknown> = {}
  if ('text' in parsed) {
    content = parsed.text
  } else if (parsed.json && typeof parsed.json === 'object' && !Array.isArray(parsed.json)) {
    const obj = parsed.json as Record<string, unknown>
    const field = CONTENT_FIELDS.find((f) => typeof obj[f] === 'string' && obj[f] !== '')
    content = field ? (obj[field] as string) : JSON.stringify(obj)
    fields = { ...obj }
    if (field) delete fields[field]
  } else {
    content = JSON.stringify(parsed.json)
  }
  const githubEvent = header(headers, 'x-github-event')
  const meta = toMeta(
    {
      ...(proof.kind === 'secret' ? Object.fromEntries(query) : {}),
      ...fields,
      ...(githubEvent ? { github_event: githubEvent } : {}),
    },
    { untrusted: true },
  )

  let idempotencyKey = header(headers, 'idempotency-key')
  if (!idempotencyKey && source.deliveryHeader) idempotencyKey = header(headers, source.deliveryHeader)
  // A signed body sent again is a replay of the same event, whoever sends it.
  if (!idempotencyKey && proof.kind === 'signature') idempotencyKey = proof.signature
  if (idempotencyKey && idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
    throw new HttpError(400, `Idempotency-Key is longer than ${MAX_IDEMPOTENCY_KEY} characters`)

  return {
    topic: source.topic,
    source: source.name,
    sender: null,
    chat_id: null,
    target: null,
    content,
    meta,
    idempotencyKey: idempotencyKey || null,
  }
}
