import { afterEach, beforeEach, expect, it } from 'vitest'
import { memoryHub } from '../../../test/helpers/memory-hub.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'

let store: Store
let hub: Hub
beforeEach(() => {
  store = openSqliteStore(':memory:')
  hub = memoryHub(store)
})
afterEach(async () => {
  await store.close()
})

const noticesOf = async (senderId: string) =>
  (await hub.outbox.items(senderId, null)).flatMap((item) => (item.kind === 'notice' ? [item.body] : []))

it('tells an operator who turned notices off of an event left out of context, and of nothing else', async () => {
  const quiet = await store.addSender({
    name: 'quiet',
    tokenHash: 'hash-q',
    status: 'allowed',
    operator: true,
  })
  const keen = await store.addSender({ name: 'keen', tokenHash: 'hash-k', status: 'allowed', operator: true })
  await hub.decisions.chooseNotices(quiet.id, [])

  await hub.decisions.toOperators({
    kind: 'notice',
    body: { kind: 'waiting', session: 's1', text: 'api: Claude is waiting for you' },
  })
  await hub.receipt('api', {
    type: 'receipt',
    event_id: 'evt_1',
    stage: 'unconfirmed',
    tries: 5,
    reason: 'no channel',
  })

  expect((await noticesOf(quiet.id)).map((n) => n.event)).toEqual(['evt_1'])
  expect((await noticesOf(keen.id)).map((n) => n.kind ?? n.event)).toEqual(['waiting', 'evt_1'])
})

it('gives routine runs’ notices to an operator who chose before there were any, until they choose again', async () => {
  const early = await store.addSender({
    name: 'early',
    tokenHash: 'hash-e',
    status: 'allowed',
    operator: true,
  })
  const now = await store.addSender({ name: 'now', tokenHash: 'hash-n', status: 'allowed', operator: true })
  // As a hub before routine notices remembered a choice of waits only.
  await store.remember('hub', 'notice-choice', early.id, { kinds: ['waiting'] }, Date.now())
  await hub.decisions.chooseNotices(now.id, ['waiting'])

  expect(await hub.decisions.noticeChoice(early.id)).toEqual([
    'waiting',
    'run-started',
    'run-ended',
    'budget',
  ])
  expect(await hub.decisions.noticeChoice(now.id)).toEqual(['waiting'])
  await hub.decisions.toOperators({
    kind: 'notice',
    body: { kind: 'run-ended', session: 'session:ses_1', text: 'run done' },
  })
  await hub.decisions.toOperators({
    kind: 'notice',
    body: { kind: 'finished', session: 's1', text: 'finished' },
  })
  expect((await noticesOf(early.id)).map((n) => n.kind)).toEqual(['run-ended'])
  expect(await noticesOf(now.id)).toEqual([])
})
