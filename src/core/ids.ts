import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Sortable by creation time, unique without coordination. */
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(6).toString('hex')}`
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
