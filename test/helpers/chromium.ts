// Debian's Chromium driven by playwright-core, launched the one way that works on these machines
// (headless, no sandbox as root, none of the background traffic a closed network refuses).
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { startsProcesses } from './fast-loop.js'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * A microphone for a page that records: Chromium's fake device (a tone, not words) and its consent
 * given without asking. The words are the fake transcription server's.
 */
export const FAKE_MICROPHONE = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']

/** `args`: more of Chromium's flags (FAKE_MICROPHONE). */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  startsProcesses('Chromium')
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (.ci/run does)`)
  return chromium.launch({
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
      ...args,
    ],
  })
}
