import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { NewEvent } from '../../core/event.js'
import { openSqliteStore, type SqliteStore } from './index.js'

let store: SqliteStore
beforeEach(() => {
  store = openSqliteStore(':memory:')
})
afterEach(async () => {
  await store.close()
})

/** Stages and writes, as the hub does. */
async function publish(events: NewEvent[]) {
  const staged = await store.stage(events)
  await store.write(staged)
  return staged
}

const event = (topic: string, content: string, extra: Partial<NewEvent> = {}): NewEvent => ({
  topic,
  source: 'test',
  sender: null,
  chat_id: null,
  target: null,
  content,
  meta: {},
  idempotencyKey: null,
  ...extra,
})

describe('durable delivery', () => {
  it('queues an event for every subscriber whose topics match, in order, until acknowledged', async () => {
    await store.registerSubscriber('all', ['*'])
    await store.registerSubscriber('gh', ['github'])
    const [a, b] = await publish([event('github', 'one'), event('alerts', 'two')])
    expect(a?.subscribers.sort()).toEqual(['all', 'gh'])
    expect(b?.subscribers).toEqual(['all'])
    expect((await store.pendingDeliveries('all', 0, 10)).map((e) => e.content)).toEqual(['one', 'two'])
    await store.ack('all', [a?.event.seq ?? 0])
    expect((await store.pendingDeliveries('all', 0, 10)).map((e) => e.content)).toEqual(['two'])
    expect((await store.pendingDeliveries('gh', 0, 10)).map((e) => e.content)).toEqual(['one'])
  })

  it('parks what nobody wants yet and gives it to the first subscriber that does', async () => {
    await publish([event('ci', 'early')])
    await store.registerSubscriber('other', ['github'])
    expect(await store.pendingDeliveries('other', 0, 10)).toEqual([])
    await store.registerSubscriber('ci-watcher', ['ci'])
    expect((await store.pendingDeliveries('ci-watcher', 0, 10)).map((e) => e.content)).toEqual(['early'])
  })

  it('stores an event once per idempotency key, also within one commit', async () => {
    const [x, y] = await publish([
      event('t', 'first', { idempotencyKey: 'k' }),
      event('t', 'retry', { idempotencyKey: 'k' }),
    ])
    expect(y?.duplicate).toBe(true)
    expect(y?.event.id).toBe(x?.event.id)
  })

  it('never gives a seq it handed out to another event, even when the write fails', async () => {
    await store.registerSubscriber('live', ['*'])
    const [first] = await publish([event('t', 'first')])
    const [shown] = await store.stage([event('t', 'shown to subscribers, then its write failed')])
    if (!first || !shown) throw new Error('nothing staged')
    // As if another writer had taken the seq: the transaction fails on the primary key.
    const clash = { ...shown, event: { ...shown.event, seq: first.event.seq } }
    await expect(store.write([clash])).rejects.toThrow(/UNIQUE|PRIMARY/)
    const [next] = await publish([event('t', 'second')])
    expect(next?.event.seq).toBeGreaterThan(shown.event.seq)
    expect((await store.pendingDeliveries('live', 0, 10)).map((e) => e.content)).toEqual(['first', 'second'])
  })

  it('treats a retry staged before the first try was written as its duplicate', async () => {
    const [a] = await store.stage([event('t', 'try', { idempotencyKey: 'k' })])
    const [b] = await store.stage([event('t', 'retry', { idempotencyKey: 'k' })])
    expect(b).toMatchObject({ duplicate: true, event: { id: a?.event.id } })
    await store.write([a, b].filter((s) => s !== undefined))
    const [c] = await publish([event('t', 'later retry', { idempotencyKey: 'k' })])
    expect(c).toMatchObject({ duplicate: true, event: { id: a?.event.id, content: 'try' } })
  })

  it('gives a retry the id of the first try, even when a restart lost the first try', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-store-'))
    const file = join(dir, 'switchboard.db')
    const before = openSqliteStore(file)
    // Shown to a subscriber, then the hub died before the write: nothing of it is on disk.
    const [shown] = await before.stage([event('t', 'try', { idempotencyKey: 'k' })])
    await before.close()
    const after = openSqliteStore(file)
    const [retry] = await after.stage([event('t', 'retry', { idempotencyKey: 'k' })])
    await after.close()
    rmSync(dir, { recursive: true, force: true })
    expect(retry?.duplicate).toBe(false)
    expect(retry?.event.id).toBe(shown?.event.id)
  })

  it('keeps one sender’s idempotency keys apart from another’s', async () => {
    const [alice] = await publish([event('chat', 'from alice', { sender: 'alice', idempotencyKey: '1' })])
    const [bob] = await publish([event('chat', 'from bob', { sender: 'bob', idempotencyKey: '1' })])
    const [again] = await publish([event('chat', 'alice again', { sender: 'alice', idempotencyKey: '1' })])
    expect(bob?.duplicate).toBe(false)
    expect(bob?.event.id).not.toBe(alice?.event.id)
    expect(again).toMatchObject({ duplicate: true, event: { id: alice?.event.id } })
  })

  it('gives an event staged before a subscriber registered to that subscriber too', async () => {
    const staged = await store.stage([event('ci', 'built')])
    expect(staged[0]?.subscribers).toEqual([])
    await store.registerSubscriber('ci-watcher', ['ci'])
    await store.write(staged)
    expect(staged[0]?.subscribers).toEqual(['ci-watcher'])
    expect((await store.pendingDeliveries('ci-watcher', 0, 10)).map((e) => e.content)).toEqual(['built'])
  })

  it('sends a direct message to its subscriber only, even before that subscriber connects', async () => {
    await store.registerSubscriber('a', ['*'])
    await publish([event('t', 'for b', { target: 'b' })])
    expect(await store.pendingDeliveries('a', 0, 10)).toEqual([])
    expect((await store.pendingDeliveries('b', 0, 10)).map((e) => e.content)).toEqual(['for b'])
  })
})

describe('retention', () => {
  it('deletes what is old and needed by nobody, and keeps what a subscriber still waits for', async () => {
    await store.registerSubscriber('away', ['waiting'])
    await store.registerSubscriber('here', ['*'])
    const old = await publish([event('done', 'acked long ago'), event('waiting', 'still owed to away')])
    await store.ack(
      'here',
      old.map((s) => s.event.seq),
    )
    await store.addOutbox('snd_1', 'reply', { text: 'old reply' })
    const open = await store.openDecision({
      kind: 'permission',
      code: 'abcde',
      owner: 's',
      request: {},
      expiresAt: null,
    })
    const answered = await store.openDecision({
      kind: 'permission',
      code: 'fghij',
      owner: 's',
      request: {},
      expiresAt: null,
    })
    await store.answerDecision(answered.id, { behavior: 'allow' }, 'op')
    await store.appendSessionLine('ses_1', { type: 'result' })
    const [newest] = await publish([event('done', 'newest')])
    await store.ack('here', [newest?.event.seq ?? 0])

    // Everything so far counts as old; the newest event stays so seqs only grow.
    let deleted = 0
    for (let n = -1; n !== 0; deleted += n) n = await store.prune(Date.now() + 1, 2)
    expect(deleted).toBe(4)
    expect((await store.pendingDeliveries('away', 0, 10)).map((e) => e.content)).toEqual([
      'still owed to away',
    ])
    expect(await store.outboxFor('snd_1', 0)).toEqual([])
    expect((await store.getDecision(open.id))?.status).toBe('open')
    expect(await store.getDecision(answered.id)).toBeNull()
    expect(await store.sessionLines('ses_1', 0, 10)).toEqual([])
    const [next] = await publish([event('done', 'after pruning')])
    expect(next?.event.seq).toBeGreaterThan(newest?.event.seq ?? Infinity)
  })

  it('keeps everything younger than the cut-off', async () => {
    await publish([event('t', 'one'), event('t', 'two')])
    await store.addOutbox('snd_1', 'reply', { text: 'fresh' })
    expect(await store.prune(Date.now() - 60_000, 100)).toBe(0)
  })
})

describe('decisions', () => {
  it('lets the first answer win and records who gave it', async () => {
    const d = await store.openDecision({
      kind: 'permission',
      code: 'abcde',
      owner: 's',
      request: {},
      expiresAt: null,
    })
    const first = await store.answerDecision(d.id, { behavior: 'allow' }, 'alice')
    const second = await store.answerDecision(d.id, { behavior: 'deny' }, 'bob')
    expect(first).toMatchObject({ status: 'answered', answeredBy: 'alice', answer: { behavior: 'allow' } })
    expect(second).toBeNull()
  })

  it('expires decisions whose time is up', async () => {
    await store.openDecision({ kind: 'pairing', code: 'c1', owner: 's', request: {}, expiresAt: 1000 })
    expect(await store.countOpen('pairing', 999)).toBe(1)
    expect(await store.countOpen('pairing', 1000)).toBe(0)
    expect((await store.expireDecisions(1000)).map((d) => d.code)).toEqual(['c1'])
    expect(await store.openDecisionsByCode('pairing', 'c1', 0)).toEqual([])
  })
})
