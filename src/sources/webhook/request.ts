// What every webhook preset reads from a request: a header, the body as text or JSON, how the sender
// proved itself, the retry key.
import type { IncomingHttpHeaders } from 'node:http'
import { invalid } from '../../core/errors.js'
import { parseJson } from '../../core/json.js'

const MAX_IDEMPOTENCY_KEY = 200

/**
 * How a request proved it comes from the source (verify.ts): the secret itself covers the whole
 * request; a signature covers the body only, so a signed request's query is not the sender's word.
 */
export type Proof = { kind: 'secret' } | { kind: 'signature'; signature: string }

/** How a sender signs a body: the header it sends, holding what comes before a hex HMAC-SHA256 of it. */
export interface SignatureScheme {
  header: string
  prefix: string
}

/** GitHub's, and what a generic sender may use: `X-Hub-Signature-256: sha256=<hex>`. */
export const HUB_SIGNATURE: SignatureScheme = { header: 'X-Hub-Signature-256', prefix: 'sha256=' }

export function header(headers: IncomingHttpHeaders, name: string): string | null {
  const v = headers[name.toLowerCase()]
  return (Array.isArray(v) ? v[0] : v) ?? null
}

export type ParsedBody = { json: unknown } | { text: string }

export function parseBody(headers: IncomingHttpHeaders, body: Buffer): ParsedBody {
  const type = header(headers, 'content-type') ?? ''
  const text = body.toString('utf8')
  if (text.trim() === '') throw invalid('empty body')
  const looksJson = /json/i.test(type) || (!type.startsWith('text/') && /^\s*[[{]/.test(text))
  if (!looksJson) return { text }
  return { json: parseJson(text) }
}

/**
 * The key that makes a retry the same event: `Idempotency-Key`, else the first delivery header the
 * request carries (the source's own, then the preset's), else, for a signed body, its signature: the
 * same signed body sent again is a replay, whoever sends it.
 */
export function retryKey(
  headers: IncomingHttpHeaders,
  proof: Proof,
  deliveryHeaders: readonly (string | null | undefined)[],
): string | null {
  let key = header(headers, 'idempotency-key')
  for (const name of deliveryHeaders) if (!key && name) key = header(headers, name)
  if (!key && proof.kind === 'signature') key = proof.signature
  if (key && key.length > MAX_IDEMPOTENCY_KEY)
    throw invalid(`Idempotency-Key is longer than ${MAX_IDEMPOTENCY_KEY} characters`)
  return key || null
}
