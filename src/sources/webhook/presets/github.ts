// The github preset: GitHub's repository, organization and app webhooks. Each delivery is one event
// on `<source topic>.<event type>` (github.pull_request) whose content is one line for a person
// (github-summary.ts); what it is about (repository, organization, account) and the details are
// attributes, and X-GitHub-Delivery makes a redelivery one event.
import { invalid } from '../../../core/errors.js'
import { POSTED_BY_SWITCHBOARD } from '../../../core/routines.js'
import { header, retryKey } from '../request.js'
import { envelopeSchema, scopeOf, summarize } from './github-summary.js'
import { metaOf, type Preset, payload, sourceEvent } from './preset.js'

/** GitHub's event names: lower case words joined by _, digits too (projects_v2_item). */
const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}$/

export const github: Preset = {
  // GitHub signs each delivery with the secret and has no way to send it as a bearer token: a request
  // that only shows the secret is not GitHub's, and a signature is what makes a replay a duplicate.
  signatureRequired:
    'GitHub signs each delivery (X-Hub-Signature-256 with the source secret); a bearer secret alone is refused',
  // GitHub's own cap on a payload ("Payloads are capped at 25 MB"): a push of many commits, a pull
  // request whose description is long, reach past the hub's default 64 KiB.
  maxBodyBytes: 25 * 1024 * 1024,

  parse({ source, headers, body, proof }) {
    const event = header(headers, 'x-github-event')
    if (!event) throw invalid('missing X-GitHub-Event header: a GitHub webhook always sends one')
    if (!EVENT_NAME.test(event))
      throw invalid(`X-GitHub-Event "${event.slice(0, 64)}" is not a GitHub event name`)
    const envelope = payload(body, envelopeSchema, `github ${event}`)
    // GitHub sends a ping when the webhook is created: an answer is all it wants.
    if (event === 'ping') return { ignored: 'ping: GitHub checked the webhook; nothing was published' }
    if (event === 'issue_comment' && postedBySwitchboard(body))
      return { ignored: 'a comment a routine posted: nothing was published' }
    const json = 'json' in body ? body.json : null
    const summary = summarize(event, json, envelope)
    const meta = metaOf(
      {
        github_event: event,
        delivery: header(headers, 'x-github-delivery'),
        action: envelope.action,
        ...scopeOf(envelope).meta,
        actor: envelope.sender?.login,
      },
      summary.meta,
      json as Record<string, unknown>,
    )
    return {
      events: [
        sourceEvent(source, {
          topic: `${source.topic}.${event}`,
          content: summary.content,
          meta,
          idempotencyKey: retryKey(headers, proof, [source.deliveryHeader, 'X-GitHub-Delivery']),
        }),
      ],
    }
  },
}

/** A comment whose text carries the routines' marker (hub/routines/github-comments.ts). */
function postedBySwitchboard(body: object): boolean {
  const json = 'json' in body ? (body.json as { comment?: { body?: unknown } } | null) : null
  return typeof json?.comment?.body === 'string' && json.comment.body.includes(POSTED_BY_SWITCHBOARD)
}
