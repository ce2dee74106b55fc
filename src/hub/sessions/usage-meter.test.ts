// What a driven session costs, counted from its CLI's result lines: each turn stored against the
// session's project, agent and starter; a project's daily budget read after each turn, operators
// told of each threshold once, and the session stopped (and refused more) at the limit.
import { basename } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../../../test/helpers/home.js'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import { budgetDay } from '../../core/budgets.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

const costing = (usd: number, when?: string) => ({
  when,
  steps: [
    { say: 'done' },
    {
      result: {
        total_cost_usd: usd,
        num_turns: 1,
        usage: { input_tokens: 1_000, output_tokens: 50, cache_read_input_tokens: 7 },
      },
    },
  ],
})

const noticesOf = async (senderId: string) =>
  (await world.hub.outbox.items(senderId, null)).flatMap((item) =>
    item.kind === 'notice' ? [item.body] : [],
  )

describe('usage', () => {
  it('counts each turn against the session’s project, agent and who started it', async () => {
    world = sessionWorld({ turns: [costing(0.25, 'first'), costing(0.5, 'second')] })
    const { id } = await world.sessions.create('first', { cwd: world.dir }, { startedBy: 'ann' })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await world.sessions.send(id, 'second')
    await world.until(id, (v) => v.status === 'idle' && v.turns === 2, 'the second turn')
    const project = basename(world.dir)
    await waitFor(
      async () => (await world.store.usageTotals({ by: 'session', since: 0 }))[0]?.turns === 2,
      5_000,
      'both turns counted',
    )
    expect(await world.store.usageTotals({ by: 'project', since: 0 })).toEqual([
      {
        key: project,
        costUsd: 0.75,
        unpricedTurns: 0,
        turns: 2,
        inputTokens: 2_000,
        outputTokens: 100,
        cacheReadTokens: 14,
        cacheWriteTokens: 0,
      },
    ])
    expect((await world.store.usageTotals({ by: 'operator', since: 0 }))[0]?.key).toBe('ann')
    expect((await world.store.usageTotals({ by: 'agent', since: 0 }))[0]?.key).toBe('claude')
  })

  it('counts a turn its CLI gave no price as unpriced, not free', async () => {
    world = sessionWorld({ turns: [{ steps: [{ say: 'done' }, { result: { total_cost_usd: null } }] }] })
    const { id } = await world.sessions.create('first', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the turn')
    await waitFor(
      async () => (await world.store.usageTotals({ by: 'project', since: 0 })).length === 1,
      5_000,
      'the turn counted',
    )
    expect((await world.store.usageTotals({ by: 'project', since: 0 }))[0]).toMatchObject({
      costUsd: 0,
      unpricedTurns: 1,
      turns: 1,
    })
  })
})

describe('a project’s daily budget', () => {
  it('tells operators of each threshold once, stops the session at the limit and refuses it more', async () => {
    world = sessionWorld({ turns: [costing(0.3), costing(0.3)] })
    const project = basename(world.dir)
    const ann = await world.store.addSender({
      name: 'ann',
      tokenHash: 'h-a',
      status: 'allowed',
      operator: true,
    })
    const bob = await world.store.addSender({
      name: 'bob',
      tokenHash: 'h-b',
      status: 'allowed',
      operator: true,
    })
    await world.hub.decisions.chooseNotices(bob.id, ['waiting'])
    await world.store.setBudget({ project, dailyUsd: 0.5, thresholds: [50, 100], setBy: 'cli' })

    const { id } = await world.sessions.create('first', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the first turn')
    await waitFor(async () => (await noticesOf(ann.id)).length === 1, 5_000, 'the 50% notice')
    await world.sessions.send(id, 'second')
    const stopped = await world.until(id, (v) => v.status === 'stopped', 'the stop at the limit')
    expect(stopped.reason).toBe(
      `project ${project} is over its daily budget: $0.60 of $0.50 spent today (UTC)`,
    )
    await waitFor(async () => (await noticesOf(ann.id)).length === 3, 5_000, 'the 100% and stop notices')

    const told = await noticesOf(ann.id)
    expect(told.map((n) => n.text)).toEqual([
      `project ${project} has spent $0.30 today (UTC): 50% of its daily budget of $0.50`,
      `project ${project} has spent $0.60 today (UTC): 100% of its daily budget of $0.50`,
      `session ${id} stopped: ${stopped.reason}`,
    ])
    // Bob chose no budget notices: he hears of the stop only.
    expect((await noticesOf(bob.id)).map((n) => n.id)).toEqual([`budget-stop:${id}:${budgetDay(Date.now())}`])

    await expect(world.sessions.send(id, 'third')).rejects.toThrow(
      `project ${project} is over its daily budget: $0.60 of $0.50 spent today (UTC); raise it with switchboard budget set`,
    )
    await expect(world.sessions.create('another', { cwd: world.dir })).rejects.toThrow(
      /over its daily budget/,
    )
  })
})
