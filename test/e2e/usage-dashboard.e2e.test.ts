// The Usage page in real headless Chromium: today's costs by project as a chart a screen reader can
// read (and as a table), fitting a phone at 390 px without sideways scrolling, and a desktop;
// screenshots of both go to test-results/screenshots.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { UsageEntry } from '../../src/core/usage.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { dashboardPages, SHOTS } from '../helpers/dashboard-page.js'
import { e2eWorld, startDrivingHub } from '../helpers/e2e.js'

const world = e2eWorld()
const pages = dashboardPages(world)

const turn = (extra: Partial<UsageEntry>): UsageEntry => ({
  sessionId: 'ses_a',
  at: Date.now(),
  project: 'api',
  agent: 'claude',
  routine: null,
  operator: 'cli',
  costUsd: 2.5,
  inputTokens: 1_000,
  outputTokens: 100,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  ...extra,
})

it('shows today’s costs by project as a chart that reads at 390 px and on a desktop', {
  timeout: 90_000,
}, async () => {
  await startDrivingHub(world)
  // Turns as the hub records them, written beside the running hub into its database.
  const store = openSqliteStore(join(world.home.dir, 'switchboard.db'))
  await store.recordUsage(turn({}))
  await store.recordUsage(
    turn({ sessionId: 'ses_b', project: 'a-project-with-a-rather-long-name', costUsd: 0.75 }),
  )
  await store.recordUsage(turn({ sessionId: 'ses_c', project: 'web', agent: 'codex', costUsd: null }))
  await store.close()

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const page = (await pages.signedIn({ viewport })).page
    await page.getByRole('link', { name: 'Usage' }).click()
    const chart = page.getByRole('img', { name: /Today’s cost by project/ })
    await chart.waitFor()
    expect(await chart.getAttribute('aria-labelledby')).toBe('usage-chart-title')
    await expect(page.locator('#usage-chart-title').textContent()).resolves.toBe(
      'Today’s cost by project: api $2.50, a-project-with-a-rather-long-name $0.75, web $0.00 + 1 unpriced',
    )
    await page.getByRole('row', { name: 'Project web' }).getByText('$0.00 + 1 unpriced').waitFor()
    await page.getByText('$3.25 in all').waitFor()
    // The dearest project's bar is the longest, and each name is there to read.
    const widths = await page
      .locator('.usage-bar')
      .evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width))
    expect(widths[0]).toBeGreaterThan(widths[1] as number)
    expect(widths[1]).toBeGreaterThan(0)
    await page.getByText('a-project-with-a-rather-long-name', { exact: true }).first().waitFor()
    // Within the page at either size: nothing scrolls sideways, and the chart stays in the viewport.
    const box = await chart.boundingBox()
    expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(viewport.width)
    const label = await page.locator('.usage-value').nth(1).boundingBox()
    expect((label?.x ?? 0) + (label?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(viewport.width)
    const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number
    expect(wide).toBeLessThanOrEqual(viewport.width)
    await page.screenshot({ path: join(SHOTS, `usage-${viewport.width}.png`) })
  }
})
