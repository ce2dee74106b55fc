// How a hub proves it holds the admin token before anyone sends it the token or a request for it:
// it answers `/health?challenge=<c>` with an HMAC under the token of the challenge AND of the
// connection the question came on, as the hub sees it (its certificate's fingerprint over TLS, the
// address and port it accepted on over plain TCP). The client checks it against the connection as it
// sees it: a relay in the middle, with a certificate or a port of its own, passes on a proof that
// names the wrong connection.
import { createHmac } from 'node:crypto'
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { fingerprintOf, pinText } from './fingerprint.js'

export function hubProof(adminToken: string, challenge: string, binding: string): string {
  return createHmac('sha256', adminToken).update(`switchboard-hub:${binding}:${challenge}`).digest('hex')
}

/** An IPv4 address as itself, whether or not the socket saw it as an IPv6-mapped one. */
function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
}

/**
 * The connection as one end sees it: the server's certificate over TLS (the hub's own, or the one
 * the client was shown), the hub's end over TCP (where the server accepted, where the client dialled),
 * `unix` on the home's socket.
 */
export function connectionBinding(socket: Socket, side: 'hub' | 'client'): string {
  if ((socket as TLSSocket).encrypted) {
    const tls = socket as TLSSocket
    const cert = (side === 'hub' ? tls.getCertificate() : tls.getPeerCertificate()) as {
      fingerprint256?: string
    } | null
    return `tls:${pinText(fingerprintOf(cert ?? {}))}`
  }
  const [address, port] =
    side === 'hub' ? [socket.localAddress, socket.localPort] : [socket.remoteAddress, socket.remotePort]
  return address ? `tcp:${plainAddress(address)}:${port}` : 'unix'
}
