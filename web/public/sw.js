// The dashboard's service worker: it shows what the hub pushes (hub/people/push.ts; the payload is
// PushPayload in src/core/api/rows.ts) while no page is open, and answers a prompt from the
// notification: Allow or Deny posts to the path the push names, with the key the page left in this
// origin's cache (web/src/notifications/push.ts), then the notification says the verdict. A tap opens the page.
// Plain JavaScript, served as it is at the root so its scope is the whole dashboard.

/** Where the page keeps the browser's key for this worker (the worker cannot read localStorage). */
const KEY_CACHE = 'switchboard-key'
const KEY_ENTRY = '/key'
const ICON = '/icon-192.png'

self.addEventListener('install', () => {
  self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim())
})

self.addEventListener('push', (event) => {
  event.waitUntil(show(readPayload(event.data)))
})

self.addEventListener('notificationclick', (event) => {
  const payload = event.notification.data
  event.notification.close()
  if (payload?.type === 'decision' && (event.action === 'allow' || event.action === 'deny'))
    event.waitUntil(answer(payload, event.action))
  else event.waitUntil(openPage(payload?.url ?? '/'))
})

function readPayload(data) {
  if (!data) return null
  try {
    return data.json()
  } catch {
    return { type: 'test', title: 'Switchboard', body: data.text(), url: '/' }
  }
}

/** The buttons a prompt's notification has, where the platform shows them. */
function actionsOf(payload) {
  if (payload.type !== 'decision' || !payload.actions) return []
  return payload.kind === 'plan'
    ? [
        { action: 'allow', title: 'Approve' },
        { action: 'deny', title: 'Send back' },
      ]
    : [
        { action: 'allow', title: 'Allow' },
        { action: 'deny', title: 'Deny' },
      ]
}

function tagOf(payload) {
  if (payload.type === 'decision') return `decision:${payload.decision}`
  if (payload.type === 'turn') return `turn:${payload.session}`
  return payload.type
}

function show(payload) {
  if (!payload) return self.registration.showNotification('Switchboard', { body: 'Something needs you.' })
  return self.registration.showNotification(payload.title, {
    body: payload.body,
    tag: tagOf(payload),
    data: payload,
    icon: ICON,
    badge: ICON,
    actions: actionsOf(payload),
    // A prompt stays until it is answered; a finished turn may go by itself.
    requireInteraction: payload.type === 'decision',
  })
}

async function storedKey() {
  try {
    const answer = await (await caches.open(KEY_CACHE)).match(KEY_ENTRY)
    return answer ? (await answer.text()) || null : null
  } catch {
    return null
  }
}

/** Allow or Deny from the notification; the notification then says what came of it. */
async function answer(payload, behavior) {
  const key = await storedKey()
  // Signed out on this device: the page asks to sign in, then shows the prompt.
  if (!key) return openPage(payload.url)
  let verdict
  try {
    const response = await fetch(payload.answer, {
      method: 'POST',
      credentials: 'omit',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-switchboard': '1' },
      body: JSON.stringify(
        behavior === 'allow'
          ? { behavior: 'allow' }
          : { behavior: 'deny', message: 'Denied from a notification' },
      ),
    })
    const json = await response.json().catch(() => ({}))
    if (response.ok)
      verdict = behavior === 'allow' ? (payload.kind === 'plan' ? 'Approved' : 'Allowed') : 'Denied'
    else if (response.status === 409) verdict = `Answered elsewhere first: ${json.error ?? ''}`.trim()
    else verdict = `Not answered: ${json.error ?? `the hub answered ${response.status}`}`
  } catch {
    verdict = 'Not answered: the hub could not be reached. Open the dashboard to answer.'
  }
  await self.registration.showNotification(payload.title, {
    body: verdict,
    tag: tagOf(payload),
    data: { ...payload, type: 'verdict' },
    icon: ICON,
    badge: ICON,
  })
}

/** Brings an open dashboard forward on `url`, or opens one. */
async function openPage(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin)
  if (open) {
    await open.focus()
    // A window this worker does not control cannot be sent elsewhere: a new one then.
    return open.navigate(url).catch(() => self.clients.openWindow(url))
  }
  return self.clients.openWindow(url)
}
