// How any process reaches a hub at an address (a channel, the CLI, another hub) without handing a
// stranger anything: beyond loopback only over TLS, the certificate checked (against the pinned
// fingerprint, or this machine's CAs) before a byte of the request is written; and only to a hub that
// proved, on that very connection, that it holds the admin token (see hub-proof.ts).
import { randomBytes } from 'node:crypto'
import { type RequestOptions, request } from 'node:http'
import { isIP, type Socket, connect as tcpConnect } from 'node:net'
import type { Duplex } from 'node:stream'
import { type TLSSocket, connect as tlsConnect } from 'node:tls'
import type { HubAddress } from './config.js'
import { fingerprintOf, pinText } from './fingerprint.js'
import { connectionBinding, hubProof } from './hub-proof.js'
import { safeEqual } from './ids.js'
import { isLoopback } from './network.js'

/** A hub over TCP: plain HTTP, or TLS pinned to a fingerprint (null: checked against this machine's CAs). */
export interface TcpHub {
  host: string
  port: number
  tls?: { fingerprint: string | null }
}
export type HubTarget = { socketPath: string } | TcpHub

/** How a hub named by address is dialled: pinned TLS with a fingerprint; else TLS beyond loopback. */
export function hubTarget(address: HubAddress): TcpHub {
  const { host, port, fingerprint } = address
  if (fingerprint) return { host, port, tls: { fingerprint } }
  return isLoopback(host) ? { host, port } : { host, port, tls: { fingerprint: null } }
}

/** True when what goes to `target` could be read on a network: never the admin token there. */
export function inClear(target: HubTarget): boolean {
  return 'host' in target && !target.tls && !isLoopback(target.host)
}

export function describeTarget(target: HubTarget): string {
  if ('socketPath' in target) return target.socketPath
  const where = `${isIP(target.host) === 6 ? `[${target.host}]` : target.host}:${target.port}`
  return target.tls?.fingerprint ? `${where}#${pinText(target.tls.fingerprint)}` : where
}

type CreateConnection = NonNullable<RequestOptions['createConnection']>

/**
 * A `createConnection` for node:http (and ws) that dials `target`; over TLS the callback gets the
 * socket only once the certificate is the pinned one, so nothing is written to another.
 */
export function connector(target: TcpHub): CreateConnection {
  return (_options, done) => {
    let settled = false
    const once = (err: Error | null, socket?: Socket) => {
      if (settled) return
      settled = true
      // node:http reads the socket only when there is no error.
      done(err, socket as Duplex)
    }
    const { host, port } = target
    if (!target.tls) {
      const socket = tcpConnect({ host, port })
      socket.once('connect', () => once(null, socket))
      socket.once('error', (err) => once(err))
      return undefined
    }
    const pin = target.tls.fingerprint
    const socket: TLSSocket = tlsConnect({
      host,
      port,
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: pin === null,
      ALPNProtocols: ['http/1.1'],
    })
    socket.once('secureConnect', () => {
      const seen = fingerprintOf(socket.getPeerCertificate())
      if (pin === null || seen === pin) return once(null, socket)
      socket.destroy()
      once(
        new PinError(
          `${describeTarget({ host, port })} showed the certificate ${pinText(seen)}, not the pinned ${pinText(pin)}`,
        ),
      )
    })
    socket.once('error', (err) => once(err))
    return undefined
  }
}

/** A hub's certificate is not the one it was named with: it is not that hub. */
export class PinError extends Error {}

export interface Answer {
  status: number
  body: string
  /** The connection the answer came on, as this end sees it (see hub-proof.ts). */
  binding: string
}

/** One HTTP request to a hub; rejects when nothing answers. */
export function hubRequest(
  target: HubTarget,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
  timeoutMs = 310_000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const where =
      'socketPath' in target
        ? { socketPath: target.socketPath }
        : { host: target.host, port: target.port, createConnection: connector(target) }
    const req = request(
      {
        ...where,
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const binding = connectionBinding(res.socket, 'client')
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), binding }),
        )
        res.on('error', reject)
      },
    )
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`the hub did not answer ${method} ${path}`)))
    req.on('error', reject)
    req.end(body)
  })
}

/** Errors that mean nothing listens there (as opposed to something that does and is not a hub of ours). */
const SILENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
])

export type Reach =
  | { answered: false }
  | { answered: true; proven: false; problem: string | null }
  /** `target` as proven: over TLS pinned to the certificate the proof was bound to. */
  | { answered: true; proven: true; target: HubTarget }

/** Whether a hub answers at `target`, and whether it proved, on that connection, that it holds the token. */
export async function reach(target: HubTarget, adminToken: string): Promise<Reach> {
  const challenge = randomBytes(16).toString('hex')
  let answer: Answer
  try {
    answer = await hubRequest(target, 'GET', `/health?challenge=${challenge}`, {}, undefined, 3_000)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (err instanceof PinError) return { answered: true, proven: false, problem: err.message }
    const tls = 'host' in target && target.tls
    if (!tls || !code || SILENT.has(code)) return { answered: false }
    return { answered: true, proven: false, problem: tlsProblem(target, err as Error) }
  }
  let proof: unknown
  try {
    proof = (JSON.parse(answer.body) as { proof?: unknown }).proof
  } catch {
    proof = undefined
  }
  if (typeof proof !== 'string' || !safeEqual(proof, hubProof(adminToken, challenge, answer.binding)))
    return { answered: true, proven: false, problem: null }
  if ('socketPath' in target || !target.tls) return { answered: true, proven: true, target }
  const fingerprint = answer.binding.replace(/^tls:sha256:/, '')
  return { answered: true, proven: true, target: { ...target, tls: { fingerprint } } }
}

/** What went wrong talking TLS to `target`, said so a person knows what to do. */
function tlsProblem(target: HubTarget, err: Error): string {
  const where = describeTarget(target)
  const code = (err as NodeJS.ErrnoException).code ?? ''
  if (/SELF_SIGNED|UNABLE_TO_VERIFY|CERT_|ALTNAME/.test(code))
    return `${where} has a certificate this machine does not trust (${code}); name the hub with its fingerprint: host:port#sha256:<fingerprint> (switchboard status on the hub prints it)`
  if (/WRONG_VERSION|EPROTO/.test(code) || /wrong version/i.test(err.message))
    return `${where} does not speak TLS; beyond loopback a hub must (switchboard serve without --insecure)`
  return `${where}: ${err.message}`
}
