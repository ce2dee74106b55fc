// Who may POST to a webhook source: the holder of its secret, or whoever signs the body with it.
import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { HttpError } from '../../core/errors.js'
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
    throw new HttpError(401, 'X-Hub-Signature-256 does not match the body signed with this source secret')
  }
  const auth = header(headers, 'authorization')
  if (!auth) throw new HttpError(401, 'missing Authorization: Bearer <secret> or X-Hub-Signature-256')
  const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
  if (!m?.[1] || !safeEqual(m[1], source.secret)) throw new HttpError(401, 'wrong source secret')
  return { kind: 'secret' }
}
