// The sign-in link for another device (`switchboard open --qr`): it must name an address that device
// can reach. The hub builds its link for this machine (127.0.0.1 when it listens on every interface);
// a phone needs the hub's network address, and a hub on loopback only has none to give.
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'
import { type Interfaces, isEverywhere, lanAddress } from '../core/network.js'

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host)
}

/**
 * `url` (the hub's link) pointed at an address another device can reach, given where the hub is
 * bound; or why there is none. A hub speaking TLS gets an https link whose fragment (never sent to
 * the hub) names its certificate, for the person to compare with what their browser shows.
 */
export function phoneLink(
  url: string,
  hub: { host: string; fingerprint: string | null },
  interfaces: Interfaces = networkInterfaces(),
): { url: string } | { unreachable: string } {
  const bound = hub.host
  if (isLoopback(bound))
    return {
      unreachable: `the hub listens on ${bound} only, so a phone cannot open this link; to reach it from your network, start it with \`switchboard serve --host 0.0.0.0\` (or "host" in config.json)`,
    }
  const everywhere = isEverywhere(bound)
  const address = everywhere ? lanAddress(interfaces) : bound
  if (!address)
    return {
      unreachable:
        'the hub listens on every interface, but this machine has no network address a phone could use',
    }
  const link = new URL(url)
  link.hostname = isIP(address) === 6 ? `[${address}]` : address
  if (hub.fingerprint) {
    link.protocol = 'https:'
    // In the dashboard's own route form, so the page it lands on is its start page.
    link.hash = `/?sha256=${hub.fingerprint}`
  }
  return { url: link.toString() }
}
