// What a channel does each time it finds no hub: start one (not too often), or say once why not.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { type HubConfig, loadConfig, paths } from '../core/config.js'
import {
  clearStopped,
  hubStarter,
  markStopped,
  rotateHubLog,
  START_AGAIN,
  stopMarker,
  stoppedAtTerminal,
} from './autostart.js'

function world(start?: () => number) {
  const home = mkdtempSync(join(tmpdir(), 'sb-autostart-'))
  const config: HubConfig = loadConfig({ home, port: '7420' })
  const said: { level: string; msg: string }[] = []
  const log = pino(
    { level: 'info', formatters: { level: (label) => ({ level: label }) } },
    { write: (line: string) => said.push(JSON.parse(line) as { level: string; msg: string }) },
  )
  let clock = 1_000_000
  let starts = 0
  const missing = hubStarter(config, log, { start: start ?? (() => ++starts), now: () => clock })
  return {
    home,
    missing,
    said,
    starts: () => starts,
    later: (ms: number) => {
      clock += ms
    },
  }
}

describe('starting a hub when none answers', () => {
  it('starts one, and no second while the first may still be coming up', () => {
    const w = world()
    w.missing()
    expect(w.starts()).toBe(1)
    expect(w.said).toEqual([
      expect.objectContaining({ level: 'info', msg: 'no hub answered; started one', pid: 1 }),
    ])
    w.later(2_999)
    w.missing()
    expect(w.starts()).toBe(1)
    w.later(1)
    w.missing()
    expect(w.starts()).toBe(2)
  })

  it('starts none for a hub stopped with switchboard stop, says so once, and starts again once it may', () => {
    const w = world()
    markStopped(w.home)
    for (let i = 0; i < 5; i++) {
      w.missing()
      w.later(10_000)
    }
    expect(w.starts()).toBe(0)
    expect(w.said).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: `the hub of ${w.home} was stopped with switchboard stop; waiting for it (${START_AGAIN})`,
      }),
    ])
    clearStopped(w.home)
    w.missing()
    expect(w.starts()).toBe(1)
  })

  it('says how the hub was stopped: at its terminal, or with switchboard stop (also an older marker)', () => {
    const w = world()
    markStopped(w.home, stoppedAtTerminal('SIGINT'))
    w.missing()
    writeFileSync(stopMarker(w.home), '2025-01-01T00:00:00.000Z\n')
    w.later(10_000)
    w.missing()
    expect(w.starts()).toBe(0)
    expect(w.said.map((s) => s.msg)).toEqual([
      `the hub of ${w.home} was stopped with Ctrl-C at its terminal; waiting for it (${START_AGAIN})`,
      `the hub of ${w.home} was stopped with switchboard stop; waiting for it (${START_AGAIN})`,
    ])
  })

  it('does not make a removed home again, and says both reasons when a stopped hub’s home then goes', () => {
    const w = world()
    markStopped(w.home)
    w.missing()
    rmSync(w.home, { recursive: true })
    w.missing()
    w.missing()
    expect(w.starts()).toBe(0)
    expect(existsSync(w.home)).toBe(false)
    expect(w.said.map((s) => s.msg)).toEqual([
      expect.stringContaining('was stopped with switchboard stop'),
      `${w.home} is gone; not starting a hub there`,
    ])
  })

  it('says so, and lets its channel go on, when no hub can be spawned', () => {
    const w = world(() => {
      throw new Error(`ENOENT: no such file or directory, open '/gone/logs/hub.log'`)
    })
    expect(() => w.missing()).not.toThrow()
    expect(w.said).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'no hub answered, and none could be started',
        err: expect.stringContaining('ENOENT'),
      }),
    ])
  })
})

describe("the hub's log", () => {
  const logOf = (home: string) => {
    const file = paths.hubLog(home)
    mkdirSync(join(home, 'logs'), { recursive: true })
    return file
  }

  it('keeps a small log where it is', () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-log-'))
    const file = logOf(home)
    writeFileSync(file, 'yesterday\n')
    expect(rotateHubLog(home)).toBe(file)
    expect(readFileSync(file, 'utf8')).toBe('yesterday\n')
    expect(existsSync(`${file}.1`)).toBe(false)
  })

  it('moves a log past 10 MB aside when the next hub starts, keeping one older generation', () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-log-'))
    const file = logOf(home)
    writeFileSync(`${file}.1`, 'the oldest\n')
    writeFileSync(file, 'last week\n')
    truncateSync(file, 10 * 1024 * 1024 + 1)
    expect(rotateHubLog(home)).toBe(file)
    expect(existsSync(file)).toBe(false)
    expect(readFileSync(`${file}.1`, 'utf8').startsWith('last week\n')).toBe(true)
  })

  it('has nothing to move before the first hub', () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-log-'))
    expect(rotateHubLog(home)).toBe(paths.hubLog(home))
  })
})
