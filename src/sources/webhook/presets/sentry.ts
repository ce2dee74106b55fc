// The sentry preset: a Sentry integration's webhooks (Settings → Developer Settings → an internal or
// public integration). Sentry signs the body with the integration's client secret
// (Sentry-Hook-Signature, hex HMAC-SHA256) and names what it is about in Sentry-Hook-Resource:
// issue, event_alert, metric_alert, error, comment, installation. Each delivery is one event on
// `<source topic>.<resource>` whose content is one line for a person (sentry-summary.ts), with the
// Sentry project's slug as `project`.
import { invalid } from '../../../core/errors.js'
import { header, retryKey } from '../request.js'
import { metaOf, type Preset, payload, sourceEvent } from './preset.js'
import { sentryEnvelope, summarizeSentry } from './sentry-summary.js'

/** Sentry's resources: lower case words joined by _ (event_alert). */
const RESOURCE = /^[a-z][a-z0-9_]{0,63}$/

export const sentry: Preset = {
  signatures: [{ header: 'Sentry-Hook-Signature', prefix: '' }],
  signatureRequired:
    'Sentry signs each delivery (Sentry-Hook-Signature with the client secret); a bearer secret alone is refused',
  // An error's event is up to 1 MB as Sentry keeps it, and the webhook wraps it.
  maxBodyBytes: 2 * 1024 * 1024,

  parse({ source, headers, body, proof }) {
    const resource = header(headers, 'sentry-hook-resource')
    if (!resource) throw invalid('missing Sentry-Hook-Resource header: a Sentry webhook always sends one')
    if (!RESOURCE.test(resource))
      throw invalid(`Sentry-Hook-Resource "${resource.slice(0, 64)}" is not a Sentry resource`)
    const envelope = payload(body, sentryEnvelope, `sentry ${resource}`)
    const summary = summarizeSentry(resource, envelope)
    return {
      events: [
        sourceEvent(source, {
          topic: `${source.topic}.${resource}`,
          content: summary.content,
          meta: metaOf(
            {
              sentry_resource: resource,
              action: envelope.action,
              // Sentry makes a new Request-ID for each attempt: it names the attempt, not the event.
              delivery: header(headers, 'request-id'),
              actor: envelope.actor?.name,
            },
            summary.meta,
          ),
          // A resend is the same body, so the same signature: one event, whatever its Request-ID.
          idempotencyKey: retryKey(headers, proof, [source.deliveryHeader]),
        }),
      ],
    }
  },
}
