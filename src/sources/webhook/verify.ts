// Who may POST to a webhook source: the holder of its secret, or whoever signs the body with it.
import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { unauthorized } from '../../core/errors.js'
import { safeEqual } from '../../core/ids.js'
import type { Source } from '../../store/store.js'
import { header, type Proof } from './request.js'

export type { Proof } from './request.js'

/** Bearer secret, or a GitHub-style HMAC of the exact body bytes. */
export function verifyWebhook(source: Source, headers: IncomingHttpHeaders, body: Buffer): Proof {
  const signature = header(headers, 'x-hub-signature-256')
  if (signature) {
    const expected = `sha256=${createHmac('sha256', source.secret).update(body).digest('hex')}`
    if (safeEqual(signature.trim(), expected)) return { kind: 'signature', signature: expected }
    throw unauthorized('X-Hub-Signature-256 does not match the body signed with this source secret')
  }
  const auth = header(headers, 'authorization')
  if (!auth) throw unauthorized('missing Authorization: Bearer <secret> or X-Hub-Signature-256')
  const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
  if (!m?.[1] || !safeEqual(m[1], source.secret)) throw unauthorized('wrong source secret')
  return { kind: 'secret' }
}
