// What a caller of the session controller is told when it cannot do what was asked: one kind per
// failure (core/errors.ts), the same whichever surface asked, so each surface maps it one way.
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../../../test/helpers/home.js'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

const idle = (id: string) => world.until(id, (v) => v.status === 'idle', 'the turn to end')

describe('a running session', () => {
  it('takes a new model and permission mode: its next turn runs with them', async () => {
    world = sessionWorld()
    const { id } = await world.sessions.create('hello', { cwd: world.dir, model: 'haiku' })
    await idle(id)
    await world.sessions.setModel(id, 'opus')
    await world.sessions.setPermissionMode(id, 'plan')
    await world.sessions.send(id, 'again')
    await world.until(id, (v) => v.status === 'idle' && v.turns === 2, 'the second turn')
    const inits = (await world.sessions.lines(id, 0)).lines
      .map(({ line }) => line)
      .filter((line) => line.subtype === 'init')
    expect(inits.map((l) => [l.model, l.permissionMode])).toEqual([
      ['haiku', 'default'],
      ['opus', 'plan'],
    ])
    expect((await world.sessions.lines(id, 0)).lines.map(({ line }) => line)).toContainEqual(
      expect.objectContaining({ type: 'system', subtype: 'status', permissionMode: 'plan' }),
    )
  })
})

describe('a session nobody knows', () => {
  it('is not_found to every call that names it', async () => {
    world = sessionWorld()
    const nope = 'ses_nope'
    const calls: [string, () => Promise<unknown>][] = [
      ['view', () => world.sessions.view(nope)],
      ['status', () => world.sessions.status(nope)],
      ['send', () => world.sessions.send(nope, 'hello')],
      ['resume', () => world.sessions.resume(nope)],
      ['interrupt', () => world.sessions.interrupt(nope)],
      ['stop', () => world.sessions.stop(nope)],
      ['setModel', () => world.sessions.setModel(nope, 'sonnet')],
      ['respond', () => world.sessions.respond(nope, 'abc', { behavior: 'allow' }, 'test')],
      ['bindIde', () => world.sessions.bindIde(nope, null)],
    ]
    for (const [name, call] of calls)
      await expect(call(), name).rejects.toMatchObject({ kind: 'not_found', message: `no session "${nope}"` })
  })
})

describe('a session whose CLI is not running', () => {
  it('is a conflict to interrupt, steer or stop, and says so', async () => {
    world = sessionWorld()
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await idle(id)
    await world.sessions.stop(id)
    const notRunning = { kind: 'conflict', message: `session ${id} is not running` }
    await expect(world.sessions.interrupt(id)).rejects.toMatchObject(notRunning)
    await expect(world.sessions.setModel(id, 'sonnet')).rejects.toMatchObject(notRunning)
    await expect(world.sessions.setPermissionMode(id, 'plan')).rejects.toMatchObject(notRunning)
    await expect(world.sessions.bindIde(id, null)).rejects.toMatchObject(notRunning)
    await expect(world.sessions.stop(id)).rejects.toMatchObject(notRunning)
  })

  it('answers an interrupt under way when it stops meanwhile, and is a conflict to interrupt after', async () => {
    world = sessionWorld({ silent: ['interrupt'], turns: [{ steps: [{ hold: true }] }] })
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    const interrupted = world.sessions.interrupt(id)
    await waitFor(() => world.fake.got().some((l) => l.type === 'control_request'), 10_000, 'the interrupt')
    await world.sessions.stop(id)
    // Nothing runs any more, so nothing is left to interrupt: the caller is not told of a failure.
    await expect(interrupted).resolves.toMatchObject({ id, live: false })
    await expect(world.sessions.interrupt(id)).rejects.toMatchObject({
      kind: 'conflict',
      message: `session ${id} is not running`,
    })
  })

  it('is a conflict to resume when it never started, with what to do instead', async () => {
    world = sessionWorld({ refuse: "error: unknown option '--fancy'" })
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    expect(await world.until(id, (v) => v.status === 'error', 'the CLI to fail')).toMatchObject({
      reason: "the CLI exited with code 1: error: unknown option '--fancy'",
    })
    await expect(world.sessions.send(id, 'again')).rejects.toMatchObject({
      kind: 'conflict',
      message: `session ${id} never started; create a new one`,
    })
  })

  it('is a conflict to resume when its stored settings were changed, and the reason is kept', async () => {
    world = sessionWorld()
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await idle(id)
    await world.sessions.stop(id)
    const record = await world.store.getSession(id)
    await world.store.updateSession(id, {
      config: { ...record?.config, setup: { transport: 'stdio', claudePath: '/bin/sh' } },
    })
    await expect(world.sessions.send(id, 'again')).rejects.toMatchObject({
      kind: 'conflict',
      message: `session ${id} cannot be resumed: its stored settings were changed outside Switchboard`,
    })
    expect(await world.sessions.view(id)).toMatchObject({
      status: 'error',
      reason: 'not resumed: its stored settings were changed outside Switchboard',
    })
    expect(world.fake.runs()).toHaveLength(1)
  })
})

describe('a CLI that is not there', () => {
  it('is unavailable, and the session keeps why', async () => {
    world = sessionWorld({}, { env: { PATH: process.env.PATH, CLAUDE_CODE_PATH: '/nowhere/claude' } })
    const created = world.sessions.create('hello', { cwd: '/tmp' })
    await expect(created).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/ENOENT/),
    })
    const [session] = await world.sessions.list()
    expect(session).toMatchObject({ status: 'error', reason: expect.stringMatching(/ENOENT/) })
  })
})

describe('an answer to a prompt', () => {
  it('is not_found when the session asks nothing by that code', async () => {
    world = sessionWorld()
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await idle(id)
    await expect(world.sessions.respond(id, 'zzzzz', { behavior: 'allow' }, 'test')).rejects.toMatchObject({
      kind: 'not_found',
      message: `no pending input "zzzzz" in session ${id}`,
    })
  })
})
