// The delivery rules the hub keeps under races: what a subscriber is owed reaches it, in order, and
// only what a connection was sent is ever acknowledged.
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryHub } from '../../../test/helpers/memory-hub.js'
import type { StoredEvent } from '../../core/event.js'
import type { ServerMessage } from '../../core/hub-protocol.js'
import { event } from '../../store/contract.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'
import type { Hub } from './hub.js'
import { SubscriberConnection } from './subscriber-connection.js'

const log = pino({ level: 'silent' })
let store: Store
let hub: Hub
beforeEach(() => {
  store = openSqliteStore(':memory:')
  hub = memoryHub(store)
})
afterEach(async () => {
  await store.close()
})

const webhook = (content: string) => event('ci', content, { source: 'ci' })

/** A connection as the hub socket makes one on `hello`, recording what it is sent. */
function sink(got: StoredEvent[]) {
  return {
    send: (m: ServerMessage) => {
      if (m.type === 'deliver') got.push(m.event)
    },
    terminate: () => {},
  }
}

async function connect(name: string, got: StoredEvent[]): Promise<SubscriberConnection> {
  const connection = new SubscriberConnection(name, sink(got), store, log, { settled: () => hub.settled() })
  hub.connections.set(name, connection)
  await store.registerSubscriber(name, ['*'])
  await connection.pump()
  return connection
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 60))

describe('a subscriber that connects while an event is being written', () => {
  it('gets that event, before the next one, and never loses it to a later ack', async () => {
    const got: StoredEvent[] = []
    // Staged before the connection registers; written only after the connection's first read.
    const one = hub.publish(webhook('one'))
    const connection = await connect('late', got)
    const two = await hub.publish(webhook('two'))
    await one
    await settle()
    expect(got.map((e) => e.content)).toEqual(['one', 'two'])
    connection.ack(two.event.seq)
    connection.close()
    await settle()
    expect(await store.pendingDeliveries('late', 0, 10)).toEqual([])
  })
})

describe('acknowledgements', () => {
  it('remove only the deliveries the connection was sent', async () => {
    const got: StoredEvent[] = []
    await store.registerSubscriber('s', ['*'])
    const connection = new SubscriberConnection('s', sink(got), store, log, { settled: () => hub.settled() })
    await connection.pump() // caught up: new events go out as they are offered
    const [a, b, c] = await store.stage([webhook('a'), webhook('b'), webhook('c')])
    // The connection is sent a and c; b, between them, is not sent on it.
    connection.offer(a?.event as StoredEvent)
    connection.offer(c?.event as StoredEvent)
    await store.write([a, b, c].filter((x) => x !== undefined))
    expect(got.map((e) => e.content)).toEqual(['a', 'c'])
    connection.ack(c?.event.seq ?? 0)
    connection.close()
    await settle()
    const left = await store.pendingDeliveries('s', 0, 10)
    expect(left.map((e) => e.content)).toContain('b')
  })
})
