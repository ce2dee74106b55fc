// A file from the dashboard into a session (issue 36's acceptance), in real headless Chromium at a
// phone's width, against a hub driving the real Claude Code CLI on the fake Messages API: attached in
// the session's message box, sent with words, stored in the session's folder of the inbox with the
// same bytes, and named to the model; a file over chatFileLimitMb refused on the page, naming it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { latestTurn } from '../fakes/anthropic.js'
import { launchChromium } from '../helpers/chromium.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'

const SHOTS = resolve(import.meta.dirname, '../../test-results/screenshots')
const PHONE = { width: 390, height: 844 }
const world = e2eWorld()
let browser: Browser

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  await startDrivingHub(world)
})

async function signedInPhone(): Promise<Page> {
  const printed = await world.home.cli('open', '--print')
  const url = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1]
  expect(url).toBeDefined()
  const context = await browser.newContext({ viewport: PHONE })
  world.closers.push(() => context.close())
  const page = await context.newPage()
  await page.goto(url as string)
  await page.getByRole('link', { name: /Sessions/ }).waitFor()
  return page
}

it('sends a file attached on the phone to the session, and refuses one over the limit on the page', async () => {
  world.fake.respond((r) =>
    latestTurn(r).includes('what is in this file') ? { text: 'a list of three fruits' } : { text: 'ready' },
  )
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'wait for a file',
    options: { cwd: world.claude.cwd },
  })
  const id = created.json.id
  const page = await signedInPhone()
  await page.goto(`${world.home.url}/#/sessions/${id}`)
  await page
    .getByText(/Turn finished/)
    .first()
    .waitFor({ timeout: 30_000 })

  const bytes = Buffer.from('apple\npear\nplum\n')
  await page
    .getByLabel('File to attach')
    .setInputFiles({ name: 'fruit.txt', mimeType: 'text/plain', buffer: bytes })
  await page.getByText('fruit.txt').waitFor()
  await page.getByText(`${bytes.length} B`, { exact: true }).waitFor()
  await page.getByLabel('Message').fill('what is in this file?')
  // At 390 px: nothing scrolls sideways, and every button of the message box is on the screen.
  expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(390)
  for (const name of ['Attach', 'Camera', 'Record', 'Send', 'Interrupt']) {
    const button = page.getByRole('button', { name, exact: true })
    const box = await button.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390, name).toBe(true)
    // Its word on one line ("Attac / h" was the first version of this row).
    const lines = await button.evaluate((b) => {
      const range = b.ownerDocument.createRange()
      range.selectNodeContents(b)
      return range.getClientRects().length
    })
    expect(lines, `${name} on one line`).toBe(1)
  }
  await page.screenshot({ path: join(SHOTS, 'session-upload-phone.png') })
  await page.getByRole('button', { name: 'Send', exact: true }).click()

  await page.getByText('a list of three fruits').first().waitFor({ timeout: 30_000 })
  const asked = world.fake.requestsMentioning('what is in this file?').at(-1)
  const path = /(\/[^\s"\\]+fruit\.txt) \(text\/plain, 16 bytes\)/.exec(JSON.stringify(asked))?.[1]
  expect(path, 'the model to be told the file').toBeDefined()
  expect(path?.startsWith(join(world.home.dir, 'inbox', id))).toBe(true)
  expect(readFileSync(path as string).equals(bytes)).toBe(true)
  // Sent: the box holds nothing attached any more.
  await waitFor(
    async () => (await page.getByRole('button', { name: 'Remove fruit.txt' }).count()) === 0,
    5_000,
    'the attachment to clear',
  )

  // Over the limit, read again from config.json: refused on the page, naming it; the model is not asked.
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ chatFileLimitMb: 1 }))
  const asks = world.fake.requests.length
  await page.getByLabel('File to attach').setInputFiles({
    name: 'huge.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(2 * 1024 * 1024),
  })
  await page.getByText('2.0 MB').waitFor()
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await page
    .getByRole('alert')
    .getByText('“huge.pdf” is 2 MB, over the 1 MB limit for files (chatFileLimitMb): it was not sent.')
    .waitFor({ timeout: 10_000 })
  await page.screenshot({ path: join(SHOTS, 'session-upload-refused-phone.png') })
  expect(world.fake.requests.length).toBe(asks)
})
