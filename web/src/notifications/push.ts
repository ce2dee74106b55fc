// The dashboard as an installed app with the page closed: its service worker (web/public/sw.js) is
// registered on every visit, and Web Push is turned on here, from a button (the browser asks for
// permission only then). The worker answers Allow and Deny with the browser's key, which it cannot
// read from localStorage: the page leaves it in this origin's cache while signed in.
import type { PushSubscriptionRow } from '../../../src/core/api/rows.ts'
import { call } from '../api/client.ts'

/** Where the worker looks for the key (the same names as in sw.js). */
const KEY_CACHE = 'switchboard-key'
const KEY_ENTRY = '/key'

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // Not over https (nor on this machine), or the browser refuses: the page works without it.
  })
}

/** Push needs a service worker, the Push API and a secure origin (https, or this machine). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  )
}

/** Leaves the key for the worker (null: signed out, nothing left). */
export async function shareKeyWithWorker(key: string | null): Promise<void> {
  if (typeof caches === 'undefined') return
  try {
    if (key === null) await caches.delete(KEY_CACHE)
    else await (await caches.open(KEY_CACHE)).put(KEY_ENTRY, new Response(key))
  } catch {
    // No cache storage here (a private window): Allow and Deny then open the page instead.
  }
}

/** The hub's VAPID public key as the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

/** How long the browser's push service may take to answer before the page says it did not. */
const SUBSCRIBE_WAIT_S = 20

/**
 * A subscription at the browser's push service (Chrome's, Firefox's …, not the hub): offline, or
 * where the service is out of reach, browsers reject with words of their own ("Registration failed
 * - permission denied") or never answer. Either way the person is told what it is, in one line.
 */
async function subscribeAtPushService(
  manager: PushManager,
  options: PushSubscriptionOptionsInit,
): Promise<PushSubscription> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `This browser's push service did not answer within ${SUBSCRIBE_WAIT_S} s, so push is not on: it needs the browser online, with its push service in reach; try again then.`,
          ),
        ),
      SUBSCRIBE_WAIT_S * 1000,
    )
  })
  try {
    return await Promise.race([manager.subscribe(options), late])
  } catch (err) {
    // AbortError is the Push API's word for the push service failing (NotAllowedError is permission's).
    if (err instanceof DOMException && err.name === 'AbortError')
      throw new Error(
        `This browser's push service could not be reached, so push is not on (the browser said: ${err.message}). It needs the browser online, with its push service in reach; try again then.`,
      )
    throw err
  } finally {
    clearTimeout(timer)
  }
}

/** Asks for permission, subscribes this browser with the hub's key, and tells the hub. */
export async function turnOnPush(key: string | null): Promise<PushSubscriptionRow> {
  if ((await Notification.requestPermission()) !== 'granted')
    throw new Error("Notifications are blocked; allow them in the browser's site settings.")
  const registration = await navigator.serviceWorker.ready
  const { publicKey } = await call('pushKey')
  const options = { userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }
  const manager = registration.pushManager
  let subscription: PushSubscription
  try {
    subscription = (await manager.getSubscription()) ?? (await subscribeAtPushService(manager, options))
  } catch (err) {
    const old = await manager.getSubscription()
    // None to start afresh from: the push service's answer stands.
    if (!old) throw err
    // Subscribed before with another key (another hub's, say): once more, afresh.
    await old.unsubscribe()
    subscription = await subscribeAtPushService(manager, options)
  }
  const json = subscription.toJSON()
  const { subscription: row } = await call('pushSubscribe', {
    body: {
      endpoint: json.endpoint ?? subscription.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    },
  })
  await shareKeyWithWorker(key)
  return row
}

/** Stops pushing to a subscription; this browser's own is also ended at its push service. */
export async function revokePush(row: PushSubscriptionRow): Promise<void> {
  await call('revokePush', { params: { id: row.id } })
  if (!row.current || !('serviceWorker' in navigator)) return
  const registration = await navigator.serviceWorker.getRegistration('/')
  await (await registration?.pushManager.getSubscription())?.unsubscribe()
}
