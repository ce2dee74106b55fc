// The EventStore's contract: what any store must do with events, subscribers and their deliveries.
import { describe, expect } from 'vitest'
import { event, type OpenStore, publish, storeTest } from './contract.js'
import type { Store } from './store.js'

/** What waits for a subscriber, by content. */
async function contents(store: Store, subscriber: string): Promise<string[]> {
  return (await store.pendingDeliveries(subscriber, 0, 100)).map((e) => e.content)
}

export function describeEventStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('EventStore: durable delivery', () => {
    it('queues an event for every subscriber whose topics match, in order, until acknowledged', async ({
      store,
    }) => {
      await store.registerSubscriber('all', ['*'])
      await store.registerSubscriber('gh', ['github'])
      const [a, b] = await publish(store, [event('github', 'one'), event('alerts', 'two')])
      expect(a?.subscribers.sort()).toEqual(['all', 'gh'])
      expect(b?.subscribers).toEqual(['all'])
      expect((await store.pendingDeliveries('all', 0, 10)).map((e) => e.content)).toEqual(['one', 'two'])
      await store.ack('all', [a?.event.seq ?? 0])
      expect((await store.pendingDeliveries('all', 0, 10)).map((e) => e.content)).toEqual(['two'])
      expect((await store.pendingDeliveries('gh', 0, 10)).map((e) => e.content)).toEqual(['one'])
    })

    it('parks what nobody wants yet and gives it to a subscriber that registers wanting it', async ({
      store,
    }) => {
      await publish(store, [event('ci', 'early')])
      await store.registerSubscriber('other', ['github'])
      expect(await store.pendingDeliveries('other', 0, 10)).toEqual([])
      await store.registerSubscriber('ci-watcher', ['ci'])
      expect(await contents(store, 'ci-watcher')).toEqual(['early'])
    })

    it('gives a parked event to every subscriber that registers wanting it, not only the first', async ({
      store,
    }) => {
      await publish(store, [event('chat', 'hello'), event('t', 'for b', { target: 'b' })])
      await store.registerSubscriber('webhook:out_1', ['*'], { peer: false })
      await store.registerSubscriber('channel', ['chat'])
      expect(await contents(store, 'webhook:out_1')).toEqual(['hello'])
      expect(await contents(store, 'channel')).toEqual(['hello'])
      // A direct message was never parked: it waits for its one subscriber.
      expect(await contents(store, 'b')).toEqual(['for b'])
    })

    it('never gives a parked event twice to a subscriber that registers again', async ({ store }) => {
      const [parked] = await publish(store, [event('chat', 'hello')])
      await store.registerSubscriber('channel', ['chat'])
      await store.ack('channel', [parked?.event.seq ?? 0])
      await store.registerSubscriber('channel', ['chat']) // reconnects
      await store.registerSubscriber('channel', ['*']) // changes its topics
      expect(await contents(store, 'channel')).toEqual([])
    })

    it('offers a subscriber that registers again what was parked since, under its new topics', async ({
      store,
    }) => {
      await store.registerSubscriber('channel', ['ci'])
      await publish(store, [event('deploy', 'shipped')])
      expect(await contents(store, 'channel')).toEqual([])
      await store.registerSubscriber('channel', ['ci', 'deploy'])
      expect(await contents(store, 'channel')).toEqual(['shipped'])
    })

    it('gives a session what is about its project and the topics it names, and keeps the rest for a session that wants it', async ({
      store,
    }) => {
      const api = { scope: 'project' as const, keys: ['repo:acme/api', 'folder:/w/api'] }
      await store.registerSubscriber('api', ['*'], api)
      await store.registerSubscriber('web', ['*', 'ci'], { scope: 'project', keys: ['repo:acme/web'] })
      await store.registerSubscriber('webhook:out_1', ['*'], { peer: false })
      const [forApi, forWeb, ci, nobody] = await publish(store, [
        event('github.push', 'api pushed', { about: ['repo:acme/api'] }),
        event('github.push', 'web pushed', { about: ['repo:acme/web'] }),
        event('ci', 'build failed'),
        event('github.push', 'docs pushed', { about: ['repo:acme/docs'] }),
      ])
      expect(forApi?.subscribers.sort()).toEqual(['api', 'webhook:out_1'])
      expect(forWeb?.subscribers.sort()).toEqual(['web', 'webhook:out_1'])
      // A topic a session names it gets whatever the event is about; `*` only its own project.
      expect(ci?.subscribers.sort()).toEqual(['web', 'webhook:out_1'])
      expect(nobody?.subscribers).toEqual(['webhook:out_1'])
      expect(await contents(store, 'api')).toEqual(['api pushed'])
      expect(await store.getSubscriber('api')).toMatchObject({ topics: ['*'], ...api })
    })

    it('parks an event about a project no session has, says what it waits for, and gives it to the first session of that project', async ({
      store,
    }) => {
      const [parked] = await publish(store, [
        event('github.push', 'docs pushed', { about: ['repo:acme/docs'] }),
      ])
      expect(parked?.subscribers).toEqual([])
      expect(await store.parkedAbout(parked?.event.id ?? '')).toEqual(['repo:acme/docs'])
      await store.registerSubscriber('api', ['*'], { scope: 'project', keys: ['repo:acme/api'] })
      expect(await contents(store, 'api')).toEqual([])
      await store.registerSubscriber('docs', ['*'], { scope: 'project', keys: ['repo:acme/docs'] })
      expect(await contents(store, 'docs')).toEqual(['docs pushed'])
      const [delivered] = await publish(store, [event('x', 'to api', { target: 'api' })])
      expect(await store.parkedAbout(delivered?.event.id ?? '')).toBeNull()
    })

    it('stores an event once per idempotency key, also within one commit', async ({ store }) => {
      const [x, y] = await publish(store, [
        event('t', 'first', { idempotencyKey: 'k' }),
        event('t', 'retry', { idempotencyKey: 'k' }),
      ])
      expect(y?.duplicate).toBe(true)
      expect(y?.event.id).toBe(x?.event.id)
    })

    it('treats a retry staged before the first try was written as its duplicate', async ({ store }) => {
      const [a] = await store.stage([event('t', 'try', { idempotencyKey: 'k' })])
      const [b] = await store.stage([event('t', 'retry', { idempotencyKey: 'k' })])
      expect(b).toMatchObject({ duplicate: true, event: { id: a?.event.id } })
      await store.write([a, b].filter((s) => s !== undefined))
      const [c] = await publish(store, [event('t', 'later retry', { idempotencyKey: 'k' })])
      expect(c).toMatchObject({ duplicate: true, event: { id: a?.event.id, content: 'try' } })
    })

    it('gives a retry the id of the first try, even when a restart lost the first try', async ({
      store,
      reopen,
    }) => {
      // Shown to a subscriber, then the hub died before the write: nothing of it was stored.
      const [shown] = await store.stage([event('t', 'try', { idempotencyKey: 'k' })])
      const after = await reopen()
      const [retry] = await after.stage([event('t', 'retry', { idempotencyKey: 'k' })])
      expect(retry?.duplicate).toBe(false)
      expect(retry?.event.id).toBe(shown?.event.id)
    })

    it('keeps one sender’s idempotency keys apart from another’s', async ({ store }) => {
      const [alice] = await publish(store, [
        event('chat', 'from alice', { sender: 'alice', idempotencyKey: '1' }),
      ])
      const [bob] = await publish(store, [event('chat', 'from bob', { sender: 'bob', idempotencyKey: '1' })])
      const [again] = await publish(store, [
        event('chat', 'alice again', { sender: 'alice', idempotencyKey: '1' }),
      ])
      expect(bob?.duplicate).toBe(false)
      expect(bob?.event.id).not.toBe(alice?.event.id)
      expect(again).toMatchObject({ duplicate: true, event: { id: alice?.event.id } })
    })

    it('gives an event staged before a subscriber registered to that subscriber too', async ({ store }) => {
      const staged = await store.stage([event('ci', 'built')])
      expect(staged[0]?.subscribers).toEqual([])
      await store.registerSubscriber('ci-watcher', ['ci'])
      await store.write(staged)
      expect(staged[0]?.subscribers).toEqual(['ci-watcher'])
      expect((await store.pendingDeliveries('ci-watcher', 0, 10)).map((e) => e.content)).toEqual(['built'])
    })

    it('sends a direct message to its subscriber only, even before that subscriber connects', async ({
      store,
    }) => {
      await store.registerSubscriber('a', ['*'])
      await publish(store, [event('t', 'for b', { target: 'b' })])
      expect(await store.pendingDeliveries('a', 0, 10)).toEqual([])
      expect((await store.pendingDeliveries('b', 0, 10)).map((e) => e.content)).toEqual(['for b'])
    })

    it('acknowledges exactly the seqs named, never the ones between', async ({ store }) => {
      await store.registerSubscriber('s', ['*'])
      const [one, , three] = await publish(store, [event('t', 'one'), event('t', 'two'), event('t', 'three')])
      await store.ack('s', [one?.event.seq ?? 0, three?.event.seq ?? 0])
      expect((await store.pendingDeliveries('s', 0, 10)).map((e) => e.content)).toEqual(['two'])
    })

    it('reads a backlog in pages: after a seq, at most a limit', async ({ store }) => {
      await store.registerSubscriber('s', ['*'])
      const [one] = await publish(store, [event('t', 'one'), event('t', 'two'), event('t', 'three')])
      const page = await store.pendingDeliveries('s', one?.event.seq ?? 0, 1)
      expect(page.map((e) => e.content)).toEqual(['two'])
    })
  })

  describe('EventStore: subscribers', () => {
    it('lists each subscriber’s topics, whether peers may message it, and its pending deliveries', async ({
      store,
    }) => {
      await store.registerSubscriber('channel', ['*'])
      await store.registerSubscriber('session:a', ['ci'], { peer: false })
      await publish(store, [event('ci', 'built'), event('github', 'pushed')])
      const everything = { scope: 'everything', keys: [] }
      expect(await store.listSubscribers()).toEqual([
        { name: 'channel', topics: ['*'], ...everything, peer: true, pending: 2 },
        { name: 'session:a', topics: ['ci'], ...everything, peer: false, pending: 1 },
      ])
      expect(await store.getSubscriber('session:a')).toEqual({
        name: 'session:a',
        topics: ['ci'],
        ...everything,
        peer: false,
        pending: 1,
      })
      expect(await store.getSubscriber('nobody')).toBeNull()
      expect(await store.hasSubscriber('channel')).toBe(true)
      expect(await store.hasSubscriber('nobody')).toBe(false)
    })

    it('takes a subscriber’s new topics when it registers again', async ({ store }) => {
      await store.registerSubscriber('s', ['ci'])
      await store.registerSubscriber('s', ['github'], { peer: false })
      await publish(store, [event('ci', 'built'), event('github', 'pushed')])
      expect((await store.pendingDeliveries('s', 0, 10)).map((e) => e.content)).toEqual(['pushed'])
      expect(await store.getSubscriber('s')).toMatchObject({ topics: ['github'], peer: false })
    })

    it('forgets a removed subscriber and what waited for it, and nothing else', async ({ store }) => {
      await store.registerSubscriber('gone', ['ci'])
      await store.registerSubscriber('stays', ['ci'])
      await publish(store, [event('ci', 'built')])
      expect(await store.removeSubscriber('gone')).toBe(true)
      expect(await store.removeSubscriber('gone')).toBe(false)
      expect(await store.hasSubscriber('gone')).toBe(false)
      expect(await store.pendingDeliveries('gone', 0, 10)).toEqual([])
      await publish(store, [event('ci', 'again')])
      expect(await store.pendingDeliveries('gone', 0, 10)).toEqual([])
      expect((await store.pendingDeliveries('stays', 0, 10)).map((e) => e.content)).toEqual([
        'built',
        'again',
      ])
    })
  })

  describe('EventStore: the log people search', () => {
    it('finds events by text and source, newest first, a page at a time', async ({ store }) => {
      await publish(store, [
        event('ci', 'build 1 failed'),
        event('ci', 'build 2 passed', { source: 'github' }),
        event('ci', '100% done_now'),
        event('ci', 'build 3 FAILED'),
      ])
      const contents = (events: { content: string }[]) => events.map((e) => e.content)
      expect(contents(await store.searchEvents({ text: 'failed', limit: 10 }))).toEqual([
        'build 3 FAILED',
        'build 1 failed',
      ])
      expect(contents(await store.searchEvents({ source: 'github', limit: 10 }))).toEqual(['build 2 passed'])
      expect(contents(await store.searchEvents({ text: '0% d', limit: 10 }))).toEqual(['100% done_now'])
      expect(contents(await store.searchEvents({ text: '_', limit: 10 }))).toEqual(['100% done_now'])
      const [newest, next] = await store.searchEvents({ limit: 2 })
      expect(contents(await store.searchEvents({ beforeSeq: next?.seq, limit: 5 }))).toEqual([
        'build 2 passed',
        'build 1 failed',
      ])
      expect(newest?.content).toBe('build 3 FAILED')
    })
  })
}
