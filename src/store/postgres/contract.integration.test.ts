// The Postgres store against every area's contract, each test on a new database of one throwaway
// server (Debian's postgresql package, started for this file).
import { afterAll, beforeAll } from 'vitest'
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
import { describeTerminalSessionStoreContract } from '../terminal-sessions.contract.js'
import { openPostgresStore } from './index.js'

let server: PostgresServer
beforeAll(async () => {
  server = await startPostgres()
}, 60_000)
afterAll(() => server?.stop())

const openPostgres: OpenStore = async () => {
  const url = await server.database()
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
