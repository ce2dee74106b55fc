// `switchboard doctor` on Switchboard's hooks in Claude Code's user settings: in, down this home's
// socket; an earlier install's HTTP hooks (a token handed to whatever holds the port) and hooks to
// another home's socket named with their fix.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { addHooks, settingsFile } from './claude-settings.js'
import { checkHooks } from './doctor-checks.js'

let home: string
const saved = process.env.HOME
const socket = '/home/me/.switchboard/hub-7420.sock'

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'doctor-hooks-'))
  process.env.HOME = home
})
afterEach(() => {
  process.env.HOME = saved
  rmSync(home, { recursive: true, force: true })
})

it('passes hooks down this hub’s socket, and names another socket, HTTP hooks or none', () => {
  expect(checkHooks(socket)[0]).toMatchObject({ verdict: 'ok', fix: 'switchboard install claude --hooks' })
  addHooks(settingsFile(), { via: 'socket', curl: '/usr/bin/curl', socketPath: socket, waitSeconds: 300 })
  expect(checkHooks(socket)[0]).toMatchObject({
    verdict: 'ok',
    detail: expect.stringContaining(`to the hub's socket ${socket} (9 events)`),
  })
  expect(checkHooks('/other/hub-7999.sock')[0]).toMatchObject({
    verdict: 'problem',
    detail: expect.stringContaining(`they post to ${socket}, not this hub's socket (/other/hub-7999.sock)`),
  })
  addHooks(settingsFile(), { via: 'command', waitSeconds: 300 })
  expect(checkHooks(socket)[0]).toMatchObject({
    verdict: 'ok',
    detail: expect.stringContaining('as `switchboard hook <Event>` commands'),
  })
})

it('calls an earlier install’s HTTP hooks a problem: they trust whatever holds the port', () => {
  const file = settingsFile()
  mkdirSync(dirname(file), { recursive: true })
  const http = (event: string) => ({
    hooks: [
      {
        type: 'http',
        url: `http://127.0.0.1:7420/api/claude-hooks/${event}`,
        headers: { authorization: 'Bearer sbh_x', 'x-switchboard-timeout': '10' },
      },
    ],
  })
  writeFileSync(
    file,
    JSON.stringify({ hooks: { Stop: [http('Stop')], Notification: [http('Notification')] } }),
  )
  expect(checkHooks(socket)[0]).toMatchObject({
    verdict: 'problem',
    detail: expect.stringContaining("an earlier install's HTTP hooks"),
    fix: 'switchboard install claude --hooks',
  })
})
