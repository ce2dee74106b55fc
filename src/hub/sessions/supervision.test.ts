// Supervision: a session's CLI is started, ended on request, and whatever way it ends, the session
// says so in words a person can act on; the next message resumes it.
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../../../test/helpers/home.js'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import { exitOutcome } from './supervision.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

const ended = (id: string) => world.until(id, (v) => !v.live, 'the CLI to end')

describe('a CLI that ends by itself', () => {
  it('after a whole turn leaves its session completed', async () => {
    world = sessionWorld({ turns: [{ steps: [{ say: 'bye' }, { result: {} }, { exit: 0 }] }] })
    const { id } = await world.sessions.create('say bye', { cwd: world.dir })
    expect(await ended(id)).toMatchObject({ status: 'completed', reason: null, lastResult: 'bye' })
  })

  it('cleanly in the middle of a turn is an error that says so', async () => {
    world = sessionWorld({ turns: [{ steps: [{ say: 'half' }, { exit: 0 }] }] })
    const { id } = await world.sessions.create('start', { cwd: world.dir })
    expect(await ended(id)).toMatchObject({
      status: 'error',
      reason: 'the CLI ended in the middle of a turn',
    })
  })

  it('with a failure gives its code and its last words on stderr', async () => {
    world = sessionWorld({
      turns: [{ steps: [{ stderr: 'loading' }, { stderr: 'fatal: out of credits' }, { exit: 3 }] }],
    })
    const { id } = await world.sessions.create('start', { cwd: world.dir })
    expect(await ended(id)).toMatchObject({
      status: 'error',
      reason: 'the CLI exited with code 3: fatal: out of credits',
    })
  })

  it('killed gives the signal', async () => {
    world = sessionWorld({ turns: [{ steps: [{ kill: 'SIGKILL' }] }] })
    const { id } = await world.sessions.create('start', { cwd: world.dir })
    expect(await ended(id)).toMatchObject({ status: 'error', reason: 'the CLI exited with signal SIGKILL' })
    expect(world.sessions.liveCount()).toBe(0)
  })
})

describe('a CLI the hub ends', () => {
  it('on request leaves the session stopped with the reason, and the next message resumes it', async () => {
    world = sessionWorld({ sessionId: '0b7c3f3e-6a55-4f7e-a1b9-2d2c4c9f1a01' })
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    expect(await world.sessions.stop(id, 'done for today')).toMatchObject({
      status: 'stopped',
      reason: 'done for today',
      live: false,
    })
    await world.sessions.send(id, 'again')
    expect(await world.until(id, (v) => v.status === 'idle', 'the resumed turn')).toMatchObject({
      live: true,
      turns: 2,
      claudeSessionId: '0b7c3f3e-6a55-4f7e-a1b9-2d2c4c9f1a01',
    })
    const [first, second] = world.fake.runs()
    expect(first).not.toContain('--resume')
    expect(second?.join(' ')).toContain('--resume 0b7c3f3e-6a55-4f7e-a1b9-2d2c4c9f1a01')
  })

  it('forked on resume starts a Claude session of its own', async () => {
    world = sessionWorld({ sessionId: '0b7c3f3e-6a55-4f7e-a1b9-2d2c4c9f1a02' })
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await world.sessions.stop(id)
    await world.sessions.send(id, 'branch off', { fork: true })
    const forked = await world.until(
      id,
      (v) => v.status === 'idle' && v.claudeSessionId !== '0b7c3f3e-6a55-4f7e-a1b9-2d2c4c9f1a02',
      'the forked turn',
    )
    expect(forked.claudeSessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(world.fake.runs()[1]).toEqual(expect.arrayContaining(['--resume', '--fork-session']))
  })

  it('when the hub stops ends every CLI, saying the next message resumes it', async () => {
    world = sessionWorld()
    const a = await world.sessions.create('one', { cwd: world.dir })
    const b = await world.sessions.create('two', { cwd: world.dir })
    await world.sessions.stopAll()
    for (const { id } of [a, b])
      expect(await ended(id)).toMatchObject({
        status: 'stopped',
        reason: 'the hub stopped; the next message resumes it',
      })
  })

  it('resumes a stopped session to wait, idle, for its next message', async () => {
    world = sessionWorld()
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await world.sessions.stop(id)
    expect(await world.sessions.resume(id)).toMatchObject({ status: 'idle', live: true, reason: null })
    // A second resume finds it running and changes nothing.
    expect(await world.sessions.resume(id)).toMatchObject({ status: 'idle', live: true })
    await waitFor(() => world.fake.runs().length === 2, 10_000, 'the resumed CLI')
    expect(world.fake.runs()[1]).toContain('--resume')
  })
})

describe('what an end means', () => {
  const end = { code: 0, signal: null, stopping: null, status: 'idle' as const, lastWords: undefined }
  it('is the hub’s reason when the hub ended it, however it exited', () => {
    expect(exitOutcome({ ...end, code: null, signal: 'SIGKILL', stopping: 'idle too long' })).toEqual({
      status: 'stopped',
      reason: 'idle too long',
    })
  })
  it('is completed for a clean exit between turns, an error mid-turn or on a failure', () => {
    expect(exitOutcome(end)).toEqual({ status: 'completed', reason: null })
    expect(exitOutcome({ ...end, status: 'waiting_for_input' })).toEqual({
      status: 'error',
      reason: 'the CLI ended in the middle of a turn',
    })
    expect(exitOutcome({ ...end, code: 1 })).toEqual({
      status: 'error',
      reason: 'the CLI exited with code 1',
    })
  })
})
