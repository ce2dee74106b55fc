// A run found `starting` (its hub died after recording the session it would start): its session is
// started only if it is not on record, so the crash costs no second CLI and loses no run.
import { basename } from 'node:path'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import type { StoredEvent } from '../../core/event.js'
import { OPEN_RUN_STATES, routineSpecSchema } from '../../core/routines.js'
import { Runner, sessionOfRun } from './runner.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

const event: StoredEvent = {
  id: 'evt_1',
  seq: 0,
  topic: 'alerts',
  source: 'manual',
  sender: null,
  chat_id: null,
  content: 'db down',
  meta: {},
  created_at: 1,
}

/**
 * A run of routine `r` (with `more` in its spec) left in `state` by a hub that died: starting with its
 * session recorded, as a hub does before it spawns, or gated before it asked.
 */
async function runLeft(
  state: 'pending' | 'starting' | 'gated',
  more: Record<string, unknown> = {},
): Promise<{ runner: Runner; spec: ReturnType<typeof routineSpecSchema.parse> }> {
  const spec = routineSpecSchema.parse({
    name: 'r',
    trigger: { kind: 'manual' },
    action: { kind: 'start', folder: world.dir, prompt: 'look' },
    ...more,
  })
  await world.store.addRoutine({ name: 'r', spec })
  await world.store.takeRoutineEvent({
    routine: 'r',
    runId: 'run_1',
    key: '',
    event,
    trigger: 'manual',
    joins: OPEN_RUN_STATES,
    now: 1,
    dueAt: 1,
    maxWaitMs: 0,
  })
  if (state !== 'pending')
    await world.store.moveRoutineRun(
      'run_1',
      ['pending'],
      state,
      state === 'starting' ? { sessionId: sessionOfRun('run_1') } : undefined,
    )
  return {
    runner: new Runner(world.store, world.hub, world.sessions, pino({ level: 'silent' }), world.dir, () => 4),
    spec,
  }
}

describe('a run left starting by a hub that died', () => {
  it('starts its session once when the session is not on record', async () => {
    world = sessionWorld({ turns: [{ steps: [{ say: 'looked' }] }] })
    const { runner, spec } = await runLeft('starting')
    await runner.tick(spec)
    await runner.tick(spec)
    expect(await world.store.getRoutineRun('run_1')).toMatchObject({ state: 'running', sessionId: 'ses_1' })
    await world.until('ses_1', (v) => v.status === 'idle', 'the turn to end')
    expect(world.fake.runs()).toHaveLength(1)
    await runner.tick(spec)
    expect(await world.store.getRoutineRun('run_1')).toMatchObject({ state: 'done', reason: 'looked' })
  })

  it('starts no second CLI when its session is on record already', async () => {
    world = sessionWorld()
    const { runner, spec } = await runLeft('starting')
    await world.store.createSession({ id: 'ses_1', cwd: world.dir, config: {}, status: 'stopped' })
    await runner.tick(spec)
    expect(await world.store.getRoutineRun('run_1')).toMatchObject({ state: 'running' })
    expect(world.fake.runs()).toEqual([])
  })
})

describe('a run left gated by a hub that died before it asked', () => {
  it('is put to operators when the routine is next moved along, once', async () => {
    world = sessionWorld()
    const { runner, spec } = await runLeft('gated', { gate: true })
    await runner.tick(spec)
    await runner.tick(spec)
    const open = await world.store.listDecisions({ status: 'open' })
    expect(open.map((d) => [d.owner, d.request.tool_name])).toEqual([['routine:r', 'StartRoutine']])
    expect(await world.store.getRoutineRun('run_1')).toMatchObject({
      state: 'gated',
      decisionId: open[0]?.id,
    })
    expect(world.fake.runs()).toEqual([])
  })
})

describe('a run of a project over its daily budget', () => {
  it('is not started: it ends saying why, and every operator is told', async () => {
    world = sessionWorld()
    const project = basename(world.dir)
    const ann = await world.store.addSender({
      name: 'ann',
      tokenHash: 'h-a',
      status: 'allowed',
      operator: true,
    })
    // Ann chose no notices of budgets or runs: she is told anyway, as of a run over its own budget.
    await world.hub.decisions.chooseNotices(ann.id, [])
    await world.store.setBudget({ project, dailyUsd: 1, thresholds: [100], setBy: 'cli' })
    await world.store.recordUsage({
      sessionId: 'ses_earlier',
      at: Date.now(),
      project,
      agent: 'claude',
      routine: null,
      operator: 'ann',
      costUsd: 1.2,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    })
    const { runner, spec } = await runLeft('pending')
    await runner.tick(spec)
    const reason = `not started: project ${project} is over its daily budget: $1.20 of $1.00 spent today (UTC)`
    expect(await world.store.getRoutineRun('run_1')).toMatchObject({ state: 'stopped', reason })
    expect(world.fake.runs()).toEqual([])
    const told = (await world.hub.outbox.items(ann.id, null)).flatMap((i) =>
      i.kind === 'notice' ? [i.body] : [],
    )
    expect(told.map((n) => n.text)).toEqual([expect.stringContaining(reason)])
  })
})
