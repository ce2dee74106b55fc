// The idle policy: a CLI that sits idle past its minutes is stopped, and only one that is idle; the
// session stays, and its next message resumes it.
import { afterEach, describe, expect, it } from 'vitest'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import { IdlePolicy, type Schedule } from './idle-policy.js'

/** A clock the test turns: what is scheduled runs when the test says. */
function manualClock() {
  const due = new Map<number, { ms: number; fire: () => void }>()
  let next = 0
  const schedule: Schedule = (ms, fire) => {
    const key = next++
    due.set(key, { ms, fire })
    return () => due.delete(key)
  }
  return {
    schedule,
    waiting: () => [...due.values()].map((d) => d.ms),
    runOut: () => {
      const all = [...due.values()]
      due.clear()
      for (const d of all) d.fire()
    },
  }
}

describe('the idle clock', () => {
  it('starts when the CLI goes idle, and stops it with the reason when it runs out', () => {
    const clock = manualClock()
    const policy = new IdlePolicy(15, clock.schedule)
    const stopped: string[] = []
    policy.idle({}, (reason) => stopped.push(reason))
    expect(clock.waiting()).toEqual([15 * 60_000])
    clock.runOut()
    expect(stopped).toEqual(['stopped after 15 minutes idle; the next message resumes it'])
  })

  it('stops when work comes, and starts over when the CLI is idle again', () => {
    const clock = manualClock()
    const policy = new IdlePolicy(15, clock.schedule)
    const cli = {}
    const stopped: string[] = []
    policy.idle(cli, (reason) => stopped.push(reason))
    policy.busy(cli)
    expect(clock.waiting()).toEqual([])
    policy.idle(cli, (reason) => stopped.push(reason))
    policy.idle(cli, (reason) => stopped.push(reason))
    expect(clock.waiting()).toHaveLength(1)
    clock.runOut()
    expect(stopped).toHaveLength(1)
  })

  it('keeps one clock per CLI', () => {
    const clock = manualClock()
    const policy = new IdlePolicy(1, clock.schedule)
    const stopped: string[] = []
    const [a, b] = [{}, {}]
    policy.idle(a, () => stopped.push('a'))
    policy.idle(b, () => stopped.push('b'))
    policy.busy(a)
    clock.runOut()
    expect(stopped).toEqual(['b'])
  })

  it('never starts with no minutes set', () => {
    const clock = manualClock()
    new IdlePolicy(0, clock.schedule).idle({}, () => {})
    expect(clock.waiting()).toEqual([])
  })
})

describe('a driven session left idle', () => {
  let world: SessionWorld
  afterEach(async () => {
    await world.close()
  })

  it('is stopped after its minutes, saying so, and its next message resumes it', async () => {
    // 6 ms: the test waits for the stop, never for a time.
    world = sessionWorld({}, { idleMinutes: 0.0001 })
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    expect(await world.until(id, (v) => v.status === 'stopped', 'the idle stop')).toMatchObject({
      live: false,
      reason: 'stopped after 0.0001 minutes idle; the next message resumes it',
    })
    await world.sessions.send(id, 'again')
    await world.until(id, (v) => v.turns === 2, 'the resumed turn')
    expect(world.fake.runs()[1]).toContain('--resume')
  })
})
