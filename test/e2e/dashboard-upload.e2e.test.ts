// A file from the dashboard into a session (issue 36's acceptance), in real headless Chromium at a
// phone's width, against a hub driving the real Claude Code CLI on the fake Messages API: attached in
// the session's message box, sent with words, stored in the session's folder of the inbox with the
// same bytes, and named to the model; a file over chatFileLimitMb refused on the page, naming it.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, expect, it } from 'vitest'
import { latestTurn } from '../fakes/anthropic.js'
import { dashboardPages, fitsThePhone, PHONE, SHOTS } from '../helpers/dashboard-page.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'

const world = e2eWorld()
const pages = dashboardPages(world)
beforeEach(async () => {
  await startDrivingHub(world)
})

it('sends a file attached on the phone to the session, and refuses one over the limit on the page', async () => {
  world.fake.respond((r) =>
    latestTurn(r).includes('what is in this file') ? { text: 'a list of three fruits' } : { text: 'ready' },
  )
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'wait for a file',
    options: { cwd: world.claude.cwd },
  })
  const id = created.json.id
  const { page } = await pages.signedIn({ viewport: PHONE })
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
  // At 390 px, every button of the message box on the screen, its word on one line ("Attac / h" was
  // the first version of this row).
  await fitsThePhone(page, ['Attach', 'Camera', 'Record', 'Send', 'Interrupt'])
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
