// The SQLite store against every area's contract, each test on a new database file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
import { describeUsageStoreContract } from '../usage.contract.js'
import { openSqliteStore } from './index.js'

const openSqlite: OpenStore = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-store-'))
  const file = join(dir, 'switchboard.db')
  let current = openSqliteStore(file)
  return {
    store: current,
    async reopen() {
      await current.close()
      current = openSqliteStore(file)
      return current
    },
    async close() {
      await current.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

describeEventStoreContract(openSqlite)
describeAccessStoreContract(openSqlite)
describeDecisionStoreContract(openSqlite)
describeSessionStoreContract(openSqlite)
describePeerStoreContract(openSqlite)
describeOutboundStoreContract(openSqlite)
describeRetentionContract(openSqlite)
describeRuleStoreContract(openSqlite)
describeRoutineStoreContract(openSqlite)
describeLeaseStoreContract(openSqlite)
describeBridgeMemoryStoreContract(openSqlite)
describeTerminalSessionStoreContract(openSqlite)
describeReceiptStoreContract(openSqlite)
describePushStoreContract(openSqlite)
describeUsageStoreContract(openSqlite)
