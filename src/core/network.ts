// Where other machines reach this one: the dashboard's link for a phone, and the address a hub
// gives the other hubs on its database.
import { isIP } from 'node:net'
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os'

export type Interfaces = ReturnType<typeof networkInterfaces>

/** True for a bind address every interface answers on. */
export function isEverywhere(host: string): boolean {
  return host === '0.0.0.0' || host === '::'
}

/** This machine's first address another device could use: IPv4 first, then a routable IPv6. */
export function lanAddress(interfaces: Interfaces = networkInterfaces()): string | null {
  const all = Object.values(interfaces).flatMap((list): NetworkInterfaceInfo[] => list ?? [])
  const usable = all.filter((a) => !a.internal)
  const v4 = usable.find((a) => a.family === 'IPv4')
  const v6 = usable.find((a) => a.family === 'IPv6' && !/^fe80:/i.test(a.address))
  return v4?.address ?? v6?.address ?? null
}

/** `host:port`, with an IPv6 literal in brackets. */
export function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`
}

/**
 * Where the other hubs reach a hub bound to `bound`: that address; for one bound to every interface,
 * this machine's network address (loopback when it has none: hubs on one machine).
 */
export function reachableAt(
  bound: string,
  port: number,
  interfaces: Interfaces = networkInterfaces(),
): string {
  const host = isEverywhere(bound) ? (lanAddress(interfaces) ?? '127.0.0.1') : bound
  return hostPort(host, port)
}

/** Names this machine's loopback interface only: what is sent there never crosses a network. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}
