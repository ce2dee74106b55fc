import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

// Random bytes drawn in bulk: one call into the CSPRNG per id costs more than the rest of a webhook.
let pool = Buffer.alloc(0)
let poolAt = 0
function randomHex(bytes: number): string {
  if (poolAt + bytes > pool.length) {
    pool = randomBytes(4096)
    poolAt = 0
  }
  poolAt += bytes
  return pool.toString('hex', poolAt - bytes, poolAt)
}

/** Sortable by creation time, unique without coordination. */
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomHex(6)}`
}

/**
 * The id of an event that carries an idempotency key: the same for every retry of that key from that
 * sender, so a retry is recognised wherever the id travels, also after the hub lost the first try.
 */
export function keyedEventId(source: string, sender: string | null, key: string): string {
  const digest = createHash('sha256')
    .update(`${source}\0${sender ?? ''}\0${key}`)
    .digest('hex')
  return `ev_k${digest.slice(0, 32)}`
}

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`
}

/** Tokens are stored hashed: a leaked database does not leak working credentials. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

// Pairing codes avoid look-alike characters, since people type them from a phone.
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
export function newPairingCode(): string {
  const bytes = randomBytes(6)
  let code = ''
  for (const b of bytes) code += CODE_ALPHABET[b % CODE_ALPHABET.length]
  return code
}
