// The dashboard in real headless Chromium (playwright-core), against a hub driving the real Claude
// Code CLI on the fake Messages API: sign in with `switchboard open --print`, start a session from the
// page, answer its prompts in the inbox, and see an answer given elsewhere. Screenshots of each page,
// on the desktop and at a phone's size, go to test-results/screenshots.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { beforeEach, expect, it } from 'vitest'
import { COLOUR_QUESTION, latestTurn, textOf, toolResults } from '../fakes/anthropic.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { DESKTOP, dashboardPages, PHONE, SHOTS } from '../helpers/dashboard-page.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'

const world = e2eWorld()
const pages = dashboardPages(world)
beforeEach(async () => {
  await startDrivingHub(world)
})

/** A signed-in page: the link `switchboard open --print` prints, opened once. */
async function signedIn(
  viewport = DESKTOP,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<Page> {
  return (await pages.signedIn({ viewport }, prepare)).page
}

/** The whole page; `window`: only what the window shows (a long transcript is windowed: the rest is blank). */
async function shot(page: Page, name: string, window = false): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: !window })
}

it('lets nothing in without signing in, and a sign-in link works once', async () => {
  const api = await fetch(`${world.home.url}/api/sessions`)
  expect(api.status).toBe(401)
  const openapi = (await (await fetch(`${world.home.url}/openapi.json`)).json()) as {
    paths: Record<
      string,
      { post?: { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } } }
    >
  }
  // Generated from the zod schema the hub checks a new session with (the CLI's and the page's alike).
  expect(
    openapi.paths['/api/sessions']?.post?.requestBody?.content['application/json']?.schema.required,
  ).toEqual(['prompt', 'options'])
  const printed = await world.home.cli('open', '--print')
  const url = new URL(/(http:\/\/\S+)/.exec(printed)?.[1] as string)
  const spend = () =>
    fetch(`${url.origin}/api/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switchboard': '1' },
      body: JSON.stringify({ token: url.searchParams.get('token') }),
    })
  const first = await spend()
  expect(first.status).toBe(201)
  expect(first.headers.get('set-cookie')).toBeNull()
  const { key } = (await first.json()) as { key: string }
  expect((await spend()).status).toBe(401)
  const auth = { authorization: `Bearer ${key}` }
  expect((await fetch(`${world.home.url}/api/sessions`, { headers: auth })).status).toBe(200)
  // A state change without the header a page sets is refused.
  const forged = await fetch(`${world.home.url}/api/sessions`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'x', options: { cwd: world.claude.cwd } }),
  })
  expect(forged.status).toBe(403)
  // Revoked at the terminal: the browser is a sender.
  const name = (
    (await (await fetch(`${world.home.url}/api/me`, { headers: auth })).json()) as { name: string }
  ).name
  await world.home.cli('access', 'block', name)
  expect((await fetch(`${world.home.url}/api/me`, { headers: auth })).status).toBe(401)
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
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'go',
    options: { cwd: world.claude.cwd },
  })
  await page.getByRole('link', { name: /Inbox/ }).click()
  await page.getByText('touch answered-elsewhere').first().waitFor({ timeout: 30_000 })
  await shot(page, 'inbox-phone')
  const view = await adminCall<{ pendingInputs: { code: string }[] }>(
    world,
    'GET',
    `/api/sessions/${created.json.id}`,
  )
  const code = view.json.pendingInputs[0]?.code as string
  // Answered at the terminal.
  expect(await world.home.cli('answer', code, 'no', '--message', 'not today')).toContain(`denied ${code}`)
  await page
    .getByText(/denied by cli/i)
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

const question = COLOUR_QUESTION

it('answers a question by its option, and sends a plan back with a comment', async () => {
  const page = await signedIn()
  world.fake.respond((r) => {
    const results = toolResults(r)
    if (results.length) return { text: `got: ${textOf(results[0]?.content)}` }
    if (latestTurn(r).includes('now make a plan'))
      return { tool: 'ExitPlanMode', input: { plan: '1. paint the shed' } }
    return { tool: 'AskUserQuestion', input: question }
  })
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'ask me',
    options: { cwd: world.claude.cwd, permissionMode: 'default' },
  })
  const id = created.json.id
  await page.getByRole('link', { name: /Inbox/ }).click()
  await page.getByText('Which colour?').first().waitFor({ timeout: 30_000 })
  await page.getByRole('button', { name: 'blue' }).click()
  await waitFor(
    async () =>
      (
        await adminCall<{ lastResult: string | null }>(world, 'GET', `/api/sessions/${id}`)
      ).json.lastResult?.includes('blue') === true,
    30_000,
    'the answer to reach Claude',
  )

  await adminCall(world, 'POST', `/api/sessions/${id}/permission-mode`, { mode: 'plan' })
  await adminCall(world, 'POST', `/api/sessions/${id}/messages`, { text: 'now make a plan' })
  await page.getByRole('button', { name: 'Send back' }).waitFor({ timeout: 30_000 })
  await shot(page, 'inbox-plan-desktop')
  await page.getByLabel('Comment').fill('paint the house instead')
  await page.getByRole('button', { name: 'Send back' }).click()
  await waitFor(
    () =>
      textOf(world.fake.requests.flatMap(toolResults).at(-1)?.content).includes('paint the house instead'),
    30_000,
    'the comment to reach Claude',
  )
})

it('resumes a transcript after a reload mid-turn, with no line missing or shown twice', async () => {
  const page = await signedIn()
  world.fake.respond((r) =>
    latestTurn(r).includes('tell a long story')
      ? { slowText: 'once upon a time there was a hub that never lost a line', delayMs: 150 }
      : { text: 'ok' },
  )
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'tell a long story',
    options: { cwd: world.claude.cwd },
  })
  await page.goto(`${world.home.url}/#/sessions/${created.json.id}`)
  await page.getByText('tell a long story').first().waitFor()
  await page.reload()
  await page
    .getByText(/Turn finished/)
    .first()
    .waitFor({ timeout: 30_000 })
  // In the transcript: the page's heading names the session by this prompt too.
  const transcript = page.getByRole('region', { name: 'Transcript' })
  expect(await transcript.getByText('tell a long story').count()).toBe(1)
  expect(await transcript.getByText(/once upon a time there was a hub/).count()).toBe(1)
  expect(await transcript.getByText(/Turn finished/).count()).toBe(1)
})

/** Whether the element is wholly inside the window (the page scrolled to it). */
async function inView(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox()
  const size = locator.page().viewportSize()
  return !!box && !!size && box.y >= 0 && box.y + box.height <= size.height
}

it('shows the reply as it is written at the bottom of a long transcript, then the finished message in its place, once', async () => {
  const page = await signedIn()
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  world.closers.push(release)
  const first = 'the first half is written'
  const whole = `${first} and the second half follows`
  const long = Array.from({ length: 150 }, (_, i) => `line ${i + 1} of a long answer`).join('\n')
  world.fake.respond((r) =>
    latestTurn(r).includes('write it slowly')
      ? { text: whole, pause: { at: first.length, until: released } }
      : { text: long },
  )
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'start with a long answer',
    options: { cwd: world.claude.cwd },
  })
  const id = created.json.id
  await page.goto(`${world.home.url}/#/sessions/${id}`)
  const transcript = page.getByRole('region', { name: 'Transcript' })
  await transcript.getByText(/Turn finished/).waitFor({ timeout: 30_000 })
  await adminCall(world, 'POST', `/api/sessions/${id}/messages`, { text: 'write it slowly' })

  // The model is held mid-message: what it wrote so far shows, in view, and nothing of the rest.
  const writing = transcript.getByText(first, { exact: true })
  await writing.waitFor({ timeout: 30_000 })
  await waitFor(() => inView(writing), 5_000, 'the text being written to be scrolled into view')
  expect(await transcript.getByText(/second half/).count()).toBe(0)
  await shot(page, 'session-writing-desktop', true)
  // A page that comes in now gets the text so far at once, at the bottom.
  await page.reload()
  await waitFor(() => inView(writing), 10_000, 'the text so far, in view after a reload')

  release()
  const finished = transcript.getByText(whole, { exact: true })
  await finished.waitFor({ timeout: 30_000 })
  await waitFor(() => inView(finished), 5_000, 'the finished message in view')
  await waitFor(
    async () => (await transcript.getByText(/Turn finished/).count()) === 2,
    30_000,
    'the turn end',
  )
  expect(await finished.count()).toBe(1)
  expect(await transcript.getByText(new RegExp(first)).count()).toBe(1)
  // The whole transcript scrolls: its start is one scroll away, with nothing to click.
  await page.evaluate('window.scrollTo(0, 0)')
  await transcript.getByText('start with a long answer').waitFor()
  // Partial messages are shown, never stored.
  const lines = await adminCall<{ lines: { line: { type: string } }[] }>(
    world,
    'GET',
    `/api/sessions/${id}/lines?after=0`,
  )
  expect(lines.json.lines.some((l) => l.line.type === 'stream_event')).toBe(false)
})

/** Wraps the page's Notification to keep each one shown (title, body, and the notification itself). */
const RECORD_NOTIFICATIONS = `{
  const Real = window.Notification
  window.__shown = []
  window.Notification = function Notification(title, options) {
    let n
    try { n = new Real(title, options) } catch { n = { close() {} } }
    window.__shown.push({ title, body: options?.body ?? '', n })
    return n
  }
  Object.defineProperty(window.Notification, 'permission', { get: () => Real.permission })
  window.Notification.requestPermission = (...args) => Real.requestPermission(...args)
}`
type Shown = { title: string; body: string; n: { onclick: (() => void) | null } }

it('notifies a finished turn from any page, naming the session, and the notification opens it', async () => {
  const page = await signedIn(undefined, async (context) => {
    await context.grantPermissions(['notifications'], { origin: world.home.url })
    await context.addInitScript(RECORD_NOTIFICATIONS)
  })
  const shown = () =>
    page.evaluate(() =>
      (globalThis as unknown as { __shown: Shown[] }).__shown.map(({ title, body }) => ({ title, body })),
    )
  world.fake.respond(() => ({ text: 'all done over here' }))
  await page.getByRole('link', { name: /Inbox/ }).click()
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'finish a turn',
    options: { cwd: world.claude.cwd },
  })
  const id = created.json.id
  await waitFor(async () => (await shown()).length > 0, 30_000, 'a notification')
  expect(await shown()).toEqual([
    { title: `${id} finished its turn`, body: expect.stringContaining('all done over here') },
  ])
  expect(page.url()).toMatch(/#\/inbox$/)
  await page.evaluate(() => (globalThis as unknown as { __shown: Shown[] }).__shown[0]?.n.onclick?.())
  await page.waitForURL(new RegExp(`#/sessions/${id}$`))
  await page.getByRole('region', { name: 'Transcript' }).getByText('all done over here').waitFor()
})

it('makes an "always allow" rule from a prompt, lets the next identical call pass unasked, and revokes it', async () => {
  const page = await signedIn()
  let turn = 0
  world.fake.respond((r) => {
    if (toolResults(r).length) return { text: `turn ${turn} done` }
    turn += 1
    return { tool: 'Bash', input: { command: 'touch always-allowed && ls', description: 'Make a file' } }
  })
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'first',
    options: { cwd: world.claude.cwd },
  })
  const id = created.json.id
  await page.getByRole('link', { name: /Inbox/ }).click()
  await page.getByText('touch always-allowed && ls').first().waitFor({ timeout: 30_000 })
  const reveal = page.getByRole('button', { name: 'Always allow…' })
  if (await reveal.count()) await reveal.click()
  await page.getByLabel('Allow for').selectOption('folder')
  await page.getByRole('button', { name: 'Always allow', exact: true }).click()
  const idle = (n: number) =>
    waitFor(
      async () =>
        (await adminCall<{ lastResult: string | null }>(world, 'GET', `/api/sessions/${id}`)).json
          .lastResult === `turn ${n} done`,
      30_000,
      `turn ${n} to finish`,
    )
  await idle(1)

  // The same call again: no prompt, the rule answers, and it is recorded as the rule's answer.
  await adminCall(world, 'POST', `/api/sessions/${id}/messages`, { text: 'again' })
  await idle(2)
  await page.getByRole('link', { name: 'Rules' }).click()
  await page.getByText('touch always-allowed && ls').first().waitFor()
  await shot(page, 'rules-desktop')
  const key = (await page.evaluate("localStorage.getItem('switchboard.key')")) as string
  const rules = (await (
    await fetch(`${world.home.url}/api/rules`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as {
    rules: { id: string; uses: number; scope: string; scopeValue: string }[]
  }
  expect(rules.rules).toEqual([
    expect.objectContaining({ uses: 1, scope: 'folder', scopeValue: world.claude.cwd }),
  ])

  await page
    .getByRole('button', { name: /Revoke/ })
    .first()
    .click()
  await page.getByText(/No rules/).waitFor()
  await adminCall(world, 'POST', `/api/sessions/${id}/messages`, { text: 'once more' })
  await page.getByRole('link', { name: /Inbox/ }).click()
  await page.getByText('touch always-allowed && ls').first().waitFor({ timeout: 30_000 })
})

it('picks the transcript up where it was after the hub restarts, without a line twice', async () => {
  const page = await signedIn()
  world.fake.respond((r) => ({ text: latestTurn(r).includes('second') ? 'answer two' : 'answer one' }))
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'first',
    options: { cwd: world.claude.cwd },
  })
  await page.goto(`${world.home.url}/#/sessions/${created.json.id}`)
  await page.getByText('answer one').first().waitFor({ timeout: 30_000 })
  // The hub goes away and comes back; the page's stream reconnects by itself, from its last line.
  await world.home.stopHub()
  await startDrivingHub(world)
  await adminCall(world, 'POST', `/api/sessions/${created.json.id}/messages`, { text: 'second' })
  await page.getByText('answer two').first().waitFor({ timeout: 30_000 })
  expect(await page.getByText('answer one').count()).toBe(1)
  expect(await page.getByText('first', { exact: true }).count()).toBe(1)
  expect(await page.getByText(/Turn finished/).count()).toBe(2)
})

it('chats with a channel session from the Chat page, as the official fakechat does', async () => {
  const channel = await ChannelClient.start(world.home, ['--name', 'desk'])
  world.closers.push(() => channel.close())
  const page = await signedIn(PHONE)
  await page.getByRole('link', { name: 'Chat' }).click()
  await page.getByLabel('To').selectOption('desk')
  await page.getByLabel('Chat message').fill('hello from the browser')
  await page.getByRole('button', { name: 'Send message' }).click()
  const [event] = await channel.waitForEvents(1)
  expect(event?.content).toBe('hello from the browser')
  expect(event?.meta).toMatchObject({ origin: 'http', sender: expect.stringMatching(/^web-/) })
  await channel.callTool('reply', { chat_id: event?.meta?.chat_id, text: 'hello, browser' })
  await page.getByRole('log', { name: 'Conversation' }).getByText('hello, browser').waitFor()
  await shot(page, 'chat-phone')
  expect(await page.getByText('hello, browser').count()).toBe(1)
})

it('approves a pairing request and makes an operator from the Access page, at a phone’s size', async () => {
  const page = await signedIn(PHONE)
  const asked = (await (await fetch(`${world.home.url}/pair`, { method: 'POST' })).json()) as {
    code: string
    token: string
  }
  await page.getByRole('link', { name: 'Access' }).click()
  const request = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Approve' }) })
  await request.first().waitFor()
  await shot(page, 'access-phone')
  await request.first().getByRole('button', { name: 'Approve' }).click()
  // The device that asked may now send messages.
  await waitFor(
    async () =>
      (
        await fetch(`${world.home.url}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${asked.token}` },
          body: 'hi',
        })
      ).status === 202,
    10_000,
    'the paired device to be let in',
  )
  const sender = page.getByRole('article', { name: `paired-${asked.code}` })
  await sender.waitFor()
  await sender.getByRole('checkbox', { name: 'Operator' }).check()
  await waitFor(
    async () => (await world.home.cli('access', 'list')).includes(`paired-${asked.code}\tallowed\toperator`),
    10_000,
    'the sender to be an operator',
  )
})

it('approves identical prompts of two sessions at once', async () => {
  const page = await signedIn()
  world.fake.respond((r) =>
    toolResults(r).length ? { text: 'done' } : { tool: 'Bash', input: { command: 'touch batch-ok && ls' } },
  )
  for (const dir of ['a', 'b'])
    await adminCall(world, 'POST', '/api/sessions', {
      prompt: `go ${dir}`,
      options: { cwd: world.claude.cwd },
    })
  await page.getByRole('link', { name: /Inbox/ }).click()
  const batch = page.getByRole('button', { name: 'Approve all 2 identical' })
  await batch.waitFor({ timeout: 30_000 })
  await shot(page, 'inbox-batch-desktop')
  await batch.click()
  await waitFor(
    async () => {
      const { json } = await adminCall<{ sessions: { status: string }[] }>(world, 'GET', '/api/sessions')
      return json.sessions.filter((s) => s.status === 'idle').length === 2
    },
    30_000,
    'both sessions to finish',
  )
})

it('searches the event log, and links a webhook source on the Hub page to its events', async () => {
  const secret = await world.home.addSource('ci')
  for (const text of ['build 7 failed on main', 'build 8 passed', 'deploy 3 done'])
    await fetch(`${world.home.url}/hooks/ci`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' },
      body: text,
    })
  const page = await signedIn()
  await page.getByRole('link', { name: 'Events' }).click()
  await page.getByLabel('Search events').fill('build')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  const events = page.getByRole('list', { name: 'Events' })
  // The page opened on every event: the search has answered once the one it leaves out is gone.
  await events.getByText('deploy 3 done').waitFor({ state: 'detached' })
  await events.getByText('build 8 passed').waitFor()
  expect(await events.getByText('build 7 failed on main').count()).toBe(1)
  expect(await events.getByText('deploy 3 done').count()).toBe(0)
  await shot(page, 'events-desktop')

  await page.getByRole('link', { name: 'Hub' }).click()
  const sources = page.getByRole('list', { name: 'Webhook sources' })
  await sources.getByRole('link', { name: 'ci' }).click()
  await page.getByRole('list', { name: 'Events' }).getByText('deploy 3 done').waitFor()
})
