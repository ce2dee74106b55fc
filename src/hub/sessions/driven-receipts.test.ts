// A driven session's receipts from its agent's command_lifecycle lines: whatever order the agent
// says them in, the event is recorded written before it is queued or in context; an ACP agent's
// `unconfirmed` comes with the reason it gives (agents/acp/).
import { expect, it } from 'vitest'
import type { StoredEvent } from '../../core/event.js'
import type { Hub } from '../core/hub.js'
import { DrivenReceipts } from './driven-receipts.js'

function receiptsOf() {
  const said: string[] = []
  const hub = {
    receipt: async (subscriber: string, r: { event_id: string; stage: string; reason?: string }) => {
      said.push(`${subscriber} ${r.event_id} ${r.stage}${r.reason ? ` (${r.reason})` : ''}`)
    },
  } as unknown as Hub
  return { receipts: new DrivenReceipts(hub), said }
}

const event = { id: 'ev_1' } as StoredEvent

it("records written first when the agent tells the line's fate before its write returned", async () => {
  const { receipts, said } = receiptsOf()
  const uuid = receipts.sending(event, 'session:ses_1')
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'queued' })
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' })
  await receipts.written(uuid)
  expect(said).toEqual([
    'session:ses_1 ev_1 written',
    'session:ses_1 ev_1 queued',
    'session:ses_1 ev_1 in_context',
  ])
})

it('says written once, in its place, when the write returns first', async () => {
  const { receipts, said } = receiptsOf()
  const uuid = receipts.sending(event, 'session:ses_1')
  await receipts.written(uuid)
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' })
  expect(said).toEqual(['session:ses_1 ev_1 written', 'session:ses_1 ev_1 in_context'])
})

it("says an event is unconfirmed with the agent's own reason, once", async () => {
  const { receipts, said } = receiptsOf()
  const uuid = receipts.sending(event, 'session:ses_1')
  await receipts.written(uuid)
  const reason = 'OpenCode has no record of the session here'
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'unconfirmed', reason })
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' })
  expect(said).toEqual(['session:ses_1 ev_1 written', `session:ses_1 ev_1 unconfirmed (${reason})`])
})
