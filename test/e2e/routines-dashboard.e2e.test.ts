// The Routines page in real headless Chromium, against a hub driving the real Claude Code CLI on the
// fake Messages API: a routine added at the terminal shows with its trigger, a run fired by hand shows
// with its session and outcome, and an operator pauses and fires the routine from the page; and the
// page fits a phone and a laptop.

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { RoutineRun, RoutineView } from '../../src/core/routines.js'
import { dashboardPages, PHONE } from '../helpers/dashboard-page.js'
import { addRoutine, adminCall, drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { runCli, waitFor } from '../helpers/home.js'

const world = e2eWorld()
const pages = dashboardPages(world)

const runsOf = async (name: string) =>
  (await adminCall<{ runs: RoutineRun[] }>(world, 'GET', `/api/routines/${name}/runs`)).json.runs

it('shows a routine added at the terminal and its run, and pauses and fires it from the page', {
  timeout: 120_000,
}, async () => {
  await startDrivingHub(world)
  const env = drivingEnv(world)
  expect(
    (
      await addRoutine(world, {
        name: 'triage',
        trigger: { kind: 'manual' },
        action: { kind: 'start', folder: world.claude.cwd, prompt: 'Triage the new issues.', maxTurns: 1 },
      })
    ).code,
  ).toBe(0)
  world.fake.respond(() => ({ text: 'nothing new today' }))

  const page = (await pages.signedIn()).page
  await page.getByRole('link', { name: 'Routines' }).click()
  const card = page.getByRole('article', { name: 'triage' })
  await card.getByText('by hand').waitFor()
  await card.getByText('No runs yet.').waitFor()

  expect((await runCli(['routine', 'fire', 'triage'], env)).code).toBe(0)
  await waitFor(async () => (await runsOf('triage'))[0]?.state === 'done', 60_000, 'the run to be done')
  const [run] = await runsOf('triage')
  const row = card.getByRole('row', { name: `Run ${run?.id}` })
  await row.getByText('nothing new today').waitFor({ timeout: 15_000 })
  await expect(row.getByRole('link', { name: run?.sessionId ?? '' }).getAttribute('href')).resolves.toBe(
    `#/sessions/${run?.sessionId}`,
  )
  expect(await row.getByText('manual').count()).toBe(1)

  await card.getByRole('button', { name: 'Pause triage' }).click()
  await card.getByText('paused', { exact: true }).waitFor()
  await card.getByRole('button', { name: 'Resume triage' }).waitFor()
  const paused = await adminCall<RoutineView>(world, 'GET', '/api/routines/triage')
  expect(paused.json.paused).toBe(true)

  // Fired from the page while paused: the run waits, open, until the routine is resumed.
  await card.getByRole('button', { name: 'Fire triage' }).click()
  await waitFor(async () => (await runsOf('triage')).length === 2, 15_000, 'a second run')
  await card.getByRole('button', { name: 'Resume triage' }).click()
  await card.getByRole('button', { name: 'Pause triage' }).waitFor()
  await waitFor(
    async () => (await runsOf('triage')).every((r) => r.state === 'done'),
    60_000,
    'the run fired from the page to be done',
  )
})

it('fits a phone: the Routines page with a run is no wider than a 390 px screen', {
  timeout: 120_000,
}, async () => {
  await startDrivingHub(world)
  const env = drivingEnv(world)
  expect(
    (
      await addRoutine(world, {
        name: 'nightly-dependency-triage-for-the-webshop',
        trigger: { kind: 'schedule', cron: '30 6 * * 1-5', timeZone: 'Europe/Berlin' },
        key: '{{meta.minute}}',
        action: {
          kind: 'start',
          folder: world.claude.cwd,
          prompt: 'Look at the dependency updates opened overnight and say which are safe to merge.',
          maxTurns: 1,
        },
      })
    ).code,
  ).toBe(0)
  world.fake.respond(() => ({
    text: 'three updates are safe: lodash-es 4.17.22, vite 8.3.9 and zod 4.1.13; hold back react-router',
  }))
  expect((await runCli(['routine', 'fire', 'nightly-dependency-triage-for-the-webshop'], env)).code).toBe(0)
  await waitFor(
    async () => (await runsOf('nightly-dependency-triage-for-the-webshop'))[0]?.state === 'done',
    60_000,
    'the run to be done',
  )

  const page = (await pages.signedIn({ viewport: PHONE })).page
  await page.getByRole('link', { name: 'Routines' }).click()
  const card = page.getByRole('article', { name: 'nightly-dependency-triage-for-the-webshop' })
  await card.getByText('hold back react-router', { exact: false }).waitFor({ timeout: 15_000 })
  const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number
  expect(wide).toBeLessThanOrEqual(390)
  // Its buttons are on the screen, to be tapped.
  const fire = await card.getByRole('button', { name: /^Fire / }).boundingBox()
  expect(fire && fire.x + fire.width).toBeLessThanOrEqual(390)
})

it('fits a laptop: at 1366 px every run’s row stays inside its routine’s card, long key and outcome too', {
  timeout: 120_000,
}, async () => {
  await startDrivingHub(world)
  const env = drivingEnv(world)
  const name = 'dependency-updates'
  expect(
    (
      await addRoutine(world, {
        name,
        trigger: { kind: 'manual' },
        key: '{{meta.branch}}',
        action: { kind: 'start', folder: world.claude.cwd, prompt: 'Review {{meta.branch}}.', maxTurns: 1 },
      })
    ).code,
  ).toBe(0)
  world.fake.respond(() => ({
    text: 'merged: https://github.com/acme/webshop/pull/4711/files#diff-8e0f2c4f5b1d0a9e7c6b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0',
  }))
  const event = join(world.home.dir, 'event.json')
  writeFileSync(
    event,
    JSON.stringify({
      meta: { branch: 'dependabot/npm_and_yarn/packages/webshop-frontend/vite-and-vitest-8.3.9' },
    }),
  )
  expect((await runCli(['routine', 'fire', name, '--event', event], env)).code).toBe(0)
  await waitFor(async () => (await runsOf(name))[0]?.state === 'done', 60_000, 'the run to be done')

  const width = 1366
  const page = (await pages.signedIn({ viewport: { width, height: 768 } })).page
  await page.getByRole('link', { name: 'Routines' }).click()
  const card = page.getByRole('article', { name })
  await card.getByText('merged:', { exact: false }).waitFor({ timeout: 15_000 })
  expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(width)
  // Inside the card's padding, as its other contents are.
  const inside = await card.evaluate((el) => {
    const padding = el.ownerDocument.defaultView?.getComputedStyle(el).paddingRight ?? '0'
    return el.getBoundingClientRect().right - Number.parseFloat(padding)
  })
  const table = await card.getByRole('table').boundingBox()
  expect(table && table.x + table.width).toBeLessThanOrEqual(inside + 0.5)
  const replay = await card.getByRole('button', { name: /^Replay run / }).boundingBox()
  expect(replay && replay.x + replay.width).toBeLessThanOrEqual(inside + 0.5)
})
