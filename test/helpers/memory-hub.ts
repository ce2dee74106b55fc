// A hub's core on a store of the test's own, with no server around it: the one hub on its database,
// holding every lease, logging nothing.
import { pino } from 'pino'
import { Hub } from '../../src/hub/core/hub.js'
import { LeaseKeeper } from '../../src/hub/core/lease-keeper.js'
import type { Store } from '../../src/store/store.js'

export function memoryHub(store: Store, options: ConstructorParameters<typeof Hub>[3] = {}): Hub {
  const log = pino({ level: 'silent' })
  return new Hub(store, log, new LeaseKeeper(store, 'hub_test', log, () => null, 10_000), options)
}
