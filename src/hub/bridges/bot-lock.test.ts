import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { botLockPath, takeBot } from './bot-lock.js'

const token = `test-${process.pid}-${Math.random()}`
const releases: (() => void)[] = []
afterEach(() => {
  for (const release of releases.splice(0)) release()
})

describe('takeBot', () => {
  it('gives a bot to one hub at a time, and back when released', () => {
    const first = takeBot('telegram', token, '/home/a')
    expect(first.ok).toBe(true)
    if (first.ok) releases.push(first.release)
    const second = takeBot('telegram', token, '/home/b')
    expect(second).toEqual({ ok: false, message: expect.stringContaining('served by another hub already') })
    const discord = takeBot('discord', token, '/home/b') // another platform, another bot
    expect(discord.ok).toBe(true)
    if (discord.ok) releases.push(discord.release)
    if (first.ok) first.release()
    const third = takeBot('telegram', token, '/home/b')
    expect(third.ok).toBe(true)
    if (third.ok) releases.push(third.release)
  })

  it('breaks a lock left by a hub that died', () => {
    writeFileSync(
      botLockPath('slack', token),
      JSON.stringify({ pid: 2 ** 22 + 1, home: '/gone', holder: 'x' }),
    )
    const taken = takeBot('slack', token, '/home/a')
    expect(taken.ok).toBe(true)
    if (taken.ok) releases.push(taken.release)
  })
})
