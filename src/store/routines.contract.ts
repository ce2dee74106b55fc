// The RoutineStore's contract: routines kept and paused; an event taken once, into the open run of
// its key (a pending one waiting for it), its delivery acknowledged in the same transaction; runs
// moved only from the states named.
import { describe, expect } from 'vitest'
import type { StoredEvent } from '../core/event.js'
import { event, type OpenStore, publish, storeTest } from './contract.js'
import { OPEN_RUN_STATES, type RunState } from './routines.js'
import type { Store } from './store.js'

export function describeRoutineStoreContract(open: OpenStore): void {
  const it = storeTest(open)
  const spec = { name: 'ci', trigger: { kind: 'manual' } }

  /** An event for the routine's subscriber, published and delivered as the hub does. */
  async function delivered(store: Store, content: string): Promise<StoredEvent> {
    await store.registerSubscriber('routine:ci', ['ci'])
    await publish(store, [event('ci', content)])
    const pending = await store.pendingDeliveries('routine:ci', 0, 100)
    const found = pending.find((e) => e.content === content)
    if (!found) throw new Error('not delivered')
    return found
  }

  const take = (
    store: Store,
    e: StoredEvent,
    key: string,
    runId: string,
    now: number,
    debounce = 0,
    joins: readonly RunState[] = OPEN_RUN_STATES,
  ) =>
    store.takeRoutineEvent({
      routine: 'ci',
      runId,
      key,
      event: e,
      trigger: 'event',
      joins,
      now,
      dueAt: now + debounce,
      maxWaitMs: debounce * 10,
      delivery: { subscriber: 'routine:ci', seq: e.seq },
    })

  describe('RoutineStore', () => {
    it('keeps routines by name, refuses a second of a name, pauses and removes them', async ({ store }) => {
      expect(await store.addRoutine({ name: 'ci', spec })).toMatchObject({ name: 'ci', spec, paused: false })
      expect(await store.addRoutine({ name: 'ci', spec })).toBeNull()
      expect(await store.pauseRoutine('ci', true)).toBe(true)
      expect(await store.getRoutine('ci')).toMatchObject({ paused: true })
      expect(await store.pauseRoutine('nope', true)).toBe(false)
      expect((await store.listRoutines()).map((r) => r.name)).toEqual(['ci'])
      expect(await store.removeRoutine('ci')).toBe(true)
      expect(await store.removeRoutine('ci')).toBe(false)
    })

    it('takes each event once, into the open run of its key, and acknowledges its delivery', async ({
      store,
      reopen,
    }) => {
      await store.addRoutine({ name: 'ci', spec })
      const a = await delivered(store, 'a')
      const b = await delivered(store, 'b')
      const c = await delivered(store, 'c')
      const first = await take(store, a, 'k1', 'run_1', 1_000, 5_000)
      expect(first).toMatchObject({ duplicate: false, joined: false })
      expect(first.run).toMatchObject({ id: 'run_1', key: 'k1', state: 'pending', events: 1, dueAt: 6_000 })
      // Joins and pushes the due time, up to the first event's time + 10 windows.
      const second = await take(store, b, 'k1', 'run_2', 3_000, 5_000)
      expect(second).toMatchObject({ duplicate: false, joined: true })
      expect(second.run).toMatchObject({ id: 'run_1', events: 2, dueAt: 8_000 })
      const other = await take(store, c, 'k2', 'run_3', 3_000)
      expect(other.run).toMatchObject({ id: 'run_3', key: 'k2', events: 1 })
      expect(await store.pendingDeliveries('routine:ci', 0, 100)).toEqual([])

      // A redelivery (the hub died before its ack was known) changes nothing.
      store = await reopen()
      const again = await take(store, a, 'k1', 'run_4', 9_000)
      expect(again).toMatchObject({ duplicate: true, joined: false, run: { id: 'run_1', events: 2 } })
      expect((await store.routineRuns({ routine: 'ci', limit: 10 })).map((r) => r.id).sort()).toEqual([
        'run_1',
        'run_3',
      ])
      expect((await store.runEvents('run_1')).map((e) => [e.n, e.event.content, e.sent])).toEqual([
        [1, 'a', false],
        [2, 'b', false],
      ])
    })

    it('moves a run only from the states named; a closed run’s key starts a new run', async ({ store }) => {
      await store.addRoutine({ name: 'ci', spec })
      const a = await delivered(store, 'a')
      const b = await delivered(store, 'b')
      const c = await delivered(store, 'c')
      await take(store, a, '', 'run_1', 1_000)
      expect(await store.moveRoutineRun('run_1', ['gated'], 'starting')).toBeNull()
      const starting = await store.moveRoutineRun('run_1', ['pending', 'gated'], 'starting', {
        sessionId: 'ses_run_1',
        startedAt: 2_000,
      })
      expect(starting).toMatchObject({ state: 'starting', sessionId: 'ses_run_1', startedAt: 2_000 })
      await store.moveRoutineRun('run_1', ['starting'], 'running')
      // A running run takes its key's events: they wait to be sent into its session.
      expect((await take(store, b, '', 'run_2', 3_000)).run.id).toBe('run_1')
      expect((await store.runEvents('run_1', { unsent: true })).map((e) => e.n)).toEqual([1, 2])
      await store.markRunEventsSent('run_1', [1, 2])
      expect(await store.runEvents('run_1', { unsent: true })).toEqual([])
      await store.updateRoutineRun('run_1', { costUsd: 0.25, turns: 3 })
      await store.moveRoutineRun('run_1', ['running'], 'done', { endedAt: 4_000, reason: 'finished' })
      expect((await take(store, c, '', 'run_3', 5_000)).run).toMatchObject({ id: 'run_3', state: 'pending' })
      expect(await store.getRoutineRun('run_1')).toMatchObject({ state: 'done', costUsd: 0.25, turns: 3 })
      expect((await store.routineRuns({ states: ['pending'], limit: 10 })).map((r) => r.id)).toEqual([
        'run_3',
      ])
      expect(await store.removeRoutine('ci')).toBe(true)
      expect(await store.getRoutineRun('run_3')).toBeNull()
    })

    it('takes an event only into a run in the states it may join, else into the next run of its key', async ({
      store,
    }) => {
      // A gated routine's events join a pending run only: a run whose gate is open keeps what it showed.
      const pendingOnly: RunState[] = ['pending']
      await store.addRoutine({ name: 'ci', spec })
      await take(store, await delivered(store, 'a'), 'k', 'run_1', 1_000, 0, pendingOnly)
      await store.moveRoutineRun('run_1', ['pending'], 'gated')
      const b = await take(store, await delivered(store, 'b'), 'k', 'run_2', 2_000, 0, pendingOnly)
      expect(b).toMatchObject({ duplicate: false, joined: false, run: { id: 'run_2', state: 'pending' } })
      const c = await take(store, await delivered(store, 'c'), 'k', 'run_3', 3_000, 0, pendingOnly)
      expect(c).toMatchObject({ joined: true, run: { id: 'run_2', events: 2 } })
      expect((await store.runEvents('run_1')).map((e) => e.event.content)).toEqual(['a'])
      expect((await store.runEvents('run_2')).map((e) => [e.n, e.event.content])).toEqual([
        [1, 'b'],
        [2, 'c'],
      ])
      expect(await store.getRoutineRun('run_1')).toMatchObject({ state: 'gated', events: 1 })
      expect(await store.pendingDeliveries('routine:ci', 0, 100)).toEqual([])
      // One run of a key under way at a time: the next one waits, pending, until it ends.
      await expect(store.moveRoutineRun('run_2', ['pending'], 'gated')).rejects.toThrow()
      await store.moveRoutineRun('run_1', ['gated'], 'stopped', { endedAt: 4_000, reason: 'denied' })
      expect(await store.moveRoutineRun('run_2', ['pending'], 'gated')).toMatchObject({ state: 'gated' })
      // An open run of the key it may join is there: no new run, whatever state it is in.
      await store.moveRoutineRun('run_2', ['gated'], 'running')
      const d = await take(store, await delivered(store, 'd'), 'k', 'run_4', 5_000)
      expect(d).toMatchObject({ joined: true, run: { id: 'run_2', events: 3 } })
      expect(await store.getRoutineRun('run_4')).toBeNull()
    })

    it('replays an ended run as a new pending run with its events, unless an open run has its key', async ({
      store,
    }) => {
      await store.addRoutine({ name: 'ci', spec })
      await take(store, await delivered(store, 'a'), 'k', 'run_1', 1_000)
      await take(store, await delivered(store, 'b'), 'k', 'run_2', 1_000)
      expect(await store.replayRoutineRun('run_1', 'run_r', 2_000)).toBeNull()
      await store.moveRoutineRun('run_1', ['pending'], 'failed', { endedAt: 1_500, reason: 'x' })
      const replayed = await store.replayRoutineRun('run_1', 'run_r', 2_000)
      expect(replayed).toMatchObject({
        id: 'run_r',
        key: 'k',
        state: 'pending',
        trigger: 'replay',
        events: 2,
      })
      expect((await store.runEvents('run_r')).map((e) => [e.n, e.event.content, e.sent])).toEqual([
        [1, 'a', false],
        [2, 'b', false],
      ])
      // An open run of the key, pending or under way, stands in the way of another replay.
      expect(await store.replayRoutineRun('run_1', 'run_r2', 3_000)).toBeNull()
      expect(await store.runEvents('run_r2')).toEqual([])
      await store.moveRoutineRun('run_r', ['pending'], 'running')
      expect(await store.replayRoutineRun('run_1', 'run_r3', 4_000)).toBeNull()
      expect(await store.runEvents('run_r3')).toEqual([])
    })

    it('lets retention take runs that ended long ago, with their events, and keeps the others', async ({
      store,
    }) => {
      await store.addRoutine({ name: 'ci', spec })
      for (const [content, key, runId] of [
        ['a', 'old', 'run_old'],
        ['b', 'recent', 'run_recent'],
        ['c', 'open', 'run_open'],
      ] as const)
        await take(store, await delivered(store, content), key, runId, 1_000)
      await store.moveRoutineRun('run_old', ['pending'], 'failed', { endedAt: 2_000, reason: 'x' })
      await store.moveRoutineRun('run_recent', ['pending'], 'done', { endedAt: 9_000 })
      await store.prune(5_000, 100)
      expect(await store.getRoutineRun('run_old')).toBeNull()
      expect(await store.runEvents('run_old')).toEqual([])
      expect((await store.routineRuns({ routine: 'ci', limit: 10 })).map((r) => r.id).sort()).toEqual([
        'run_open',
        'run_recent',
      ])
      expect(await store.runEvents('run_open')).toHaveLength(1)
    })
  })
}
