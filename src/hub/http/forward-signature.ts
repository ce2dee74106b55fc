// How a hub passes a request on to the hub that runs its session without passing on the client's
// credentials: it authenticates the client itself, then signs the request under the admin token
// (which every hub of the database holds and the database never does) over the method, the path,
// the body's digest, whom it acts for, the hub it is meant for, when, and a nonce. The hub receiving
// it checks all of that, and each signature is taken once.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import * as z from 'zod'
import { safeEqual } from '../../core/ids.js'

/** The header a signed request carries; a request with it is never passed on again. */
export const FORWARDED = 'x-switchboard-forwarded'
/** How old a signature may be, either way (the hubs' clocks differ a little). */
export const FRESH_MS = 60_000

const signedSchema = z
  .object({
    /** The hub it is meant for, and the one that sent it. */
    to: z.string().min(1),
    from: z.string().min(1),
    at: z.number().int(),
    nonce: z.string().regex(/^[0-9a-f]{32}$/),
    /** Whom the sending hub authenticated: `admin`, or `web:<browser>` for the dashboard. */
    as: z.string().min(1).max(200),
    /** SHA-256 of the body, hex; null for a request without one. */
    body: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
  })
  .strict()
export type Signed = z.infer<typeof signedSchema>

export function bodyDigest(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex')
}

function mac(key: string, method: string, path: string, payload: string): string {
  return createHmac('sha256', key).update(`switchboard-forward:${method}:${path}:${payload}`).digest('hex')
}

/** The header value for `method path` passed on as `signed` says. */
export function signForward(
  key: string,
  method: string,
  path: string,
  signed: Omit<Signed, 'at' | 'nonce'>,
  now = Date.now(),
): string {
  const full: Signed = { ...signed, at: now, nonce: randomBytes(16).toString('hex') }
  const payload = Buffer.from(JSON.stringify(full)).toString('base64url')
  return `${payload}.${mac(key, method, path, payload)}`
}

/** Checks signed headers for one hub, remembering each nonce while its signature is fresh. */
export class ForwardVerifier {
  private readonly seen = new Map<string, number>()

  constructor(
    private readonly key: string,
    private readonly hubId: () => string,
    private readonly now = () => Date.now(),
  ) {}

  /** What the sending hub signed, or why the request is refused. */
  verify(method: string, path: string, header: string): { signed: Signed } | { refused: string } {
    const [payload = '', sig = ''] = header.split('.')
    if (!safeEqual(sig, mac(this.key, method, path, payload)))
      return { refused: 'a request passed on by a hub must be signed by a hub of this database' }
    let signed: Signed
    try {
      signed = signedSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
    } catch {
      return { refused: 'a request passed on by a hub must be signed by a hub of this database' }
    }
    const now = this.now()
    if (signed.to !== this.hubId())
      return { refused: `this request was passed on for hub ${signed.to}, not this one` }
    if (Math.abs(now - signed.at) > FRESH_MS)
      return {
        refused: 'this passed-on request is too old (or the hubs’ clocks differ by more than a minute)',
      }
    for (const [nonce, until] of this.seen) if (until < now) this.seen.delete(nonce)
    if (this.seen.has(signed.nonce)) return { refused: 'this passed-on request was taken once already' }
    this.seen.set(signed.nonce, signed.at + FRESH_MS)
    return { signed }
  }
}
