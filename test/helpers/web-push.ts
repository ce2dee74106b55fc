// The browser's and the push service's side of Web Push, for tests: a browser's keys (a P-256 key
// pair and a 16-byte auth secret, as PushManager.subscribe makes them), a fake push service on
// 127.0.0.1 that keeps what it is sent, and the decryption of an aes128gcm payload (RFC 8291, RFC
// 8188) and the check of its VAPID signature (RFC 8292), with node:crypto alone.
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface BrowserKeys {
  /** What PushSubscription.toJSON() gives: `keys.p256dh` and `keys.auth`, base64url. */
  json: { p256dh: string; auth: string }
  privateKey: Buffer
  publicKey: Buffer
  auth: Buffer
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  const publicKey = ecdh.getPublicKey()
  return {
    json: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
    privateKey: ecdh.getPrivateKey(),
    publicKey,
    auth,
  }
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest()
/** HKDF's expand for one block, which is all RFC 8291 needs (its outputs are at most 32 bytes). */
const expand = (prk: Buffer, info: Buffer, length: number) =>
  hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length)

/** The plaintext of an aes128gcm body sent to `keys`' browser (one record, as a push is). */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  // The header (RFC 8188 §2.1): salt(16) | rs(4) | idlen(1) | keyid = the sender's public key.
  const salt = body.subarray(0, 16)
  const idlen = body.readUInt8(20)
  const senderPublic = body.subarray(21, 21 + idlen)
  const ciphertext = body.subarray(21 + idlen)
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(keys.privateKey)
  const shared = ecdh.computeSecret(senderPublic)
  // RFC 8291 §3.4: the auth secret and both public keys go into the input keying material.
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, senderPublic])
  const ikm = expand(hmac(keys.auth, shared), keyInfo, 32)
  const prk = hmac(salt, ikm)
  const cek = expand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16)
  const nonce = expand(prk, Buffer.from('Content-Encoding: nonce\0'), 12)
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ])
  // The last record ends with the delimiter 2, then any padding zeros.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('no last-record delimiter: not one whole push')
  return padded.subarray(0, end).toString('utf8')
}

/**
 * The claims of a push's `Authorization: vapid t=<JWT>, k=<key>`, once its ES256 signature checks
 * out against `k`; throws otherwise.
 */
export function checkVapid(authorization: string | undefined): {
  key: string
  claims: Record<string, unknown>
} {
  const m = /^vapid t=([^,\s]+),\s*k=(\S+)$/.exec(authorization ?? '')
  if (!m) throw new Error(`no VAPID authorization: ${authorization}`)
  const [, jwt, key] = m as unknown as [string, string, string]
  const [head, claims, signature] = jwt.split('.') as [string, string, string]
  const raw = Buffer.from(key, 'base64url')
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!ok) throw new Error('the VAPID signature does not check out')
  return { key, claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) }
}

export interface Pushed {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

/** A push service on 127.0.0.1: keeps every push, and answers each path with the status it is told. */
export class FakePushService {
  readonly pushed: Pushed[] = []
  /** The status a path answers with; 201 (created) when not said. */
  readonly statuses = new Map<string, number>()

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakePushService> {
    let service: FakePushService | null = null
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        service?.pushed.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
        res.writeHead(service?.statuses.get(req.url ?? '') ?? 201).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    service = new FakePushService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    return service
  }

  to(path: string): Pushed[] {
    return this.pushed.filter((p) => p.path === path)
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
