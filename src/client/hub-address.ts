// How a local process reaches its home's hub without handing the admin token to a stranger: over
// the Unix socket in the 0600 home folder when there is one, else over TCP only after the hub there
// has proved, on that connection, that it holds the same token (core/hub-dial.ts). A hub bound to
// one network address is dialled there over TLS, pinned to the certificate it recorded in the home.
import { readFileSync } from 'node:fs'
import { dialHost, type HubConfig, MAX_SOCKET_PATH, paths } from '../core/config.js'
import { hubRequest, hubTarget, type TcpHub } from '../core/hub-dial.js'
import { isLoopback } from '../core/network.js'

export { type Answer, describeTarget, type HubTarget, inClear, type Reach, reach } from '../core/hub-dial.js'
export const call = hubRequest

/**
 * The home's Unix socket, when the path fits in a socket address: the home's hub makes it whatever
 * address it is bound to (one bound to a network address is reached here rather than over TLS).
 */
export function localSocket(config: HubConfig): string | undefined {
  const path = paths.hubSocket(config.home, config.port)
  return path.length <= MAX_SOCKET_PATH ? path : undefined
}

/** The certificate fingerprint the home's hub recorded in hub.json, if it runs with TLS. */
function recordedFingerprint(home: string): string | undefined {
  try {
    const info = JSON.parse(readFileSync(paths.hubInfo(home), 'utf8')) as { fingerprint?: unknown }
    return typeof info.fingerprint === 'string' ? info.fingerprint : undefined
  } catch {
    return undefined
  }
}

/** The home's hub over TCP: plain on loopback, else TLS pinned to what the hub recorded. */
export function tcpTarget(config: HubConfig): TcpHub {
  const host = dialHost(config.host)
  if (isLoopback(host)) return { host, port: config.port }
  return hubTarget({ host, port: config.port, fingerprint: recordedFingerprint(config.home) })
}
