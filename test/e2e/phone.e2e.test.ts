// The dashboard on a phone (390×844) in real headless Chromium, against a hub driving the real Claude
// Code CLI on the fake Messages API: a session named by its project and first prompt (and renamed),
// its prompt approved on its own page with the verdict shown there, one row of navigation, a folder
// path broken only after a separator; and the installed app's service worker, which shows a push
// the DevTools protocol delivers to it and answers the prompt from the notification.
import { existsSync, mkdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { beforeEach, expect, it } from 'vitest'
import type { DecisionRow, PushPayload } from '../../src/core/api/rows.js'
import { toolResults } from '../fakes/anthropic.js'
import { dashboardPages, PHONE, SHOTS } from '../helpers/dashboard-page.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'

const world = e2eWorld()
const pages = dashboardPages(world)
beforeEach(async () => {
  await startDrivingHub(world)
})

/** What these tests read of the page's `navigator` (the tests' own types have no DOM). */
interface Browserish {
  navigator: {
    serviceWorker: {
      ready: Promise<{
        active: { scriptURL: string } | null
        getNotifications(): Promise<{ title: string; body: string; actions: { title: string }[] }[]>
      }>
    }
  }
}

/** A phone signed in with the link `switchboard open --print` prints, notifications allowed. */
async function phone(): Promise<{ page: Page; context: BrowserContext }> {
  return pages.signedIn({ viewport: PHONE, isMobile: true, hasTouch: true }, (context) =>
    context.grantPermissions(['notifications'], { origin: world.home.url }),
  )
}

/** Claude asks to run `command` once a turn, then says it is done. */
function asksToRun(command: string) {
  world.fake.respond((request) =>
    toolResults(request).length ? { text: 'done' } : { tool: 'Bash', input: { command } },
  )
}

async function openDecision(owner: string): Promise<DecisionRow> {
  let found: DecisionRow | undefined
  await waitFor(
    async () => {
      const { json } = await adminCall<{ decisions: DecisionRow[] }>(world, 'GET', '/api/decisions')
      found = json.decisions.find((d) => d.owner === owner)
      return found !== undefined
    },
    30_000,
    'the prompt',
  )
  return found as DecisionRow
}

it('approves a prompt on its session’s page at a phone’s size, says the verdict, and names the session by its project and first prompt', async () => {
  const { page } = await phone()
  // A folder deep enough to wrap on a phone.
  const cwd = join(world.claude.cwd, 'customer-portal', 'services', 'authentication-gateway')
  mkdirSync(cwd, { recursive: true })
  asksToRun('touch approved-on-the-phone')
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'tidy the\nlogin logs',
    options: { cwd },
  })
  const id = created.json.id
  const name = `${basename(cwd)} · tidy the login logs`

  // Named on the list by its project and first prompt, not its id.
  await page.getByRole('link', { name }).click()
  await page.waitForURL(new RegExp(`#/sessions/${id}$`))
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(name)

  // The prompt is answered right here, and the verdict stays on the page.
  const waiting = page.getByRole('region', { name: 'Waiting for you' })
  await waiting.getByText('touch approved-on-the-phone').first().waitFor({ timeout: 30_000 })
  await page.screenshot({ path: join(SHOTS, 'session-prompt-phone.png') })
  await waiting.getByRole('button', { name: 'Approve' }).click()
  await waitFor(() => existsSync(join(cwd, 'approved-on-the-phone')), 30_000, 'the approved command to run')
  await waiting
    .getByRole('status')
    .filter({ hasText: /^Bash: Allowed by web-/ })
    .waitFor({ timeout: 15_000 })
  expect(page.url()).toMatch(new RegExp(`#/sessions/${id}$`))
  await page.screenshot({ path: join(SHOTS, 'session-verdict-phone.png') })

  // One row of navigation, all of it on the screen.
  const links = await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link')
    .evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON() as { top: number; right: number }))
  expect(links).toHaveLength(9)
  expect(new Set(links.map((l) => l.top)).size).toBe(1)
  for (const l of links) expect(l.right).toBeLessThanOrEqual(PHONE.width)

  // The folder wraps, and only right after a separator.
  const breaks = await page.locator('.session-header .folder-path').evaluate((el) => {
    const text = el.textContent ?? ''
    // 4: NodeFilter.SHOW_TEXT.
    const walker = el.ownerDocument.createTreeWalker(el, 4)
    const tops: { char: string; top: number }[] = []
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      for (let i = 0; i < (node.textContent ?? '').length; i++) {
        const range = el.ownerDocument.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        tops.push({ char: node.textContent?.[i] ?? '', top: Math.round(range.getBoundingClientRect().top) })
      }
    const before: string[] = []
    for (let i = 1; i < tops.length; i++)
      if ((tops[i]?.top ?? 0) > (tops[i - 1]?.top ?? 0)) before.push(tops[i - 1]?.char ?? '')
    return { text, before }
  })
  expect(breaks.text).toBe(cwd)
  expect(breaks.before.length).toBeGreaterThan(0)
  expect(new Set(breaks.before)).toEqual(new Set(['/']))

  // Renamed: the title is kept by the hub and names it everywhere.
  await page.getByRole('button', { name: 'Rename' }).click()
  await page.getByLabel('Session title').fill('login log tidy')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('login log tidy')
  const stored = await adminCall<{ title: string | null }>(world, 'GET', `/api/sessions/${id}`)
  expect(stored.json.title).toBe('login log tidy')
  await page.getByRole('link', { name: 'Sessions' }).click()
  await page.getByRole('link', { name: 'login log tidy' }).waitFor()
  await page.screenshot({ path: join(SHOTS, 'sessions-named-phone.png') })
})

it('installs as an app whose service worker shows a pushed prompt with Allow and Deny, and allows it from the notification', async () => {
  const { page, context } = await phone()
  const scriptURL = await page.evaluate(
    async () => (await (globalThis as unknown as Browserish).navigator.serviceWorker.ready).active?.scriptURL,
  )
  expect(scriptURL).toBe(`${world.home.url}/sw.js`)
  const cdp = await context.newCDPSession(page)
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[]
  }
  // A test's browser context is a private one, which Chromium never installs to: nothing else is missing.
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([])

  asksToRun('touch allowed-from-a-notification')
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'clean up',
    options: { cwd: world.claude.cwd },
  })
  const decision = await openDecision(created.json.id)
  // What the hub pushes for it (hub/people/push.ts), delivered as a push service would.
  const payload: PushPayload = {
    type: 'decision',
    decision: decision.id,
    answer: `/api/decisions/${decision.id}/answer`,
    kind: 'permission',
    session: created.json.id,
    title: `${basename(world.claude.cwd)} · clean up: Bash`,
    body: '$ touch allowed-from-a-notification',
    url: `/#/sessions/${created.json.id}`,
    actions: true,
  }
  await cdp.send('ServiceWorker.enable')
  const registrations: { registrationId: string; scopeURL: string }[] = []
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations))
  await waitFor(
    () => registrations.some((r) => r.scopeURL === `${world.home.url}/`),
    10_000,
    'the registration',
  )
  const registration = registrations.find((r) => r.scopeURL === `${world.home.url}/`)
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: world.home.url,
    registrationId: registration?.registrationId as string,
    data: JSON.stringify(payload),
  })
  const shown = () =>
    page.evaluate(async () =>
      (
        await (await (globalThis as unknown as Browserish).navigator.serviceWorker.ready).getNotifications()
      ).map((n) => ({ title: n.title, body: n.body, actions: n.actions.map((a) => a.title) })),
    )
  // Chromium starts the worker for the push and fetches the icon from the hub first: on a loaded
  // machine that took longer than 10 s once (a full run); the test's other waits give 30.
  await waitFor(async () => (await shown()).length === 1, 30_000, 'the notification')
  expect(await shown()).toEqual([{ title: payload.title, body: payload.body, actions: ['Allow', 'Deny'] }])

  // Allow, as the notification's button calls it in the worker: the command runs, the notification says so.
  const [worker] = context.serviceWorkers()
  await worker?.evaluate(
    (p) => (globalThis as unknown as { answer: (p: unknown, b: string) => Promise<void> }).answer(p, 'allow'),
    payload,
  )
  await waitFor(
    () => existsSync(join(world.claude.cwd, 'allowed-from-a-notification')),
    30_000,
    'the command allowed from the notification',
  )
  expect(await shown()).toEqual([{ title: payload.title, body: 'Allowed', actions: [] }])
})

/** Turns push on from the Access page; resolves with the Push notifications section. */
async function turnOnPush(page: Page) {
  await page.getByRole('link', { name: 'Access' }).click()
  await page.getByRole('button', { name: 'Turn on push for this browser' }).click()
  return page.getByRole('region', { name: 'Push notifications' })
}

it('says so when this browser’s push service cannot be reached, and leaves Turn on push to be pressed again', async () => {
  // The tests' Chromium has no network, so its push service refuses every subscription.
  const { page } = await phone()
  const push = await turnOnPush(page)
  await push
    .getByRole('alert')
    .filter({ hasText: /^This browser's push service could not be reached.*Registration failed.*try again/ })
    .waitFor({ timeout: 15_000 })
  expect(await push.getByRole('button', { name: 'Turn on push for this browser' }).isEnabled()).toBe(true)
  expect(await push.getByText('No browser gets push yet.').count()).toBe(1)
})

it('says so when this browser’s push service never answers, instead of waiting with the button pressed', {
  timeout: 90_000,
}, async () => {
  const { page } = await phone()
  // A browser whose push service keeps the subscription waiting (offline, say): it never settles.
  await page.evaluate(() => {
    const manager = (globalThis as unknown as { PushManager: { prototype: { subscribe: unknown } } })
      .PushManager
    manager.prototype.subscribe = () => new Promise(() => {})
  })
  const push = await turnOnPush(page)
  await push
    .getByRole('alert')
    .filter({ hasText: /^This browser's push service did not answer within 20 s.*try again/ })
    .waitFor({ timeout: 40_000 })
  expect(await push.getByRole('button', { name: 'Turn on push for this browser' }).isEnabled()).toBe(true)
})
