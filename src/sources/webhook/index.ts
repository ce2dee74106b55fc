// Inbound webhooks: POST /hooks/<source>. Reads a body up to the source's limit, verifies the caller
// (verify.ts), then turns the body into events the way the source's preset says (presets/: generic,
// github, sentry, alertmanager, grafana).
import type { IncomingHttpHeaders } from 'node:http'
import { unauthorized } from '../../core/errors.js'
import type { NewEvent } from '../../core/event.js'
import type { Source } from '../../store/access.js'
import { genericEvent } from './presets/generic.js'
import type { PresetOutcome } from './presets/preset.js'
import { presetOf } from './presets/registry.js'
import { type Proof, parseBody } from './request.js'

export { presetSchema } from '../../core/source-spec.js'
export type { PresetOutcome } from './presets/preset.js'
export type { Proof } from './request.js'
export { verifyWebhook } from './verify.js'

/**
 * The most bytes the hub reads of a POST to this source, counted as they arrive: its maxBodyBytes
 * setting, or the most the source's sender sends when that is more (GitHub's 25 MB), so no real
 * delivery is refused for its size. The setting can raise a source's limit, not lower it below its
 * sender's.
 */
export function webhookBodyLimit(source: Pick<Source, 'name' | 'preset'>, maxBodyBytes: number): number {
  return Math.max(maxBodyBytes, presetOf(source).maxBodyBytes ?? 0)
}

/** The events a verified request makes under its source's preset, in order, or why it makes none. */
export function webhookEvents(
  source: Source,
  headers: IncomingHttpHeaders,
  body: Buffer,
  query: URLSearchParams,
  proof: Proof,
): PresetOutcome {
  const preset = presetOf(source)
  if (preset.signatureRequired && proof.kind !== 'signature')
    throw unauthorized(
      `source "${source.name}" takes ${source.preset ?? 'generic'} webhooks: ${preset.signatureRequired}`,
    )
  return preset.parse({ source, headers, body: parseBody(headers, body), query, proof })
}

/**
 * The events a request would make under its source's preset had its sender proved itself, for a
 * routine's dry run (`routine test --source`): nothing is verified here, and nothing is published.
 * Signed, as far as the preset can tell, so a query is not taken (as for a real signed delivery).
 */
export function webhookDryRun(source: Source, headers: IncomingHttpHeaders, body: Buffer): PresetOutcome {
  return presetOf(source).parse({
    source,
    headers,
    body: parseBody(headers, body),
    query: new URLSearchParams(),
    proof: { kind: 'signature', signature: 'dry-run' },
  })
}

/** The generic preset's one event, whatever the source's preset (the fuzz suite checks the parser). */
export function webhookEvent(
  source: Source,
  headers: IncomingHttpHeaders,
  body: Buffer,
  query: URLSearchParams,
  proof: Proof,
): NewEvent {
  return genericEvent({ source, headers, body: parseBody(headers, body), query, proof })
}
