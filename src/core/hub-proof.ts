// How a hub proves it holds the admin token before a client sends it: it answers
// `/health?challenge=<c>` with an HMAC of the challenge under the token (see client/hub-address.ts).
import { createHmac } from 'node:crypto'

export function hubProof(adminToken: string, challenge: string): string {
  return createHmac('sha256', adminToken).update(`switchboard-hub:${challenge}`).digest('hex')
}
