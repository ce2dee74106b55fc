// A routine's schedule on a fake clock: it fires once at the minute it names, in its time zone, however
// many ticks see that minute; a minute missed while no hub held it runs once or is let go, by policy.
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import { type RoutineSpec, routineSpecSchema } from '../../core/routines.js'
import { Routines } from './routines.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

let clock = 0
const at = (iso: string) => {
  clock = Date.parse(iso)
}

async function scheduled(missed: 'skip' | 'once'): Promise<{ routines: Routines; spec: RoutineSpec }> {
  world = sessionWorld()
  const spec = routineSpecSchema.parse({
    name: 'triage',
    // 08:30 on weekdays, Berlin time: 07:30 UTC in winter.
    trigger: { kind: 'schedule', cron: '30 8 * * 1-5', timeZone: 'Europe/Berlin', missed },
    action: { kind: 'start', folder: world.dir, prompt: 'triage' },
  })
  await world.store.addRoutine({ name: spec.name, spec })
  const routines = new Routines(world.hub, world.sessions, pino({ level: 'silent' }), {
    worktrees: world.dir,
    overallCap: () => 4,
    hasGitHubToken: () => false,
    now: () => clock,
  })
  return { routines, spec }
}

const runs = () => world.store.routineRuns({ routine: 'triage', limit: 10 })

describe('a scheduled routine', () => {
  it('fires once at the minute it names in its time zone, whatever the ticks', async () => {
    const { routines, spec } = await scheduled('skip')
    at('2030-01-07T07:29:59Z') // Monday 08:29:59 in Berlin
    await routines.scheduleTick(spec)
    expect(await runs()).toEqual([])
    at('2030-01-07T07:30:05Z')
    await routines.scheduleTick(spec)
    at('2030-01-07T07:30:55Z')
    await routines.scheduleTick(spec)
    const [run, ...more] = await runs()
    expect(more).toEqual([])
    expect(run).toMatchObject({ trigger: 'schedule', state: 'pending', events: 1 })
    const [event] = await world.store.runEvents(run?.id ?? '')
    expect(event?.event.meta).toEqual({ scheduled_at: '2030-01-07T07:30:00.000Z' })
    at('2030-01-07T07:31:00Z')
    await routines.scheduleTick(spec)
    expect(await runs()).toHaveLength(1)
  })

  it('runs once for the minutes missed while no hub held it, with missed: once', async () => {
    const { routines, spec } = await scheduled('once')
    at('2030-01-07T07:30:00Z')
    await routines.scheduleTick(spec)
    await world.store.moveRoutineRun((await runs())[0]?.id ?? '', ['pending'], 'done', { endedAt: clock })
    // Down from Monday until Wednesday 10:00: Tuesday's and Wednesday's 08:30 were missed.
    at('2030-01-09T09:00:00Z')
    await routines.catchUp(spec)
    await routines.catchUp(spec)
    const [missed, first] = await runs()
    expect(first?.state).toBe('done')
    const [event] = await world.store.runEvents(missed?.id ?? '')
    expect(event?.event.meta).toEqual({ scheduled_at: '2030-01-09T07:30:00.000Z' })
    expect(await runs()).toHaveLength(2)
  })

  it('lets the missed minutes go with missed: skip', async () => {
    const { routines, spec } = await scheduled('skip')
    at('2030-01-09T09:00:00Z')
    await routines.catchUp(spec)
    expect(await runs()).toEqual([])
  })
})
