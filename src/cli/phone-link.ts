// The sign-in link for another device (`switchboard open --qr`): it must name an address that device
// can reach. The hub builds its link for this machine (127.0.0.1 when it listens on every interface);
// a phone needs the hub's network address, and a hub on loopback only has none to give.
import { isIP } from 'node:net'
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os'

type Interfaces = ReturnType<typeof networkInterfaces>

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host)
}

/** This machine's first address another device could use: IPv4 first, then a routable IPv6. */
function lanAddress(interfaces: Interfaces): string | null {
  const all = Object.values(interfaces).flatMap((list): NetworkInterfaceInfo[] => list ?? [])
  const usable = all.filter((a) => !a.internal)
  const v4 = usable.find((a) => a.family === 'IPv4')
  const v6 = usable.find((a) => a.family === 'IPv6' && !/^fe80:/i.test(a.address))
  return v4?.address ?? v6?.address ?? null
}

/**
 * `url` (the hub's link) pointed at an address another device can reach, given where the hub is
 * bound; or why there is none.
 */
export function phoneLink(
  url: string,
  bound: string,
  interfaces: Interfaces = networkInterfaces(),
): { url: string } | { unreachable: string } {
  if (isLoopback(bound))
    return {
      unreachable: `the hub listens on ${bound} only, so a phone cannot open this link; to reach it from your network, start it with \`switchboard serve --host 0.0.0.0\` (or "host" in config.json)`,
    }
  const everywhere = bound === '0.0.0.0' || bound === '::'
  const address = everywhere ? lanAddress(interfaces) : bound
  if (!address)
    return {
      unreachable:
        'the hub listens on every interface, but this machine has no network address a phone could use',
    }
  const link = new URL(url)
  link.hostname = isIP(address) === 6 ? `[${address}]` : address
  return { url: link.toString() }
}
