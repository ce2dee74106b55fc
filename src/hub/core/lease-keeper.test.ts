// Fencing: a hub whose renewals stop reaching the store (a network split: every process alive, the
// database out of reach) stops its work and its subscribers' connections before another hub on the
// database may take their leases, and takes back, once the store answers again, only what no other
// hub took meanwhile.
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { withMethods } from '../../../test/helpers/store-overrides.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Lease, Store } from '../../store/store.js'
import { LeaseKeeper, subscriberLease } from './lease-keeper.js'

const LEASE_MS = 4_000
const log = pino({ level: 'silent' })

/** What happened, in order, across the hubs of one test. */
let happened: string[]
let store: Store
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  happened = []
  store = openSqliteStore(':memory:')
})
afterEach(async () => {
  vi.useRealTimers()
  await store.close()
})

/** The store as a hub behind a link that may be cut: while cut, nothing it asks is ever answered. */
function behindALink(inner: Store): { store: Store; cut: (on: boolean) => void } {
  let cut = false
  const proxy = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => (cut ? new Promise(() => {}) : value.apply(target, args))
    },
  })
  return { store: proxy, cut: (on) => (cut = on) }
}

/** A chat bridge's bot, as exclusive work: it says when it starts and stops on which hub. */
function bridgeOn(hub: string) {
  return {
    async start(lease: Lease) {
      happened.push(`${hub} starts the bridge (epoch ${lease.epoch})`)
    },
    async stop() {
      happened.push(`${hub} stops the bridge`)
    },
  }
}

/** The store, saying in `happened` each lease hub_a releases. */
function releasesSaid(inner: Store): Store {
  return withMethods(inner, {
    releaseLease(name, holder) {
      happened.push(`hub_a releases ${name}`)
      return inner.releaseLease(name, holder)
    },
  })
}

describe('a hub cut off from the shared store', () => {
  it('stops its work and connections before another hub takes them, then rejoins without them', async () => {
    const link = behindALink(store)
    const a = new LeaseKeeper(link.store, 'hub_a', log, () => null, LEASE_MS, true)
    const b = new LeaseKeeper(store, 'hub_b', log, () => null, LEASE_MS, true)
    a.exclusive('bridge:telegram', bridgeOn('hub_a'))
    b.exclusive('bridge:telegram', bridgeOn('hub_b'))
    await a.start()
    await a.seize('ch_1', (why) => happened.push(`hub_a ends ch_1’s connection (${why})`))
    await b.start()
    expect(happened).toEqual(['hub_a starts the bridge (epoch 1)'])

    link.cut(true)
    await vi.advanceTimersByTimeAsync(3 * LEASE_MS)
    // hub_a fenced itself first; only then did hub_b's tick find the lease lapsed.
    expect(happened).toEqual([
      'hub_a starts the bridge (epoch 1)',
      'hub_a ends ch_1’s connection (fenced)',
      'hub_a stops the bridge',
      'hub_b starts the bridge (epoch 2)',
    ])
    // The channel connects to hub_b, which seizes its lease.
    await b.seize('ch_1', () => happened.push('hub_b ends ch_1’s connection'))

    // The link returns: hub_a's stuck renewal never answers, but its next tick does.
    link.cut(false)
    await vi.advanceTimersByTimeAsync(3 * LEASE_MS)
    expect(happened.slice(4)).toEqual([])
    expect((await store.getLease('bridge:telegram'))?.holder).toBe('hub_b')
    expect((await store.getLease(subscriberLease('ch_1')))?.holder).toBe('hub_b')
    await b.stop()
    await vi.advanceTimersByTimeAsync(LEASE_MS)
    // hub_b left: hub_a, a follower until now, takes the bridge.
    expect(happened.slice(4)).toEqual(['hub_b stops the bridge', 'hub_a starts the bridge (epoch 3)'])
    await a.stop()
  })

  it('starts its work again only once the stop the fence began has ended, and its own stop waits for it', async () => {
    const link = behindALink(store)
    const a = new LeaseKeeper(link.store, 'hub_a', log, () => null, LEASE_MS, true)
    a.exclusive('bridge:telegram', {
      start: async (lease: Lease) => void happened.push(`hub_a starts the bridge (epoch ${lease.epoch})`),
      // A bridge whose last poll waits on a link that hangs: its stop takes three leases.
      stop: async () => {
        happened.push('hub_a begins to stop the bridge')
        await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS))
        happened.push('hub_a has stopped the bridge')
      },
    })
    await a.start()
    link.cut(true)
    await vi.advanceTimersByTimeAsync(1.5 * LEASE_MS)
    expect(happened).toEqual(['hub_a starts the bridge (epoch 1)', 'hub_a begins to stop the bridge'])
    // The link returns while the bridge is still stopping: the lease is free, and no other hub wants it.
    link.cut(false)
    await vi.advanceTimersByTimeAsync(2 * LEASE_MS)
    expect(happened.slice(2)).toEqual([])
    await vi.advanceTimersByTimeAsync(2 * LEASE_MS)
    expect(happened.slice(2)).toEqual(['hub_a has stopped the bridge', 'hub_a starts the bridge (epoch 2)'])

    // Fenced again, and stopped while the bridge is still stopping: the hub's stop ends after it.
    link.cut(true)
    await vi.advanceTimersByTimeAsync(1.5 * LEASE_MS)
    expect(happened.slice(4)).toEqual(['hub_a begins to stop the bridge'])
    link.cut(false)
    let stopped = false
    const stopping = a.stop().then(() => (stopped = true))
    await vi.advanceTimersByTimeAsync(LEASE_MS)
    expect(stopped).toBe(false)
    await vi.advanceTimersByTimeAsync(2 * LEASE_MS)
    await stopping
    expect(happened.slice(5)).toEqual(['hub_a has stopped the bridge'])
  })

  it('keeps everything while its renewals reach the store, however long it runs', async () => {
    const a = new LeaseKeeper(store, 'hub_a', log, () => null, LEASE_MS, true)
    a.exclusive('bridge:telegram', bridgeOn('hub_a'))
    await a.start()
    await a.seize('ch_1', () => happened.push('hub_a ends ch_1’s connection'))
    await vi.advanceTimersByTimeAsync(20 * LEASE_MS)
    expect(happened).toEqual(['hub_a starts the bridge (epoch 1)'])
    await a.stop()
  })

  it('ends a connection whose subscriber connected to another hub, saying it was taken, not fenced', async () => {
    const a = new LeaseKeeper(store, 'hub_a', log, () => null, LEASE_MS, true)
    const b = new LeaseKeeper(store, 'hub_b', log, () => null, LEASE_MS, true)
    await a.start()
    await b.start()
    await a.seize('ch_1', (why) => happened.push(`hub_a ends ch_1’s connection (${why})`))
    await b.seize('ch_1', (why) => happened.push(`hub_b ends ch_1’s connection (${why})`))
    await vi.advanceTimersByTimeAsync(2 * LEASE_MS)
    expect(happened).toEqual(['hub_a ends ch_1’s connection (taken)'])
    await a.stop()
    await b.stop()
  })

  it('on a store no other hub shares, keeps its work through a store that does not answer', async () => {
    const link = behindALink(store)
    const a = new LeaseKeeper(link.store, 'hub_a', log, () => null, LEASE_MS, false)
    a.exclusive('bridge:telegram', bridgeOn('hub_a'))
    await a.start()
    link.cut(true)
    await vi.advanceTimersByTimeAsync(3 * LEASE_MS)
    expect(happened).toEqual(['hub_a starts the bridge (epoch 1)'])
  })
})

/**
 * The store as a hub busy delivering sees it: renewals have a connection of their own and are
 * answered at once; every other statement waits `queueMs` behind the deliveries (a pool whose
 * connections are all taken) while `busy` is on.
 */
function behindDeliveries(inner: Store, queueMs: number): { store: Store; busy: (on: boolean) => void } {
  let busy = false
  const proxy = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver)
      if (typeof value !== 'function') return value
      return async (...args: unknown[]) => {
        if (busy && key !== 'renewLeases') await new Promise((resolve) => setTimeout(resolve, queueMs))
        return value.apply(target, args)
      }
    },
  })
  return { store: proxy, busy: (on) => (busy = on) }
}

describe('work this hub no longer wants', () => {
  // Another hub that still reads it as wanted (its tick listed the store a moment earlier) may take it
  // as soon as it is released.
  it('stops before its lease is released', async () => {
    let wanted = true
    const a = new LeaseKeeper(releasesSaid(store), 'hub_a', log, () => null, LEASE_MS, true)
    a.source({
      async wanted() {
        return new Map(wanted ? [['outbound:wh_1', bridgeOn('hub_a')]] : [])
      },
    })
    await a.start()
    wanted = false
    await vi.advanceTimersByTimeAsync(LEASE_MS)
    expect(happened).toEqual([
      'hub_a starts the bridge (epoch 1)',
      'hub_a stops the bridge',
      'hub_a releases outbound:wh_1',
    ])
    await a.stop()
  })
})

// Found by the soak on three hubs (issue 37): the hubs fenced themselves although Postgres answered.
describe('a hub whose other statements wait behind its deliveries', () => {
  it('keeps its work and connections while its renewals reach the store', async () => {
    const queue = behindDeliveries(store, 1.5 * LEASE_MS)
    const a = new LeaseKeeper(queue.store, 'hub_a', log, () => null, LEASE_MS, true)
    const b = new LeaseKeeper(store, 'hub_b', log, () => null, LEASE_MS, true)
    a.exclusive('bridge:telegram', bridgeOn('hub_a'))
    b.exclusive('bridge:telegram', bridgeOn('hub_b'))
    // The hub's outbound webhooks, listed each tick from the same store.
    a.source({
      async wanted() {
        await queue.store.listLeases('outbound:')
        return new Map()
      },
    })
    await a.start()
    await a.seize('ch_1', () => happened.push('hub_a ends ch_1’s connection'))
    await b.start()

    queue.busy(true)
    await vi.advanceTimersByTimeAsync(6 * LEASE_MS)
    expect(happened).toEqual(['hub_a starts the bridge (epoch 1)'])
    expect((await store.getLease(subscriberLease('ch_1')))?.holder).toBe('hub_a')
    queue.busy(false)
    await vi.advanceTimersByTimeAsync(2 * LEASE_MS)
    await b.stop()
    await a.stop()
  })
})

// A bridge whose hub cannot reach its platform hands its lease over (src/hub/bridges/manager.ts).
describe('work handed over because this hub cannot do it', () => {
  it('goes to another hub, and the hub that gave it up does not take it straight back', async () => {
    const a = new LeaseKeeper(store, 'hub_a', log, () => null, LEASE_MS, true)
    const b = new LeaseKeeper(store, 'hub_b', log, () => null, LEASE_MS, true)
    a.exclusive('bridge:telegram', bridgeOn('hub_a'))
    b.exclusive('bridge:telegram', bridgeOn('hub_b'))
    await a.start()
    await b.start()
    expect(await a.handOver('bridge:telegram')).toBe(true)
    await vi.advanceTimersByTimeAsync(3 * LEASE_MS)
    expect(happened).toEqual([
      'hub_a starts the bridge (epoch 1)',
      'hub_a stops the bridge',
      'hub_b starts the bridge (epoch 2)',
    ])
    expect(await a.handOver('bridge:telegram')).toBe(false) // nothing of it runs on hub_a
    await a.stop()
    await b.stop()
  })

  it('keeps renewing the rest while the work it hands over takes its time to stop', async () => {
    const a = new LeaseKeeper(store, 'hub_a', log, () => null, LEASE_MS, true)
    a.exclusive('bridge:telegram', {
      start: async () => void happened.push('hub_a starts the bridge'),
      // A bridge whose last poll waits on a link that hangs.
      stop: () => new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS)),
    })
    await a.start()
    await a.seize('ch_1', () => happened.push('hub_a ends ch_1’s connection'))
    const handing = a.handOver('bridge:telegram')
    // Stopping takes two leases, and it stands aside a lease after that: no restart meanwhile.
    await vi.advanceTimersByTimeAsync(2.5 * LEASE_MS)
    expect(await handing).toBe(true)
    expect(happened).toEqual(['hub_a starts the bridge'])
    expect(await store.getLease('bridge:telegram')).toMatchObject({ expiresAt: 0 }) // released
    expect((await store.getLease(subscriberLease('ch_1')))?.holder).toBe('hub_a')
    // No other hub took it: hub_a runs it again, and stops it (taking its time) as it stops.
    const stopping = a.stop()
    await vi.advanceTimersByTimeAsync(2 * LEASE_MS)
    await stopping
  })

  // The partition test orders what hubs did by their log lines: a hand-over said after the release could
  // come after the line of the hub that took the lease meanwhile, and read as two hubs running it.
  it('says it has stopped the work before it releases the lease', async () => {
    const said = { write: (line: string) => void happened.push(`hub_a says: ${JSON.parse(line).msg}`) }
    const a = new LeaseKeeper(
      releasesSaid(store),
      'hub_a',
      pino({ level: 'warn' }, said),
      () => null,
      LEASE_MS,
      true,
    )
    a.exclusive('bridge:telegram', bridgeOn('hub_a'))
    await a.start()
    await a.handOver('bridge:telegram')
    expect(happened).toEqual([
      'hub_a starts the bridge (epoch 1)',
      'hub_a stops the bridge',
      expect.stringMatching(/^hub_a says: handed over/),
      'hub_a releases bridge:telegram',
    ])
    await a.stop()
  })

  it('comes back to the hub that gave it up when no other hub takes it', async () => {
    const a = new LeaseKeeper(store, 'hub_a', log, () => null, LEASE_MS, true)
    a.exclusive('bridge:telegram', bridgeOn('hub_a'))
    await a.start()
    await a.handOver('bridge:telegram')
    await vi.advanceTimersByTimeAsync(LEASE_MS / 2)
    expect(happened).toEqual(['hub_a starts the bridge (epoch 1)', 'hub_a stops the bridge'])
    await vi.advanceTimersByTimeAsync(LEASE_MS)
    expect(happened.slice(2)).toEqual(['hub_a starts the bridge (epoch 2)'])
    await a.stop()
  })
})
