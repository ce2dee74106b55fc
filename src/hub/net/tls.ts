// Whether the hub speaks TLS, and with which certificate. Anything reachable beyond loopback does:
// with the certificate and key it was given (--tls-cert/--tls-key), else with one it made for itself
// once and keeps in the home (key and certificate in one 0600 file), whose fingerprint clients pin.
// Plain HTTP beyond loopback only with --insecure.
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { type HubConfig, paths } from '../../core/config.js'
import { invalid } from '../../core/errors.js'
import { fingerprintOf } from '../../core/fingerprint.js'
import { isLoopback } from '../../core/network.js'
import { readOrMakeSecretFile } from '../../core/secret-file.js'
import { selfSignedCertificate } from './self-signed.js'

export interface HubTls {
  cert: string
  key: string
  /** SHA-256 of the certificate, as clients pin it. */
  fingerprint: string
  /** Made by the hub (true), or given. */
  selfSigned: boolean
}

function read(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw invalid(
      `${flag} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    )
  }
}

/** A certificate and its key, checked to be PEM and to belong together. */
function pair(
  cert: string,
  key: string,
  where: { cert: string; key: string },
): { cert: string; key: string } {
  let x509: X509Certificate
  try {
    x509 = new X509Certificate(cert)
  } catch {
    throw invalid(`${where.cert}: not a PEM certificate`)
  }
  let matches: boolean
  try {
    matches = x509.checkPrivateKey(createPrivateKey(key))
  } catch {
    throw invalid(`${where.key}: not a PEM private key`)
  }
  if (!matches) throw invalid(`${where.key}: not the key of the certificate in ${where.cert}`)
  return { cert, key }
}

/** The home's own certificate and its key, in one file, made the first time (not at every start). */
function ownCertificate(home: string): { cert: string; key: string } {
  const file = paths.tlsPem(home)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  chmodSync(dirname(file), 0o700)
  const pem = readOrMakeSecretFile(file, () => {
    const made = selfSignedCertificate()
    return `${made.key}${made.cert}`
  })
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(pem)?.[0] ?? ''
  return pair(cert, pem.replace(cert, ''), { cert: file, key: file })
}

/** What the hub bound to `config.host` speaks: TLS (and with what), or plain HTTP (null). */
export function hubTls(config: HubConfig): HubTls | null {
  if (config.tls) {
    const given = pair(read(config.tls.cert, '--tls-cert'), read(config.tls.key, '--tls-key'), config.tls)
    return { ...given, fingerprint: fingerprintOf(given.cert), selfSigned: false }
  }
  if (isLoopback(config.host) || config.insecure) return null
  const own = ownCertificate(config.home)
  return { ...own, fingerprint: fingerprintOf(own.cert), selfSigned: true }
}
