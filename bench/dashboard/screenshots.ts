// `npm run screenshots`: the README's phone views, taken as a person sees them. A hub drives the real
// Claude Code CLI offline against the fake Messages API (as the dashboard's e2e tests do) with two
// sessions, one finished and one waiting on a Bash prompt; headless Chromium at 390×844 signs in with
// the link `switchboard open --print` prints and saves the session list, the waiting session's page
// with its readable prompt, and the verdict after Approve, to docs/img/.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import type { Browser } from 'playwright-core'
import { FakeAnthropic, toolResults } from '../../test/fakes/anthropic.js'
import { launchChromium } from '../../test/helpers/chromium.js'
import { CLAUDE_BIN, ClaudeHome } from '../../test/helpers/claude.js'
import { CLI, TestHome, waitFor } from '../../test/helpers/home.js'

const OUT = resolve(import.meta.dirname, '../../docs/img')
const PHONE = { width: 390, height: 844 }
const FINISHED = 'why does the checkout test fail on Mondays?'
const WAITING = 'tidy the login logs'
const COMMAND = 'gzip -9 logs/2026-11-*.log && ls -lh logs'

const fake = await new FakeAnthropic().start()
const home = await TestHome.create()
const claude = new ClaudeHome()
let hub: ChildProcess | null = null
let browser: Browser | null = null

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = readFileSync(join(home.dir, 'admin-token'), 'utf8').trim()
  const res = await fetch(`${home.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as T
}

/** A project folder under the Claude home's, as a person's would be. */
function project(...parts: string[]): string {
  const cwd = join(claude.cwd, ...parts)
  mkdirSync(cwd, { recursive: true })
  return cwd
}

try {
  // The finished session answers at once; the waiting one asks to run a command first.
  fake.respond((request) => {
    const said = JSON.stringify(request.messages)
    if (said.includes(FINISHED))
      return {
        text: 'The test builds its dates in local time; on Mondays the week rolls over. Fixed in `cart.test.ts`.',
      }
    return toolResults(request).length
      ? { text: 'Done: the logs are compressed.' }
      : { tool: 'Bash', input: { command: COMMAND } }
  })
  hub = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...claude.env(fake.url),
      SWITCHBOARD_HOME: home.dir,
      SWITCHBOARD_PORT: String(home.port),
      CLAUDE_CODE_PATH: CLAUDE_BIN,
    },
    stdio: 'ignore',
  })
  await home.waitForHub(15_000)
  const shop = project('shop')
  const portal = project('customer-portal', 'services', 'authentication-gateway')
  // The logs the waiting session's command compresses, so that it runs as Claude says it did.
  mkdirSync(join(portal, 'logs'))
  for (const day of ['2026-11-23', '2026-11-24'])
    writeFileSync(join(portal, 'logs', `${day}.log`), `${day} login ok\n`.repeat(200))
  const done = await admin<{ id: string }>('POST', '/api/sessions', {
    prompt: FINISHED,
    options: { cwd: shop },
  })
  await waitFor(
    async () => (await admin<{ status: string }>('GET', `/api/sessions/${done.id}`)).status === 'idle',
    60_000,
    'the first session to finish its turn',
  )
  const waiting = await admin<{ id: string }>('POST', '/api/sessions', {
    prompt: WAITING,
    options: { cwd: portal },
  })
  await waitFor(
    async () =>
      (await admin<{ decisions: { owner: string }[] }>('GET', '/api/decisions')).decisions.some(
        (d) => d.owner === waiting.id,
      ),
    60_000,
    'the second session’s prompt',
  )

  browser = await launchChromium()
  const printed = await home.cli('open', '--print')
  const link = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1] as string
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await page.goto(link)
  mkdirSync(OUT, { recursive: true })

  await page
    .getByRole('link', { name: /Sessions/ })
    .first()
    .click()
  const name = `${basename(portal)}: ${WAITING}`
  await page.getByRole('link', { name }).waitFor()
  await page.getByRole('link', { name: `${basename(shop)}: ${FINISHED}` }).waitFor()
  await page.screenshot({ path: join(OUT, 'phone-sessions.png') })

  await page.getByRole('link', { name }).click()
  const prompt = page.getByRole('region', { name: 'Waiting for you' })
  await prompt.getByText(COMMAND).first().waitFor({ timeout: 30_000 })
  // Answer buttons wait a moment after the page shows (README: Dashboard); shown once they take a tap.
  const approve = prompt.getByRole('button', { name: 'Approve' })
  await waitFor(() => approve.isEnabled(), 10_000, 'Approve to take a tap')
  await prompt.scrollIntoViewIfNeeded()
  await page.screenshot({ path: join(OUT, 'phone-prompt.png') })

  await approve.click()
  await prompt
    .getByRole('status')
    .filter({ hasText: /^Bash: Allowed by web-/ })
    .waitFor({ timeout: 30_000 })
  await page.getByText('Done: the logs are compressed.').first().waitFor({ timeout: 30_000 })
  await page.screenshot({ path: join(OUT, 'phone-verdict.png') })
  process.stdout.write(`saved phone-sessions.png, phone-prompt.png, phone-verdict.png in ${OUT}\n`)
} finally {
  await browser?.close()
  if (hub && hub.exitCode === null) {
    hub.kill('SIGTERM')
    await once(hub, 'exit')
  }
  await fake.close()
  await home.cleanup()
  claude.cleanup()
}
process.exit(0)
