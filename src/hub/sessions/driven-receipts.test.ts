// A driven session's receipts from the lines its agent writes: Claude Code's command_lifecycle
// states, and an ACP agent's `unconfirmed` with the reason it gives (agents/acp/).
import { expect, it } from 'vitest'
import type { StoredEvent } from '../../core/event.js'
import type { Hub } from '../core/hub.js'
import { DrivenReceipts } from './driven-receipts.js'

function receiptsTo(told: Record<string, unknown>[]): DrivenReceipts {
  const hub = {
    receipt: async (_subscriber: string, receipt: Record<string, unknown>) => void told.push(receipt),
  }
  return new DrivenReceipts(hub as unknown as Hub)
}

it("says an event is unconfirmed with the agent's own reason, once", async () => {
  const told: Record<string, unknown>[] = []
  const receipts = receiptsTo(told)
  const uuid = receipts.sending({ id: 'evt-1' } as StoredEvent, 'session:s1')
  const reason = "Switchboard does not read OpenCode's session store (opencode.db) yet"
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'unconfirmed', reason })
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' })
  expect(told).toEqual([{ type: 'receipt', event_id: 'evt-1', stage: 'unconfirmed', tries: 1, reason }])
})

it('says queued, then in context, as the lines come', async () => {
  const told: Record<string, unknown>[] = []
  const receipts = receiptsTo(told)
  const uuid = receipts.sending({ id: 'evt-2' } as StoredEvent, 'session:s1')
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'queued' })
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' })
  expect(told.map((r) => r.stage)).toEqual(['queued', 'in_context'])
})
