// A TLS certificate named by the SHA-256 of its DER bytes, as clients pin a hub's certificate
// (`host:port#sha256:<hex>`) and as a hub prints its own: 64 lowercase hex digits, colons optional
// on the way in.
import { X509Certificate } from 'node:crypto'

const HEX64 = /^[0-9a-f]{64}$/

/** `AB:CD:…` or `abcd…` as 64 lowercase hex digits; null when it is not a SHA-256. */
export function normalizeFingerprint(raw: string): string | null {
  const hex = raw.replaceAll(':', '').toLowerCase()
  return HEX64.test(hex) ? hex : null
}

/** The fingerprint of a certificate (PEM or DER, or Node's parsed peer certificate). */
export function fingerprintOf(cert: string | Buffer | { fingerprint256?: string }): string {
  const colons =
    typeof cert === 'string' || Buffer.isBuffer(cert)
      ? new X509Certificate(cert).fingerprint256
      : (cert.fingerprint256 ?? '')
  return normalizeFingerprint(colons) ?? ''
}

/** How a fingerprint is written after a host:port and in links: `sha256:<hex>`. */
export function pinText(fingerprint: string): string {
  return `sha256:${fingerprint}`
}
