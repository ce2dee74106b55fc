// A self-signed certificate for a hub reachable beyond loopback that was given none. Written out in
// DER by hand (a few dozen lines) with node:crypto signing it, rather than a dependency: nobody checks
// it against a CA, clients pin its fingerprint. ECDSA P-256, valid ten years, named for this machine.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isIP } from 'node:net'
import { hostname, networkInterfaces } from 'node:os'

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}

const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts)

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number)
  const bytes = [40 * a + b]
  for (const n of rest) {
    const digits = [n & 0x7f]
    for (let v = n >> 7; v > 0; v >>= 7) digits.unshift(0x80 | (v & 0x7f))
    bytes.push(...digits)
  }
  return tlv(0x06, Buffer.from(bytes))
}

/** A positive INTEGER from unsigned big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  return tlv(0x02, (bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes)
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`))
}

function ipBytes(address: string): Buffer | null {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number))
  if (isIP(address) !== 6) return null
  const [head = '', tail = ''] = address.split('::')
  const groups = (s: string) => (s ? s.split(':') : [])
  const missing = 8 - groups(head).length - groups(tail).length
  const all = [...groups(head), ...Array(address.includes('::') ? missing : 0).fill('0'), ...groups(tail)]
  return Buffer.concat(all.map((g) => Buffer.from(g.padStart(4, '0'), 'hex')))
}

const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'))

/** This machine's names and addresses, so a browser shown the certificate finds the one it dialled. */
function altNames(): Buffer {
  const names = ['localhost', hostname()].map((n) => tlv(0x82, Buffer.from(n)))
  const addresses = [
    '127.0.0.1',
    '::1',
    ...Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .map((a) => a.address),
  ]
  const ips = [...new Set(addresses)]
    .map((a) => ipBytes(a.replace(/%.*$/, '')))
    .filter((b): b is Buffer => b !== null)
    .map((b) => tlv(0x87, b))
  return sequence(...names, ...ips)
}

/** A new key and a certificate for it, both PEM. */
export function selfSignedCertificate(now = new Date()): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const name = sequence(
    tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(`Switchboard hub on ${hostname()}`)))),
  )
  const extensions = tlv(
    0xa3,
    sequence(
      // Not a CA: it vouches for nothing but this hub.
      sequence(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, sequence())),
      sequence(oid('2.5.29.37'), tlv(0x04, sequence(oid('1.3.6.1.5.5.7.3.1')))),
      sequence(oid('2.5.29.17'), tlv(0x04, altNames())),
    ),
  )
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000)
  const notAfter = new Date(now.getTime() + 10 * 365 * 24 * 60 * 60 * 1000)
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    ECDSA_SHA256,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  )
  const signature = sign('sha256', tbs, privateKey)
  const der = sequence(tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), signature))
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}
