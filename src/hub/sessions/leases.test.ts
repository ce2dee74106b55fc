// Leases: of the hubs on one database, only the one holding a session's lease runs its CLI and feeds
// it what waits for it; the hub that takes a session over marks one whose CLI died with its hub.
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../../../test/helpers/home.js'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import { event } from '../../store/contract.js'
import { LeaseKeeper, subscriberLease } from '../core/lease-keeper.js'

let world: SessionWorld
const keepers: LeaseKeeper[] = []
afterEach(async () => {
  for (const keeper of keepers.splice(0)) await keeper.stop()
  await world.close()
})

const log = pino({ level: 'silent' })
const LEASE_MS = 60_000

/** A hub's lease keeper on the world's database, started with the world's sessions as its work. */
async function hubKeeper(hubId: string, withSessions: boolean): Promise<LeaseKeeper> {
  // The world's hub is 'hub_here'; another hub on its database is a keeper of its own.
  const keeper = withSessions
    ? world.hub.leases
    : new LeaseKeeper(world.store, hubId, log, () => null, LEASE_MS)
  keepers.push(keeper)
  if (withSessions) keeper.source(world.sessions.work())
  await keeper.start()
  return keeper
}

describe('a session another hub holds', () => {
  it('is a conflict to resume here, and no CLI starts', async () => {
    world = sessionWorld()
    await hubKeeper('hub_here', true)
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await world.sessions.stop(id)
    // This hub lets it go, and another takes it.
    await keepers[0]?.stop()
    const there = await hubKeeper('hub_there', false)
    expect(await there.take(subscriberLease(`session:${id}`))).toBe(true)
    await expect(world.sessions.send(id, 'again')).rejects.toMatchObject({
      kind: 'conflict',
      message: `session ${id} runs on another hub; ask that hub`,
    })
    expect(world.fake.runs()).toHaveLength(1)
  })
})

describe('the hub holding a session', () => {
  it('writes an event on its topics into it as a <channel> message', async () => {
    world = sessionWorld()
    await hubKeeper('hub_here', true)
    const { id } = await world.sessions.create('watch ci', { cwd: world.dir }, { topics: ['ci'] })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await world.hub.publish(event('ci', 'build 42 failed', { source: 'ci' }))
    await world.until(id, (v) => v.status === 'idle' && v.turns === 2, 'the event’s turn')
    const prompts = world.fake
      .got()
      .filter((l) => l.type === 'user')
      .map((l) => (l.message as { content: string }).content)
    expect(prompts[1]).toMatch(/\n<channel source="switchboard"[^>]*>\nbuild 42 failed\n<\/channel>$/)
  })

  it('marks a session whose CLI died with its hub stopped, saying the next message resumes it', async () => {
    world = sessionWorld()
    const { id } = await world.sessions.create('hello', { cwd: world.dir }, { topics: ['ci'] })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await world.sessions.stop(id)
    // As a hub killed mid-turn leaves it: running, as far as the record says.
    await world.store.updateSession(id, { status: 'running', reason: null })
    await hubKeeper('hub_here', true)
    await waitFor(async () => (await world.sessions.view(id)).status === 'stopped', 10_000, 'the mark')
    expect(await world.sessions.view(id)).toMatchObject({
      live: false,
      reason: 'its CLI ended with the hub that ran it; the next message resumes it',
    })
  })
})
