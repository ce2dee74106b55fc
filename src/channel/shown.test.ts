import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ShownLog } from './shown.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function file(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-shown-'))
  dirs.push(dir)
  return join(dir, 'channels', 'work.shown')
}

describe('the shown log', () => {
  it('tells a successor what its predecessor showed', () => {
    const path = file()
    const first = ShownLog.open(path)
    first.record('ev_1')
    first.record('ev_2')
    // No close: the predecessor was killed.
    const second = ShownLog.open(path)
    expect(second.has('ev_1')).toBe(true)
    expect(second.has('ev_2')).toBe(true)
    expect(second.has('ev_3')).toBe(false)
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })

  it('stays bounded, keeping the newest ids', () => {
    const path = file()
    const log = ShownLog.open(path)
    for (let i = 0; i < 20_000; i++) log.record(`ev_${i}`)
    log.close()
    const lines = readFileSync(path, 'utf8').trim().split('\n')
    expect(lines.length).toBeLessThanOrEqual(2 * 4_096)
    const again = ShownLog.open(path)
    expect(again.has('ev_19999')).toBe(true)
    expect(again.has('ev_0')).toBe(false)
  })

  it('writes nothing once closed: a delivery finishing as the channel ends cannot reach a reused fd', () => {
    const path = file()
    const log = ShownLog.open(path)
    log.record('ev_1')
    log.close()
    expect(() => log.record('ev_2')).not.toThrow()
    log.close()
    expect(readFileSync(path, 'utf8')).toBe('ev_1\n')
  })
})
