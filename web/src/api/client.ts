// Talks to the hub on the same origin, by route name (src/core/api: the routes, and the client typed
// from them, the same the CLI uses). The browser is signed in by a key kept in this origin's storage
// (no other port or site can read it) and sent as `Authorization: Bearer`; every state-changing
// request also carries `X-Switchboard: 1`. A 401 anywhere means "not signed in".
import { ApiError, apiClient, target } from '../../../src/core/api/client.ts'
import type { RouteName } from '../../../src/core/api/routes.ts'
import type { Me, SignedIn } from '../../../src/core/api/rows.ts'
import {
  DASHBOARD_PERMISSION_MODES,
  type DashboardPermissionMode,
} from '../../../src/core/permission-modes.ts'

export { ApiError }

const KEY = 'switchboard.key'

/** The browser's key, while it has one. */
export function storedKey(): string | null {
  try {
    return localStorage.getItem(KEY)
  } catch {
    return null
  }
}

/** What every request to the API carries: the key, when the browser holds one. */
export function authHeaders(): Record<string, string> {
  const key = storedKey()
  return key ? { authorization: `Bearer ${key}` } : {}
}

/** The permission modes a session can be switched to from the page (the API takes them all). */
export type PermissionMode = DashboardPermissionMode
export const PERMISSION_MODES = DASHBOARD_PERMISSION_MODES

const signedOutListeners = new Set<() => void>()

/** Called when any request finds the browser signed out. */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener)
  return () => signedOutListeners.delete(listener)
}

function signedOut() {
  for (const listener of signedOutListeners) listener()
}

/** Calls a route of the hub by name; a 401 (but spending a used link) tells the app it is signed out. */
export const call = apiClient(async (request) => {
  let res: Response
  try {
    res = await fetch(request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      credentials: 'omit',
    })
  } catch {
    throw new ApiError(0, 'unavailable', 'cannot reach the hub; is it running?')
  }
  const body = await res.text()
  if (res.status === 401 && request.path !== '/api/signin') {
    signedOut()
    throw new ApiError(401, 'unauthorized', 'not signed in')
  }
  return { status: res.status, body }
}, authHeaders)

/** Spends a sign-in link's token for a key, kept for this origin only. */
export async function signIn(token: string): Promise<SignedIn> {
  const signedIn = await call('signin', { body: { token } })
  localStorage.setItem(KEY, signedIn.key)
  return signedIn
}

/** Ends this browser's sign-in at the hub, and forgets the key whatever the hub said. */
export async function signOut(): Promise<void> {
  try {
    await call('signout')
  } finally {
    localStorage.removeItem(KEY)
    signedOut()
  }
}

/** What to say when answering a decision failed; a 409 means another surface answered first. */
export function answerErrorText(err: unknown): string {
  return err instanceof ApiError && err.status === 409
    ? `Someone else answered first: ${err.message}`
    : errorText(err)
}

/** Where a live stream of the hub is read (stream.ts), by route name. */
export function streamPath(
  name: Extract<RouteName, 'feed' | 'sessionStream' | 'chatStream'>,
  params?: Record<string, string>,
  query?: Record<string, string | number>,
): string {
  return target(name, params, query)
}

const standingListeners = new Set<(me: Me) => void>()

/** Called when the hub says who this browser is now (an operator, or demoted). */
export function onStanding(listener: (me: Me) => void): () => void {
  standingListeners.add(listener)
  return () => standingListeners.delete(listener)
}

/** A stream the hub ended or refused may mean the browser was signed out or demoted: ask once. */
export async function checkSignedIn(): Promise<void> {
  try {
    const me = await call('me')
    for (const listener of standingListeners) listener(me)
  } catch {
    // signedOut() already ran for a 401; anything else is retried by the caller
  }
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}
