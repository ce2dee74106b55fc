// The Postgres store against every area's contract, each test on a new database of one throwaway
// server (Debian's postgresql package, started for this file).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { waitFor } from '../../../test/helpers/home.js'
import { type PostgresServer, startPostgres } from '../../../test/helpers/postgres.js'
import { describeAccessStoreContract } from '../access.contract.js'
import { describeBridgeMemoryStoreContract } from '../bridge-memory.contract.js'
import type { OpenStore } from '../contract.js'
import { describeDecisionStoreContract } from '../decisions.contract.js'
import { describeEventStoreContract } from '../events.contract.js'
import { describeLeaseStoreContract } from '../leases.contract.js'
import { describeOutboundStoreContract } from '../outbound.contract.js'
import { describePeerStoreContract } from '../peers.contract.js'
import { describePushStoreContract } from '../push.contract.js'
import { describeReceiptStoreContract } from '../receipts.contract.js'
import { describeRetentionContract } from '../retention.contract.js'
import { describeRoutineStoreContract } from '../routines.contract.js'
import { describeRuleStoreContract } from '../rules.contract.js'
import { describeSessionStoreContract } from '../sessions.contract.js'
import type { OtherChange } from '../store.js'
import { describeTerminalSessionStoreContract } from '../terminal-sessions.contract.js'
import { describeUsageStoreContract } from '../usage.contract.js'
import { openPostgresStore } from './index.js'

let server: PostgresServer
/** A database the store has migrated once, which each test's database copies. */
let migrated: string
beforeAll(async () => {
  server = await startPostgres()
  migrated = await server.newDatabase()
  await (await openPostgresStore(server.url(migrated, '127.0.0.1'))).close()
}, 60_000)
afterAll(() => server?.stop())

// Each test's database is dropped after it: left, they came to a gigabyte and 40,000 files by the
// end of the file, which took the server's folder over 30 s to remove on CI's busy disk (the hook's
// timeout). Copying a migrated database saves the migrations' 150 ms a test, which pays for the drop
// (schema-parity.integration.test.ts runs them on an empty database).
const openPostgres: OpenStore = async () => {
  const name = await server.newDatabase(migrated)
  const url = server.url(name, '127.0.0.1')
  let current = await openPostgresStore(url)
  return {
    store: current,
    async reopen() {
      await current.close()
      current = await openPostgresStore(url)
      return current
    },
    async close() {
      await current.close()
      await server.dropDatabase(name)
    },
  }
}

describeEventStoreContract(openPostgres)
describeAccessStoreContract(openPostgres)
describeDecisionStoreContract(openPostgres)
describeSessionStoreContract(openPostgres)
describePeerStoreContract(openPostgres)
describeOutboundStoreContract(openPostgres)
describeRetentionContract(openPostgres)
describeRuleStoreContract(openPostgres)
describeRoutineStoreContract(openPostgres)
describeLeaseStoreContract(openPostgres)
describeBridgeMemoryStoreContract(openPostgres)
describeTerminalSessionStoreContract(openPostgres)
describeReceiptStoreContract(openPostgres)
describePushStoreContract(openPostgres)
describeUsageStoreContract(openPostgres)

// Postgres only: a hub that changed a source tells the others, which drop what they cached of it.
it('tells the other stores on the database of a source’s new secret, new projects and removal, once each', async () => {
  const url = await server.database()
  const [a, b] = [await openPostgresStore(url), await openPostgresStore(url)]
  try {
    const heard: OtherChange[] = []
    let listening = false
    b.onOtherChanges?.((change) => {
      // `unknown` comes once b listens: what was committed before that was never to be heard.
      if (change.area === 'unknown') listening = true
      if (change.area === 'sources') heard.push(change)
    })
    await waitFor(() => listening, 10_000, 'b to listen')
    await a.addSource({ name: 'ci', topic: 'ci', secret: 'whsec_1', deliveryHeader: null })
    expect(await a.setSourceSecret('ci', 'whsec_2')).toBe(true)
    expect(await a.setSourceAbout('ci', ['api'])).toBe(true)
    expect(await a.removeSource('ci')).toBe(true)
    // No source, no change: nothing is announced (the last notice below is the only other one).
    expect(await a.setSourceSecret('nope', 'whsec_3')).toBe(false)
    expect(await a.removeSource('ci')).toBe(false)
    await a.addSource({ name: 'last', topic: 'last', secret: 'whsec_4', deliveryHeader: null })
    await a.removeSource('last')
    await waitFor(
      () => heard.some((c) => c.area === 'sources' && c.name === 'last'),
      10_000,
      'the last notice',
    )
    expect(heard).toEqual([
      { area: 'sources', name: 'ci' },
      { area: 'sources', name: 'ci' },
      { area: 'sources', name: 'ci' },
      { area: 'sources', name: 'last' },
    ])
  } finally {
    await Promise.all([a.close(), b.close()])
  }
})
