// History: the hub's sessions listed beside those Claude Code left on disk, and a transcript read a
// page at a time with a cursor.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

/** A transcript Claude Code left under `claudeDir`, as a session run outside the hub leaves one. */
function onDisk(claudeDir: string, sessionId: string, cwd: string, prompt: string, at: number): void {
  const folder = join(claudeDir, 'projects', cwd.replaceAll('/', '-'))
  mkdirSync(folder, { recursive: true })
  const file = join(folder, `${sessionId}.jsonl`)
  writeFileSync(
    file,
    `${JSON.stringify({ type: 'user', cwd, sessionId, message: { role: 'user', content: prompt } })}\n`,
  )
  utimesSync(file, at / 1000, at / 1000)
}

describe('the list of sessions', () => {
  it('holds the hub’s own and those found on disk, newest first, each once, one folder’s when asked', async () => {
    world = sessionWorld({ sessionId: '11111111-2222-4333-8444-555555555555' })
    const claudeDir = join(world.dir, 'claude')
    const elsewhere = join(world.dir, 'elsewhere')
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    // The hub's own session is on disk too (the real CLI writes one): it is listed once, as the hub's.
    onDisk(claudeDir, '11111111-2222-4333-8444-555555555555', world.dir, 'hello', Date.now())
    onDisk(
      claudeDir,
      'aaaaaaaa-0000-4000-8000-000000000001',
      world.dir,
      'an old one',
      Date.now() - 86_400_000,
    )
    onDisk(
      claudeDir,
      'aaaaaaaa-0000-4000-8000-000000000002',
      elsewhere,
      'another folder',
      Date.now() - 3_600_000,
    )

    const all = await world.sessions.listAll({ claudeDir })
    expect(all.map((s) => [s.id, s.managed, s.status])).toEqual([
      [id, true, 'idle'],
      ['aaaaaaaa-0000-4000-8000-000000000002', false, 'on_disk'],
      ['aaaaaaaa-0000-4000-8000-000000000001', false, 'on_disk'],
    ])
    expect(all[1]).toMatchObject({ cwd: elsewhere, summary: 'another folder', sources: ['transcript'] })
    expect(all[0]).toMatchObject({ summary: 'ok', sources: ['hub'] })

    const here = await world.sessions.listAll({ claudeDir, cwd: world.dir })
    expect(here.map((s) => s.id)).toEqual([id, 'aaaaaaaa-0000-4000-8000-000000000001'])
  })
})

describe('a transcript', () => {
  it('is read a page at a time: every line once, in order, and no next page at the end', async () => {
    world = sessionWorld()
    const { id } = await world.sessions.create('first', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await world.sessions.send(id, 'second')
    await world.until(id, (v) => v.status === 'idle' && v.turns === 2, 'the second turn')
    const whole = (await world.sessions.lines(id, 0)).lines
    expect(whole).toHaveLength(8)
    const paged: number[] = []
    let after = 0
    for (let pages = 1; ; pages++) {
      const page = await world.sessions.lines(id, after, 3)
      paged.push(...page.lines.map((l) => l.seq))
      if (page.next === null) {
        expect(pages).toBe(3)
        break
      }
      after = page.next
    }
    expect(paged).toEqual(whole.map((l) => l.seq))
  })
})
