import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { botLockFolder, botLockPath, takeBot } from './bot-lock.js'

const token = `test-${process.pid}-${Math.random()}`
const releases: (() => void)[] = []
const userHome = mkdtempSync(join(tmpdir(), 'switchboard-user-home-'))
const folder = botLockFolder(userHome)
afterEach(() => {
  for (const release of releases.splice(0)) release()
})
afterAll(() => rmSync(userHome, { recursive: true, force: true }))

describe('takeBot', () => {
  it('gives a bot to one hub at a time, and back when released', () => {
    const first = takeBot('telegram', token, '/home/a', folder)
    expect(first.ok).toBe(true)
    if (first.ok) releases.push(first.release)
    const second = takeBot('telegram', token, '/home/b', folder)
    expect(second).toEqual({ ok: false, message: expect.stringContaining('served by another hub already') })
    const discord = takeBot('discord', token, '/home/b', folder) // another platform, another bot
    expect(discord.ok).toBe(true)
    if (discord.ok) releases.push(discord.release)
    if (first.ok) first.release()
    const third = takeBot('telegram', token, '/home/b', folder)
    expect(third.ok).toBe(true)
    if (third.ok) releases.push(third.release)
  })

  it('breaks a lock left by a hub that died', () => {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    writeFileSync(
      botLockPath('slack', token, folder),
      JSON.stringify({ pid: 2 ** 22 + 1, home: '/gone', holder: 'x' }),
    )
    const taken = takeBot('slack', token, '/home/a', folder)
    expect(taken.ok).toBe(true)
    if (taken.ok) releases.push(taken.release)
  })

  it('keeps its locks in a folder of the user’s home that only they may write to', () => {
    expect(botLockFolder()).not.toContain(tmpdir())
    const taken = takeBot('discord', `${token}-own`, '/home/a', folder)
    expect(taken.ok).toBe(true)
    if (taken.ok) releases.push(taken.release)
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(statSync(folder).uid).toBe(process.getuid?.())
  })

  it('refuses a lock folder others may write to', () => {
    const loose = botLockFolder(mkdtempSync(join(tmpdir(), 'switchboard-user-home-')))
    mkdirSync(loose, { recursive: true })
    chmodSync(loose, 0o777)
    try {
      expect(takeBot('telegram', token, '/home/a', loose)).toEqual({
        ok: false,
        message: expect.stringContaining(`others may write to ${loose}`),
      })
    } finally {
      rmSync(join(loose, '..', '..'), { recursive: true, force: true })
    }
  })
})
