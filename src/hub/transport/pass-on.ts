// The two ends of a request about a session another hub runs, as this hub's server meets them:
// one from a client (authenticated here, then passed on: forward.ts), one another hub passed on
// (checked, then served for whom that hub authenticated). The dashboard's own credential stays the
// dashboard's: it is asked who a browser is, and given a stand-in for one another hub vouched for.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpError } from '../../core/errors.js'
import { safeEqual } from '../../core/ids.js'
import type { Store } from '../../store/store.js'
import { type Forwarding, forward, sessionHubElsewhere, setHeaders, takeForwarded } from './forward.js'
import { ForwardVerifier } from './forward-signature.js'
import { bearerToken } from './http-util.js'

/** What the dashboard tells and lends the hub (see hub/web/app.ts and hub/core/web-signin.ts). */
export interface DashboardCredentials {
  /** The signed-in browser a request comes from, by its own credential; null when none. */
  browser(req: IncomingMessage): Promise<string | null>
  /** Request headers that make the dashboard take a request as `browser`'s, until `release`. */
  standIn(browser: string): { headers: [name: string, value: string][]; release(): void }
}

type Serve = (req: IncomingMessage, res: ServerResponse) => void

export function passingOn(store: Store, forwarding: Forwarding, dashboard: DashboardCredentials) {
  const verifier = new ForwardVerifier(forwarding.key, () => forwarding.hubId)
  /** Requests another hub passed on for a client it authenticated with the admin token. */
  const forAdmin = new WeakSet<IncomingMessage>()

  /** Throws 401 unless the request holds the admin token, or another hub vouched that its client did. */
  const requireAdmin = (req: IncomingMessage): void => {
    const token = bearerToken(req)
    if (!forAdmin.has(req) && (!token || !safeEqual(token, forwarding.key))) {
      req.resume()
      throw new HttpError(401, 'this API needs the admin token (Authorization: Bearer <home>/admin-token)')
    }
  }

  /** Whom a request for another hub is from, as this hub authenticates it; a 401 when nobody. */
  const principalOf = async (req: IncomingMessage, path: string): Promise<string> => {
    if (!path.startsWith('/api/')) {
      requireAdmin(req)
      return 'admin'
    }
    const browser = await dashboard.browser(req)
    if (!browser) {
      req.resume()
      throw new HttpError(401, 'not signed in: run `switchboard open` in a terminal')
    }
    return `web:${browser}`
  }

  return {
    requireAdmin,

    /** A request about `sessionId`: passed on when another hub runs it, else served here. */
    async elsewhereOrHere(
      req: IncomingMessage,
      res: ServerResponse,
      path: string,
      sessionId: string,
      here: Serve,
    ) {
      const other = await sessionHubElsewhere(store, forwarding.hubId, sessionId)
      if (!other) return here(req, res)
      await forward(req, res, other, await principalOf(req, path), forwarding)
    },

    /** A request another hub passed on: served for whom that hub authenticated, as if they had asked here. */
    async passedOn(req: IncomingMessage, res: ServerResponse, here: Serve) {
      const { req: taken, principal } = await takeForwarded(req, verifier, forwarding.maxBodyBytes)
      if (principal === 'admin') forAdmin.add(taken)
      else if (principal.startsWith('web:')) {
        const standIn = dashboard.standIn(principal.slice('web:'.length))
        res.on('close', standIn.release)
        setHeaders(taken, [...taken.rawHeaders, ...standIn.headers.flat()])
      } else
        throw new HttpError(
          401,
          `a passed-on request for "${principal.slice(0, 40)}" is not one this hub takes`,
        )
      here(taken, res)
    },
  }
}
