// The dashboard as a person opens it in the tests' Chromium: signed in with the link
// `switchboard open --print` prints, opened once in a browser context of its own that the world closes;
// and the phone-width checks the message box's tests share.
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { launchChromium } from './chromium.js'
import type { World } from './e2e.js'

/** Where the dashboard tests' screenshots go (test-results/, which CI keeps). */
export const SHOTS = resolve(import.meta.dirname, '../../test-results/screenshots')

export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

/**
 * A signed-in page in a new context (`options`: its viewport and the rest); `prepare` runs on the
 * context before the page opens (permissions, routes).
 */
async function signedInPage(
  browser: Browser,
  world: Pick<World, 'home' | 'closers'>,
  options: BrowserContextOptions = { viewport: DESKTOP },
  prepare: (context: BrowserContext) => Promise<void> = async () => {},
): Promise<{ page: Page; context: BrowserContext }> {
  // The link `switchboard open --print` prints (its tests: transcript, database-trust), from its route.
  const { url } = await world.home.api('signinLink')
  expect(url).toMatch(/^http:\/\/\S+\/signin\?token=\S+$/)
  const context = await browser.newContext(options)
  world.closers.push(() => context.close())
  await prepare(context)
  const page = await context.newPage()
  await page.goto(url)
  await page.getByRole('link', { name: /Sessions/ }).waitFor()
  return { page, context }
}

/**
 * The test file's Chromium, launched before its tests (`args`: more of its flags) and closed after
 * them, and the signed-in pages it opens for the world's hub.
 */
export function dashboardPages(world: Pick<World, 'home' | 'closers'>, args: string[] = []) {
  let browser: Browser | undefined
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    browser = await launchChromium(args)
  })
  afterAll(async () => {
    await browser?.close()
  })
  return {
    signedIn(options?: BrowserContextOptions, prepare?: (context: BrowserContext) => Promise<void>) {
      if (!browser) throw new Error('Chromium is launched before the file’s tests, not before it loads')
      return signedInPage(browser, world, options, prepare)
    },
  }
}

/** Nothing scrolls sideways at 390 px, and each named button is on the screen, its word on one line. */
export async function fitsThePhone(page: Page, names: string[]): Promise<void> {
  expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(
    PHONE.width,
  )
  for (const name of names) {
    const button = page.getByRole('button', { name, exact: true })
    const box = await button.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, name).toBe(true)
    const lines = await button.evaluate((b) => {
      const range = b.ownerDocument.createRange()
      range.selectNodeContents(b)
      return range.getClientRects().length
    })
    expect(lines, `${name} on one line`).toBe(1)
  }
}
