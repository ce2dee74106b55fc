// The dashboard in real headless Chromium (playwright-core), against a hub driving the real Claude
// Code CLI on the fake Messages API: sign in with `switchboard open --print`, start a session from the
// page, answer its prompts in the inbox, and see an answer given elsewhere. Screenshots of each page,
// on the desktop and at a phone's size, go to test-results/screenshots.
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { textOf, toolResults } from '../fakes/anthropic.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SHOTS = resolve(import.meta.dirname, '../../test-results/screenshots')
const world = e2eWorld()
let browser: Browser

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (.ci/run does)`)
  mkdirSync(SHOTS, { recursive: true })
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  await startDrivingHub(world)
})

const PHONE = { width: 390, height: 844 }

/** A signed-in page: the link `switchboard open --print` prints, opened once. */
async function signedIn(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const printed = await world.home.cli('open', '--print')
  const url = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1]
  expect(url).toBeDefined()
  const context = await browser.newContext({ viewport })
  world.closers.push(() => context.close())
  const page = await context.newPage()
  await page.goto(url as string)
  await page.getByRole('link', { name: /Sessions/ }).waitFor()
  return page
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

it('lets nothing in without signing in, and a sign-in link works once', async () => {
  const api = await fetch(`${world.home.url}/api/sessions`)
  expect(api.status).toBe(401)
  const printed = await world.home.cli('open', '--print')
  const url = /(http:\/\/\S+)/.exec(printed)?.[1] as string
  const first = await fetch(url, { redirect: 'manual' })
  expect(first.status).toBe(303)
  const cookie = first.headers.get('set-cookie') ?? ''
  expect(cookie).toMatch(/sb_session=.+HttpOnly/i)
  expect(cookie).toMatch(/SameSite=Strict/i)
  expect((await fetch(url, { redirect: 'manual' })).status).toBe(401)
  const session = cookie.split(';')[0] as string
  expect((await fetch(`${world.home.url}/api/sessions`, { headers: { cookie: session } })).status).toBe(200)
  // A state change without the header a page sets (a form from another site cannot) is refused.
  const forged = await fetch(`${world.home.url}/api/sessions`, {
    method: 'POST',
    headers: { cookie: session, 'content-type': 'application/json' },
    body: JSON.stringify({ cwd: world.claude.cwd, prompt: 'x' }),
  })
  expect(forged.status).toBe(403)
  // Revoked at the terminal: the browser is a sender.
  const name = (
    (await (await fetch(`${world.home.url}/api/me`, { headers: { cookie: session } })).json()) as {
      name: string
    }
  ).name
  await world.home.cli('access', 'block', name)
  expect((await fetch(`${world.home.url}/api/me`, { headers: { cookie: session } })).status).toBe(401)
})

it('starts a session from the page, streams its reply, and approves an edited Bash command from the inbox', async () => {
  const page = await signedIn()
  await shot(page, 'sessions-desktop')
  world.fake.respond((request) => {
    const results = toolResults(request)
    if (results.length) return { text: `done: ${textOf(results[0]?.content).trim()}` }
    return { tool: 'Bash', input: { command: 'touch from-the-page && ls', description: 'Make a file' } }
  })
  await page.getByLabel('Folder').fill(world.claude.cwd)
  await page.getByLabel('Prompt').fill('make the file')
  await page.getByRole('button', { name: 'Start session' }).click()
  await page.waitForURL(/#\/sessions\/ses_/)

  await page.getByRole('link', { name: /Inbox/ }).click()
  await page.getByText('touch from-the-page && ls').first().waitFor()
  await shot(page, 'inbox-desktop')
  await page.getByRole('button', { name: 'Edit input' }).click()
  const input = page.getByLabel('Input JSON')
  await input.fill(JSON.stringify({ command: 'touch edited-on-the-page && ls', description: 'Make a file' }))
  await page.getByRole('button', { name: 'Approve' }).click()
  await waitFor(
    () => existsSync(join(world.claude.cwd, 'edited-on-the-page')),
    30_000,
    'the edited command to run',
  )
  expect(existsSync(join(world.claude.cwd, 'from-the-page'))).toBe(false)

  await page.goBack()
  await page
    .getByText(/done: .*edited-on-the-page/)
    .first()
    .waitFor({ timeout: 30_000 })
  await shot(page, 'session-desktop')
})

it('takes a decision answered elsewhere off the page, saying who answered', async () => {
  const page = await signedIn(PHONE)
  world.fake.respond((request) =>
    toolResults(request).length
      ? { text: 'ok' }
      : { tool: 'Bash', input: { command: 'touch answered-elsewhere' } },
  )
  const created = await adminCall<{ id: string }>(world, 'POST', '/sessions', {
    prompt: 'go',
    options: { cwd: world.claude.cwd },
  })
  await page.getByRole('link', { name: /Inbox/ }).click()
  await page.getByText('touch answered-elsewhere').first().waitFor({ timeout: 30_000 })
  await shot(page, 'inbox-phone')
  const view = await adminCall<{ pendingInputs: { decision: string }[] }>(
    world,
    'GET',
    `/sessions/${created.json.id}`,
  )
  const decision = view.json.pendingInputs[0]?.decision as string
  await adminCall(world, 'POST', `/sessions/${created.json.id}/respond`, {
    decision,
    answer: { behavior: 'deny', message: 'not today' },
  })
  await page
    .getByText(/Answered by api|answered by api/i)
    .first()
    .waitFor({ timeout: 10_000 })
  await waitFor(
    async () => (await page.getByText('touch answered-elsewhere').count()) === 0,
    15_000,
    'the prompt to leave',
  )
  await page.getByRole('link', { name: /Sessions/ }).click()
  await shot(page, 'sessions-phone')
})
