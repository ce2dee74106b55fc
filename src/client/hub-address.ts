// How a local process reaches its home's hub without handing the admin token to a stranger: over
// the Unix socket in the 0600 home folder when there is one, else over TCP only after the hub there
// has proved it holds the same token (an HMAC of a fresh challenge, see core/hub-proof.ts).
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { dialHost, type HubConfig, MAX_SOCKET_PATH, paths } from '../core/config.js'
import { hubProof } from '../core/hub-proof.js'
import { safeEqual } from '../core/ids.js'

export type HubTarget = { socketPath: string } | { host: string; port: number }

/** The home's Unix socket, when the hub is on this machine and the path fits in a socket address. */
export function localSocket(config: HubConfig): string | undefined {
  const path = paths.hubSocket(config.home, config.port)
  const loopback = ['127.0.0.1', 'localhost', '::1', '0.0.0.0'].includes(config.host)
  return loopback && path.length <= MAX_SOCKET_PATH ? path : undefined
}

export function tcpTarget(config: HubConfig): HubTarget {
  return { host: dialHost(config.host), port: config.port }
}

export interface Answer {
  status: number
  body: string
}

/** One HTTP request to the hub; rejects when nothing answers. */
export function call(
  target: HubTarget,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
  timeoutMs = 310_000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...target,
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        )
        res.on('error', reject)
      },
    )
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`the hub did not answer ${method} ${path}`)))
    req.on('error', reject)
    req.end(body)
  })
}

export type Reach = { answered: false } | { answered: true; proven: boolean }

/** Whether a hub answers at `target`, and whether it proved it is this home's hub. */
export async function reach(target: HubTarget, adminToken: string): Promise<Reach> {
  const challenge = randomBytes(16).toString('hex')
  let answer: Answer
  try {
    answer = await call(target, 'GET', `/health?challenge=${challenge}`, {}, undefined, 3_000)
  } catch {
    return { answered: false }
  }
  let proof: unknown
  try {
    proof = (JSON.parse(answer.body) as { proof?: unknown }).proof
  } catch {
    proof = undefined
  }
  const proven = typeof proof === 'string' && safeEqual(proof, hubProof(adminToken, challenge))
  return { answered: true, proven }
}
