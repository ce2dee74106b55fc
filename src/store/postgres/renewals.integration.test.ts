// A hub busy delivering must still prove its leases. Under the soak's load (three hubs, 100 channels,
// 50 events/s) every connection of a hub's pool was taken by delivery reads and the lease renewals
// queued behind them, so hubs whose database answered fenced themselves and dropped every channel.
// Here the hub's reads of deliveries wait on a lock another session holds, more of them than the
// pool has connections, and the renewal must reach the database while they wait.
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { waitFor } from '../../../test/helpers/home.js'
import { type PostgresServer, startPostgres } from '../../../test/helpers/postgres.js'
import { openPostgresStore } from './index.js'

const LEASE_MS = 10_000
/** How long the deliveries stay locked: the renewal must answer before, not after. */
const HELD_MS = 5_000

let server: PostgresServer
beforeAll(async () => {
  server = await startPostgres()
}, 60_000)
afterAll(() => server?.stop())

it('renews a hub’s leases while every connection of its pool waits on deliveries', async () => {
  const url = await server.database()
  const store = await openPostgresStore(url)
  const other = new pg.Client({ connectionString: url })
  await other.connect()
  try {
    await store.acquireLease('hub:hub_a', 'hub_a', LEASE_MS, Date.now())
    await store.acquireLease('bridge:telegram', 'hub_a', LEASE_MS, Date.now())
    await store.renewLeases('hub_a', LEASE_MS, Date.now()) // the hub renews all along

    await other.query('BEGIN')
    await other.query('LOCK TABLE deliveries IN ACCESS EXCLUSIVE MODE')
    const reads = Array.from({ length: 30 }, (_, i) =>
      store.pendingDeliveries(`ch_${i}`, 0, 100).catch(() => []),
    )
    // Every connection the pool may open is waiting on the lock.
    await waitFor(
      async () => {
        // Statistics are read once per transaction unless cleared, and `other` is in one.
        await other.query('SELECT pg_stat_clear_snapshot()')
        const { rows } = await other.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND query LIKE '%FROM deliveries%'`,
        )
        return rows[0].n >= 10
      },
      20_000,
      'the pool taken by reads of deliveries',
    )

    let release: () => void = () => {}
    const released = new Promise<'the deliveries went first'>((resolve) => {
      const timer = setTimeout(() => resolve('the deliveries went first'), HELD_MS)
      release = () => clearTimeout(timer)
    })
    const renewal = store.renewLeases('hub_a', LEASE_MS, Date.now())
    const first = await Promise.race([renewal.then(() => 'renewed' as const), released])
    release()
    await other.query('COMMIT')
    expect(first).toBe('renewed')
    expect((await renewal).sort()).toEqual(['bridge:telegram', 'hub:hub_a'])
    await Promise.all(reads)
  } finally {
    await other.end()
    await store.close()
  }
}, 60_000)
