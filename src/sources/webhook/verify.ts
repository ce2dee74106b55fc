// Who may POST to a webhook source: whoever signs the body with its secret, the way the source's
// sender signs (GitHub's X-Hub-Signature-256, Sentry's Sentry-Hook-Signature), or the holder of
// the secret, as a bearer token or as HTTP basic auth's password (Grafana's and Alertmanager's
// basic auth: the username is theirs to choose and proves nothing).
import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { unauthorized } from '../../core/errors.js'
import { safeEqual } from '../../core/ids.js'
import type { Source } from '../../store/store.js'
import { presetOf } from './presets/registry.js'
import { HUB_SIGNATURE, header, type Proof } from './request.js'

export type { Proof } from './request.js'

/** A signature in one of the schemes the source's sender uses, else the secret itself. */
export function verifyWebhook(source: Source, headers: IncomingHttpHeaders, body: Buffer): Proof {
  const preset = presetOf(source)
  const schemes = preset.signatures ?? [HUB_SIGNATURE]
  for (const scheme of schemes) {
    const signature = header(headers, scheme.header)
    if (!signature) continue
    const expected = `${scheme.prefix}${createHmac('sha256', source.secret).update(body).digest('hex')}`
    if (safeEqual(signature.trim().toLowerCase(), expected)) return { kind: 'signature', signature: expected }
    throw unauthorized(`${scheme.header} does not match the body signed with this source secret`)
  }
  const signed = schemes.map((s) => s.header).join(' or ')
  const auth = header(headers, 'authorization')
  if (!auth)
    throw unauthorized(
      preset.signatureRequired
        ? `missing ${signed}: ${preset.signatureRequired}`
        : `missing Authorization: Bearer <secret> or ${signed}`,
    )
  if (!safeEqual(secretOf(auth) ?? '', source.secret)) throw unauthorized('wrong source secret')
  return { kind: 'secret' }
}

/** The secret an Authorization header shows: a bearer token, or basic auth's password. */
function secretOf(auth: string): string | null {
  const m = /^(Bearer|Basic)\s+(.+)$/i.exec(auth.trim())
  if (!m?.[1] || !m[2]) return null
  if (m[1].toLowerCase() === 'bearer') return m[2]
  const decoded = Buffer.from(m[2], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? null : decoded.slice(colon + 1)
}
