// Who is asking, from the one credential a request carries, and whether they may call a route. The
// admin token (local processes), a sender's token (people and programs chatting), a browser's key
// (the dashboard), or another hub of the database passing a request on for one of those (signed, see
// forward-signature.ts). Every route names the least it needs (core/api/routes.ts `auth`).
import type { Context } from 'hono'
import type { Auth } from '../../core/api/routes.js'
import { API_HEADER, CLIENT_HEADER } from '../../core/api/routes.js'
import { forbidden, unauthorized } from '../../core/errors.js'
import { hashToken, safeEqual } from '../../core/ids.js'
import type { Store } from '../../store/store.js'
import { standing } from '../people/web-signin.js'
import type { HubEnv, Principal } from './env.js'
import { bodyDigest, FORWARDED, type ForwardVerifier } from './forward-signature.js'
import { requestBody } from './node-io.js'

export type { Principal } from './env.js'

export interface Credentials {
  adminToken: string
  store: Pick<Store, 'senderByToken' | 'senderByName'>
  verifier: ForwardVerifier
}

/** `Authorization: Bearer <token>`; on the sender stream also `?token=` (an EventSource sets no header). */
export function bearer(c: Context<HubEnv>, queryToo = false): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
  return m?.[1] ?? (queryToo ? (c.req.query('token') ?? null) : null)
}

/** Who sent the request. A passed-on request that fails its checks is refused outright. */
export async function identify(
  c: Context<HubEnv>,
  creds: Credentials,
  queryToken = false,
): Promise<Principal> {
  const passed = c.req.header(FORWARDED)
  if (passed !== undefined) return passedOn(c, creds, passed)
  const token = bearer(c, queryToken)
  // Only the home's owner can reach its socket: what comes down it with no token may be a hook of theirs.
  if (!token) return c.env.local ? { kind: 'nobody', local: true } : { kind: 'nobody' }
  if (safeEqual(token, creds.adminToken)) return { kind: 'admin', as: clientName(c) }
  const sender = await creds.store.senderByToken(hashToken(token))
  if (!sender) return { kind: 'nobody', presented: true }
  return sender.kind === 'browser' ? { kind: 'browser', sender } : { kind: 'sender', sender }
}

/** A request another hub passed on: signed for this hub, fresh, taken once, its body the one signed. */
async function passedOn(c: Context<HubEnv>, creds: Credentials, header: string): Promise<Principal> {
  const target = c.env.incoming.url ?? c.req.path
  const checked = creds.verifier.verify(c.req.method, target, header)
  if ('refused' in checked) throw unauthorized(checked.refused)
  const { signed } = checked
  const body = await requestBody(c)
  if ((signed.body ?? bodyDigest(Buffer.alloc(0))) !== bodyDigest(body))
    throw unauthorized('the body of this passed-on request is not the one its hub signed')
  if (signed.as === 'admin' || signed.as.startsWith('admin:'))
    return { kind: 'admin', as: signed.as.slice('admin:'.length) || 'cli', passedOnBy: signed.from }
  if (signed.as.startsWith('web:')) {
    const sender = await creds.store.senderByName(signed.as.slice('web:'.length))
    if (sender?.kind === 'browser') return { kind: 'browser', sender, passedOnBy: signed.from }
  }
  throw unauthorized(`a passed-on request for "${signed.as.slice(0, 40)}" is not one this hub takes`)
}

/** Throws unless `who` may call a route that needs `auth`; the sender or browser it may act as. */
export function authorize(c: Context<HubEnv>, auth: Auth, who: Principal): void {
  if (auth === 'none' || auth === 'source') return
  if (auth === 'sender') {
    allowedSender(who)
    return
  }
  if (auth === 'hook') {
    if (who.kind === 'admin' || (who.kind === 'nobody' && who.local)) return
    throw unauthorized(
      "Claude Code's hooks reach the hub through the home's socket (switchboard install claude --hooks), or with the admin token",
    )
  }
  if (auth === 'admin') {
    if (who.kind === 'admin') return
    throw who.kind === 'browser'
      ? forbidden('this route needs the admin token; a browser may not call it')
      : unauthorized('this API needs the admin token (Authorization: Bearer <home>/admin-token)')
  }
  // browser, operator: the admin token, or a browser in good standing.
  if (who.kind === 'admin') return
  if (who.kind !== 'browser' || standing(who.sender) === 'out')
    throw unauthorized('not signed in: run `switchboard open` in a terminal')
  // A header only the page's own code sets: a form or a link from elsewhere cannot.
  if (c.req.method !== 'GET' && c.req.header(API_HEADER) !== '1' && !who.passedOnBy)
    throw forbidden(`state-changing requests need the ${API_HEADER} header`)
  if (auth === 'operator' && standing(who.sender) !== 'operator')
    throw forbidden(
      `this browser is no longer an operator (switchboard access allow ${who.sender.name} --operator)`,
    )
}

function allowedSender(who: Principal): void {
  if (who.kind === 'nobody')
    throw unauthorized(
      who.presented ? 'unknown sender token' : 'missing sender token (Authorization: Bearer <token>)',
    )
  // A dashboard browser's key is for the dashboard's API only.
  if (who.kind !== 'sender') throw unauthorized('unknown sender token')
  const { sender } = who
  if (sender.status === 'pending')
    throw forbidden(`pairing pending: ask the operator to run "switchboard pair ${sender.name.slice(8)}"`)
  if (sender.status === 'blocked') throw forbidden('this sender is blocked')
}

/** What a local process with the admin token calls itself; `cli` unless it says otherwise. */
function clientName(c: Context<HubEnv>): string {
  const said = c.req.header(CLIENT_HEADER) ?? ''
  return /^[a-z][a-z0-9-]{0,19}$/.test(said) ? said : 'cli'
}

/** The name a principal's answers are recorded under. */
export function nameOf(who: Principal): string {
  if (who.kind === 'sender' || who.kind === 'browser') return who.sender.name
  if (who.kind === 'nobody' && who.local) return 'hook'
  return who.kind === 'admin' ? who.as : 'nobody'
}

/** How a request passed on names its principal, for the hub it goes to (forward-signature.ts `as`). */
export function passOnName(who: Principal): string | null {
  if (who.kind === 'admin') return `admin:${who.as}`
  if (who.kind === 'browser') return `web:${who.sender.name}`
  return null
}
