// A permission answered on another hub reaches its channel once, however many relays find it at
// once: another hub's notice and this hub's reading of everything every 5 s may both read it before
// either marks it relayed (the soak on three hubs saw 74 of 1,499 verdicts reach a channel twice).
import { afterEach, beforeEach, expect, it } from 'vitest'
import { memoryHub } from '../../../test/helpers/memory-hub.js'
import type { ServerMessage } from '../../core/hub-protocol.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'

let store: Store
beforeEach(() => {
  store = openSqliteStore(':memory:')
})
afterEach(async () => {
  await store.close()
})

it('hands a verdict to its channel once when two relays find it unrelayed at once', async () => {
  const hub = memoryHub(store)
  const verdicts: ServerMessage[] = []
  await hub.attach('ch_1', {
    send: (message) => void (message.type === 'verdict' && verdicts.push(message)),
    terminate: () => {},
  })
  const decision = await hub.decisions.requestPermission('ch_1', {
    request_id: 'abcde',
    tool_name: 'Bash',
    description: 'list the folder',
    input_preview: 'ls',
  })
  // Answered on another hub: this hub hears of it twice at once.
  await store.answerDecision(decision.id, { behavior: 'allow' }, 'alice')
  await Promise.all([hub.decisions.relayPendingVerdicts('ch_1'), hub.decisions.relayPendingVerdicts('ch_1')])
  expect(verdicts).toEqual([{ type: 'verdict', request_id: 'abcde', behavior: 'allow' }])
})
