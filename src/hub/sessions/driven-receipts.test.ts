// A driven session's receipts from its agent's command_lifecycle lines: whatever order the agent
// says them in, the event is recorded written before it is queued or in context; an ACP agent's
// `unconfirmed` comes with the reason it gives (agents/acp/).
import { expect, it } from 'vitest'
import type { StoredEvent } from '../../core/event.js'
import type { Hub } from '../core/hub.js'
import { DrivenReceipts, neverEntered } from './driven-receipts.js'

function receiptsOf() {
  const said: string[] = []
  const hub = {
    receipt: async (subscriber: string, r: { event_id: string; stage: string; reason?: string }) => {
      said.push(`${subscriber} ${r.event_id} ${r.stage}${r.reason ? ` (${r.reason})` : ''}`)
    },
    tellOperators: async (subscriber: string, _reason: string, text: string) => {
      said.push(`${subscriber} notice: ${text}`)
    },
  } as unknown as Hub
  return { receipts: new DrivenReceipts(hub), said }
}

const event = { id: 'ev_1' } as StoredEvent

it("records written first when the agent tells the line's fate before its write returned", async () => {
  const { receipts, said } = receiptsOf()
  const uuid = receipts.sending(event, 'session:ses_1')
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'queued' }, 'session:ses_1')
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' }, 'session:ses_1')
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
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' }, 'session:ses_1')
  expect(said).toEqual(['session:ses_1 ev_1 written', 'session:ses_1 ev_1 in_context'])
})

it("says an event is unconfirmed with the agent's own reason, once", async () => {
  const { receipts, said } = receiptsOf()
  const uuid = receipts.sending(event, 'session:ses_1')
  await receipts.written(uuid)
  const reason = 'OpenCode has no record of the session here'
  await receipts.heard(
    { type: 'command_lifecycle', command_uuid: uuid, state: 'unconfirmed', reason },
    'session:ses_1',
  )
  await receipts.heard({ type: 'command_lifecycle', command_uuid: uuid, state: 'started' }, 'session:ses_1')
  expect(said).toEqual(['session:ses_1 ev_1 written', `session:ses_1 ev_1 unconfirmed (${reason})`])
})

it('says unconfirmed, with why, the lines a CLI that ended never took in; not those of another session', async () => {
  const { receipts, said } = receiptsOf()
  const taken = receipts.sending(event, 'session:ses_1')
  await receipts.written(taken)
  await receipts.heard({ type: 'command_lifecycle', command_uuid: taken, state: 'started' }, 'session:ses_1')
  const queued = receipts.sending({ id: 'ev_2' } as StoredEvent, 'session:ses_1', 2)
  await receipts.written(queued)
  const other = receipts.sending({ id: 'ev_3' } as StoredEvent, 'session:ses_2')
  await receipts.written(other)
  said.length = 0
  await receipts.ended('session:ses_1', 'the CLI exited with signal SIGKILL')
  await receipts.ended('session:ses_1', 'the CLI exited with signal SIGKILL')
  expect(said).toEqual([
    'session:ses_1 ev_2 unconfirmed (the CLI ended before the line carrying it entered the conversation (the CLI exited with signal SIGKILL))',
  ])
})

it('tells operators when the CLI lost transcript lines to a full disk, and nothing for other losses', async () => {
  const { receipts, said } = receiptsOf()
  const lost = { type: 'system', subtype: 'session_writes_lost', error_code: 'ENOSPC' }
  await receipts.heard({ ...lost, lost: ['global_config'] }, 'session:ses_1')
  await receipts.heard({ ...lost, lost: ['transcript'] }, 'session:ses_1')
  expect(said).toEqual([
    "session:ses_1 notice: Claude Code could not save lines of the session's transcript (ENOSPC: the disk is full); what it was shown this run, events included, may be missing when it is resumed",
  ])
})

it('sends again with the next line only what never entered the conversation, not what an agent could not tell of', () => {
  expect(
    neverEntered(
      'the CLI ended before the line carrying it entered the conversation (the CLI exited with signal SIGKILL)',
    ),
  ).toBe(true)
  expect(neverEntered('Claude Code cancelled it')).toBe(true)
  expect(neverEntered("OpenCode's record of the session never showed it")).toBe(false)
  expect(neverEntered(null)).toBe(false)
})
