// Recording: what a session's CLI says is kept in order with the prompts it was given, its status
// and totals follow its turns, and listeners hear each session's lines, text and status on feeds of
// their own.
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../../../test/helpers/home.js'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import type { PartialPiece } from '../../core/api/rows.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

const idle = (id: string) => world.until(id, (v) => v.status === 'idle', 'the turn to end')
const storedTypes = async (id: string) =>
  (await world.sessions.lines(id, 0)).lines.map(
    ({ line }) => `${line.type}${line.subtype ? `/${line.subtype}` : ''}`,
  )

describe('a session’s transcript', () => {
  it('keeps the prompt, then every line in the order the CLI printed it, and names the Claude session', async () => {
    world = sessionWorld({
      sessionId: '7f1e9a52-3b1c-4a51-8a4e-0c7d5b1e2f10',
      turns: [{ steps: [{ say: 'one' }, { say: 'two' }] }],
    })
    const { id } = await world.sessions.create('count to two', { cwd: world.dir })
    expect(await idle(id)).toMatchObject({
      claudeSessionId: '7f1e9a52-3b1c-4a51-8a4e-0c7d5b1e2f10',
      lastResult: 'two',
      reason: null,
    })
    expect(await storedTypes(id)).toEqual(['user', 'system/init', 'assistant', 'assistant', 'result/success'])
    const [prompt] = (await world.sessions.lines(id, 0)).lines
    expect(prompt?.line).toMatchObject({ message: { content: 'count to two' }, origin: 'switchboard' })
  })

  it('adds up cost and turns over every turn, and keeps the last result', async () => {
    world = sessionWorld({
      turns: [{ steps: [{ say: 'done' }, { result: { total_cost_usd: 0.25, num_turns: 3 } }] }],
    })
    const { id } = await world.sessions.create('first', { cwd: world.dir })
    await idle(id)
    await world.sessions.send(id, 'second')
    expect(await world.until(id, (v) => v.turns === 6, 'the second turn')).toMatchObject({
      status: 'idle',
      costUsd: 0.5,
      lastResult: 'done',
    })
  })

  it('stores no line the CLI printed unreadably, and the rest still', async () => {
    world = sessionWorld({
      turns: [{ steps: [{ raw: 'this is not JSON' }, { raw: '{"no":"type"}' }, { say: 'fine' }] }],
    })
    const { id } = await world.sessions.create('go', { cwd: world.dir })
    await idle(id)
    expect(await storedTypes(id)).toEqual(['user', 'system/init', 'assistant', 'result/success'])
  })
})

describe('listeners', () => {
  it('of one session hear only its lines; listeners of all hear every session’s', async () => {
    world = sessionWorld()
    const a = await world.sessions.create('first', { cwd: world.dir })
    const b = await world.sessions.create('second', { cwd: world.dir })
    await idle(a.id)
    await idle(b.id)
    const countOf = async (id: string) => (await world.sessions.lines(id, 0)).lines.length
    const [aBefore, bBefore] = [await countOf(a.id), await countOf(b.id)]
    const mine: number[] = []
    const every: string[] = []
    const offMine = world.sessions.onLinesOf(a.id, (seq) => mine.push(seq))
    const offAll = world.sessions.onLine((id, seq) => every.push(`${id}:${seq}`))
    await world.sessions.send(a.id, 'again')
    await world.sessions.send(b.id, 'again')
    await world.until(a.id, (v) => v.status === 'idle' && v.turns === 2, 'a’s second turn')
    await world.until(b.id, (v) => v.status === 'idle' && v.turns === 2, 'b’s second turn')
    offMine()
    offAll()
    const since = async (id: string, from: number) =>
      (await world.sessions.lines(id, 0)).lines.slice(from).map((l) => `${id}:${l.seq}`)
    const aNew = await since(a.id, aBefore)
    const bNew = await since(b.id, bBefore)
    expect(mine.map((seq) => `${a.id}:${seq}`)).toEqual(aNew)
    expect(every.filter((e) => e.startsWith(a.id))).toEqual(aNew)
    expect(every.filter((e) => e.startsWith(b.id))).toEqual(bNew)
    expect(aNew).toHaveLength(4)
  })

  it('hear a session’s status as it changes, and a long poll ends with the change', async () => {
    world = sessionWorld({ turns: [{ steps: [{ hold: true }] }] })
    const { id } = await world.sessions.create('wait', { cwd: world.dir })
    const statuses: string[] = []
    const off = world.sessions.onStatus(id, (s) => statuses.push(s))
    const polled = world.sessions.status(id, 300)
    await world.sessions.interrupt(id)
    expect(await polled).toMatchObject({ status: 'interrupted' })
    off()
    expect(statuses).toEqual(['interrupted'])
  })

  it('that throw neither stop the line being stored nor the others hearing it', async () => {
    world = sessionWorld()
    const heard: number[] = []
    world.sessions.onLine(() => {
      throw new Error('a broken listener')
    })
    world.sessions.onLine((_id, seq) => heard.push(seq))
    const { id } = await world.sessions.create('hello', { cwd: world.dir })
    await idle(id)
    expect(heard).toEqual((await world.sessions.lines(id, 0)).lines.map((l) => l.seq))
  })
})

describe('the text being written', () => {
  it('comes piece by piece, is there whole for a late reader, and is gone once its line arrives', async () => {
    world = sessionWorld({
      turns: [
        { steps: [{ partial: ['Hel', 'lo'] }, { hold: true }] },
        { when: 'more', steps: [{ say: 'Hi' }] },
      ],
    })
    const pieces: PartialPiece[] = []
    const { id } = await world.sessions.create('write', { cwd: world.dir })
    world.sessions.onPartialOf(id, (piece) => pieces.push(piece))
    await waitFor(() => world.sessions.partial(id)?.text === 'Hello', 10_000, 'the text so far')
    expect(world.sessions.partial(id)).toEqual({ at: 0, text: 'Hello' })
    await world.sessions.interrupt(id)
    // The interrupted message arrives as a line of its own: nothing is being written any more.
    await world.until(id, (v) => v.status === 'interrupted', 'the interrupt')
    expect(world.sessions.partial(id)).toBeNull()
    await world.sessions.send(id, 'more')
    await idle(id)
    expect(pieces.slice(-1)).toEqual([{ at: 0, text: 'Hi' }])
  })

  it('of a CLI that dies mid-message is dropped: listeners hear an empty piece', async () => {
    world = sessionWorld({ turns: [{ steps: [{ partial: ['half a'] }, { kill: 'SIGKILL' }] }] })
    const pieces: PartialPiece[] = []
    world.sessions.onPartial((_id, piece) => pieces.push(piece))
    const { id } = await world.sessions.create('write', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'error', 'the CLI to die')
    expect(pieces).toEqual([
      { at: 0, text: 'half a' },
      { at: 0, text: '' },
    ])
    expect(world.sessions.partial(id)).toBeNull()
  })
})
