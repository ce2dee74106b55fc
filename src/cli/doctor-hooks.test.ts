// `switchboard doctor` on Switchboard's hooks in Claude Code's user settings: in, to this hub, with
// this home's hook token; each way of being wrong named with its fix.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { HubConfig } from '../core/config.js'
import { addHooks, settingsFile } from './claude-settings.js'
import { checkHooks } from './doctor-checks.js'

let home: string
const saved = process.env.HOME
const config = { home: '/nowhere' } as HubConfig
const hub = 'http://127.0.0.1:7420'

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'doctor-hooks-'))
  process.env.HOME = home
})
afterEach(() => {
  process.env.HOME = saved
  rmSync(home, { recursive: true, force: true })
})

it('passes hooks to this hub with its token, and names another hub, another token or none', () => {
  expect(checkHooks(config, hub, null)[0]).toMatchObject({
    verdict: 'ok',
    fix: 'switchboard install claude --hooks',
  })
  addHooks(settingsFile(), { hubUrl: hub, token: 'sbh_a', waitSeconds: 300 })
  expect(checkHooks(config, hub, 'sbh_a')[0]).toMatchObject({ verdict: 'ok' })
  expect(checkHooks(config, 'http://127.0.0.1:7999', 'sbh_a')[0]).toMatchObject({
    verdict: 'problem',
    detail: expect.stringContaining(`they call ${hub}, not this hub (http://127.0.0.1:7999)`),
  })
  expect(checkHooks(config, hub, 'sbh_b')[0]).toMatchObject({
    verdict: 'problem',
    detail: expect.stringContaining('their token is not'),
  })
})
