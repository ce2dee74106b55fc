// Inbound webhooks: POST /hooks/<source>. Verifies the caller (verify.ts), then turns the body into
// events the way the source's preset says (presets/: generic, github, alertmanager, grafana).
import type { IncomingHttpHeaders } from 'node:http'
import { z } from 'zod'
import { unauthorized } from '../../core/errors.js'
import type { NewEvent } from '../../core/event.js'
import { type Source, WEBHOOK_PRESETS, type WebhookPreset } from '../../store/access.js'
import { alertmanager } from './presets/alertmanager.js'
import { generic, genericEvent } from './presets/generic.js'
import { github } from './presets/github.js'
import { grafana } from './presets/grafana.js'
import type { Preset, PresetOutcome } from './presets/preset.js'
import { type Proof, parseBody } from './request.js'

export type { PresetOutcome } from './presets/preset.js'
export type { Proof } from './request.js'
export { verifyWebhook } from './verify.js'

const PRESETS: Record<WebhookPreset, Preset> = { generic, github, alertmanager, grafana }

export const presetSchema = z.enum(WEBHOOK_PRESETS, {
  error: `unknown preset; use one of ${WEBHOOK_PRESETS.join(', ')}`,
})

/** The events a verified request makes under its source's preset, in order, or why it makes none. */
export function webhookEvents(
  source: Source,
  headers: IncomingHttpHeaders,
  body: Buffer,
  query: URLSearchParams,
  proof: Proof,
): PresetOutcome {
  const name = source.preset ?? 'generic'
  const preset = Object.hasOwn(PRESETS, name) ? PRESETS[name] : null
  if (!preset) throw new Error(`source "${source.name}" has an unknown preset "${name}"`)
  if (preset.signatureRequired && proof.kind !== 'signature')
    throw unauthorized(`source "${source.name}" takes ${name} webhooks: ${preset.signatureRequired}`)
  return preset.parse({ source, headers, body: parseBody(headers, body), query, proof })
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
