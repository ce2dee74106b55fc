// Speaking to a session from the dashboard (issue 36, voice in), in real headless Chromium at a phone's
// width with Chromium's fake microphone, against a hub driving the real Claude Code CLI on the fake
// Messages API and a fake speech-to-text server: Record, Stop, the transcript in the message box, one
// word edited, Send, and the model reads the edited words; Cancel sends nothing; without a service the
// page says so and the recording goes as a file instead.
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { latestTurn } from '../fakes/anthropic.js'
import { FakeTranscription } from '../fakes/transcription.js'
import { FAKE_MICROPHONE } from '../helpers/chromium.js'
import { dashboardPages, fitsThePhone, PHONE, SHOTS } from '../helpers/dashboard-page.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'

const world = e2eWorld()
const pages = dashboardPages(world, FAKE_MICROPHONE)
let speech: FakeTranscription

beforeAll(async () => {
  speech = await new FakeTranscription().start()
})
afterAll(async () => {
  await speech?.close()
})
beforeEach(async () => {
  await startDrivingHub(world)
})

async function sessionOnPhone(): Promise<Page> {
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'wait for words',
    options: { cwd: world.claude.cwd },
  })
  const { page } = await pages.signedIn({ viewport: PHONE })
  await page.goto(`${world.home.url}/#/sessions/${created.json.id}`)
  await page
    .getByText(/Turn finished/)
    .first()
    .waitFor({ timeout: 30_000 })
  return page
}

/** Record, a moment of the fake microphone's tone, Stop. */
async function speak(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Record', exact: true }).click()
  const stop = page.getByRole('button', { name: 'Stop', exact: true })
  await stop.waitFor()
  expect(await stop.getAttribute('aria-pressed')).toBe('true')
  await page.getByText('Recording… press Stop when you are done.').waitFor()
  // Something to record: the recorder hands over what it took when it stops.
  await page.waitForTimeout(800)
  await stop.click()
}

const message = (page: Page) => page.getByLabel('Message')

it('puts a recording’s transcript in the message box to edit, sends the edited words on Send, and nothing on Cancel', async () => {
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ transcriptionUrl: speech.url }))
  world.fake.respond((r) => {
    const turn = latestTurn(r)
    if (turn.includes('in the web folder')) return { text: 'running the web tests' }
    if (turn.includes('how far along')) return { text: 'halfway there' }
    return { text: 'ready' }
  })
  const page = await sessionOnPhone()

  speech.hears('run the tests in the api folder')
  const asked = speech.requests.length
  await speak(page)
  await expect
    .poll(() => message(page).inputValue(), { timeout: 15_000 })
    .toBe('run the tests in the api folder')
  // The recording went to the service with its bytes and a name that says its type; nothing to the model.
  expect(speech.requests.length).toBe(asked + 1)
  expect(speech.requests.at(-1)?.bytes).toBeGreaterThan(0)
  expect(speech.requests.at(-1)?.fileName).toMatch(/^recording\.(webm|ogg)$/)
  expect(world.fake.requestsMentioning('api folder')).toEqual([])
  await page.getByText('Your recording, as words: edit them, then Send, or Cancel.').waitFor()
  await fitsThePhone(page, ['Attach', 'Camera', 'Record', 'Send', 'Interrupt', 'Cancel'])
  await page.screenshot({ path: join(SHOTS, 'session-voice-phone.png') })

  // One word edited, then Send: the model reads the edited words.
  await message(page).fill('run the tests in the web folder')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await page.getByText('running the web tests').first().waitFor({ timeout: 30_000 })
  expect(world.fake.requestsMentioning('run the tests in the web folder').length).toBeGreaterThan(0)
  expect(world.fake.requestsMentioning('api folder')).toEqual([])
  expect(await message(page).inputValue()).toBe('')

  // Cancel: the words leave the box and reach no one; the next message goes alone.
  speech.hears('delete every branch')
  await speak(page)
  await expect.poll(() => message(page).inputValue(), { timeout: 15_000 }).toBe('delete every branch')
  await page.getByRole('button', { name: 'Cancel', exact: true }).click()
  expect(await message(page).inputValue()).toBe('')
  await message(page).fill('how far along are you?')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await page.getByText('halfway there').first().waitFor({ timeout: 30_000 })
  expect(world.fake.requestsMentioning('delete every branch')).toEqual([])
})

it('says when no speech-to-text service is configured, and attaches the recording as a file instead', async () => {
  rmSync(join(world.home.dir, 'config.json'), { force: true })
  world.fake.respond((r) =>
    latestTurn(r).includes('recording-') ? { text: 'an audio file arrived' } : { text: 'ready' },
  )
  const page = await sessionOnPhone()
  const asked = speech.requests.length
  await speak(page)
  await page
    .getByRole('alert')
    .getByText(
      'No speech-to-text service is configured (transcriptionUrl in config.json): the recording was not transcribed; attach it as a file instead.',
    )
    .waitFor({ timeout: 15_000 })
  expect(speech.requests.length).toBe(asked)
  await fitsThePhone(page, ['Attach recording', 'Dismiss', 'Record', 'Send'])
  await page.screenshot({ path: join(SHOTS, 'session-voice-no-service-phone.png') })
  await page.getByRole('button', { name: 'Attach recording', exact: true }).click()
  await page.getByRole('button', { name: /^Remove recording-.+\.(webm|ogg)$/ }).waitFor()
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await page.getByText('an audio file arrived').first().waitFor({ timeout: 30_000 })
  const told = JSON.stringify(world.fake.requestsMentioning('recording-').at(-1))
  expect(told).toMatch(/recording-[\d-]+\.(webm|ogg) \(audio\/(webm|ogg), \d+ bytes\)/)
})
