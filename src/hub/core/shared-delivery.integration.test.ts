// Delivery when hubs share a Postgres database: a hub's own commit can come after another hub's that
// it has not read yet; its subscribers still get both, in seq order.
import { pino } from 'pino'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { type PostgresServer, startPostgres } from '../../../test/helpers/postgres.js'
import type { StoredEvent } from '../../core/event.js'
import type { ServerMessage } from '../../core/hub-protocol.js'
import { event, publish } from '../../store/contract.js'
import { openPostgresStore } from '../../store/postgres/index.js'
import { Hub } from './hub.js'
import { LeaseKeeper } from './lease-keeper.js'
import { SubscriberConnection } from './subscriber-connection.js'

const log = pino({ level: 'silent' })
let server: PostgresServer
beforeAll(async () => {
  server = await startPostgres()
}, 60_000)
afterAll(() => server?.stop())

it('sends a subscriber what another hub committed before this hub’s own next event', async () => {
  const url = await server.database()
  // Neither hub follows the other (no notices): this is the moment before a notice arrives.
  const [storeA, storeB] = [await openPostgresStore(url), await openPostgresStore(url)]
  const [hubA, hubB] = [
    new Hub(storeA, log, new LeaseKeeper(storeA, 'hub_a', log, () => null, 10_000)),
    new Hub(storeB, log, new LeaseKeeper(storeB, 'hub_b', log, () => null, 10_000)),
  ]
  try {
    const got: StoredEvent[] = []
    const sink = {
      send: (m: ServerMessage) => m.type === 'deliver' && got.push(m.event),
      terminate: () => {},
    }
    await storeA.registerSubscriber('watcher', ['*'])
    const connection = new SubscriberConnection('watcher', sink, storeA, log, {
      settled: () => hubA.settled(),
    })
    hubA.connections.set('watcher', connection)
    await connection.pump() // caught up

    await hubB.publish(event('ci', 'from b'))
    await hubA.publish(event('ci', 'from a'))
    await vi.waitFor(() => expect(got.map((e) => e.content)).toEqual(['from b', 'from a']), 2_000)
    connection.close()
  } finally {
    await storeA.close()
    await storeB.close()
  }
})

it('matches an event against a subscriber another hub registered a moment before', async () => {
  const url = await server.database()
  const [storeA, storeB] = [await openPostgresStore(url), await openPostgresStore(url)]
  try {
    await storeA.registerSubscriber('early', ['ci'])
    await publish(storeA, [event('ci', 'first')]) // a has read the subscribers: only `early`
    await storeB.registerSubscriber('late', ['ci'])
    await publish(storeA, [event('ci', 'second')])
    expect((await storeA.pendingDeliveries('late', 0, 10)).map((e) => e.content)).toEqual(['second'])
  } finally {
    await storeA.close()
    await storeB.close()
  }
})
