// The AccessStore's contract: sources, senders and their tokens, chats, and each sender's outbox.
import { describe, expect } from 'vitest'
import type { OutboxMessage } from '../core/outbox.js'
import { type OpenStore, storeTest } from './contract.js'

const reply = (text: string): OutboxMessage => ({
  kind: 'reply',
  body: { chat_id: 'chat_1', text, from: 'api', at: 1 },
})
const prompt = (code: string): OutboxMessage => ({
  kind: 'permission',
  body: { id: code, session: 'api', tool_name: 'Bash', text: `api: Bash: ls — reply "yes ${code}"` },
})

export function describeAccessStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('AccessStore', () => {
    it('keeps what kind of sender each is and when it expires, and drops the expired ones', async ({
      store,
    }) => {
      const token = await store.addSender({
        name: 'alice',
        tokenHash: 'h1',
        status: 'allowed',
        operator: false,
      })
      const browser = await store.addSender({
        name: 'web-abcdef',
        tokenHash: 'h2',
        status: 'allowed',
        operator: true,
        kind: 'browser',
        expiresAt: 5_000,
      })
      expect(token).toMatchObject({ kind: 'token', expiresAt: null })
      expect(await store.senderByToken('h2')).toEqual(browser)
      expect(browser).toMatchObject({ kind: 'browser', expiresAt: 5_000 })
      expect(await store.dropExpiredSenders(4_999)).toEqual([])
      expect((await store.dropExpiredSenders(5_000)).map((s) => s.name)).toEqual(['web-abcdef'])
      expect((await store.listSenders()).map((s) => s.name)).toEqual(['alice'])
    })

    it('keeps webhook sources by name', async ({ store }) => {
      const github = await store.addSource({
        name: 'github',
        topic: 'github',
        secret: 'whsec_1',
        deliveryHeader: 'X-GitHub-Delivery',
      })
      await store.addSource({ name: 'alerts', topic: 'alerts', secret: 'whsec_2', deliveryHeader: null })
      expect(await store.getSource('github')).toEqual(github)
      expect((await store.listSources()).map((s) => s.name)).toEqual(['alerts', 'github'])
      expect(await store.removeSource('github')).toBe(true)
      expect(await store.removeSource('github')).toBe(false)
      expect(await store.getSource('github')).toBeNull()
    })

    it('gives a source a new secret and keeps the rest of it', async ({ store }) => {
      const before = await store.addSource({
        name: 'ci',
        topic: 'builds',
        secret: 'whsec_old',
        deliveryHeader: 'X-Delivery',
        preset: 'generic',
        fieldMap: { content: '$.text' },
      })
      expect(await store.setSourceSecret('ci', 'whsec_new')).toBe(true)
      expect(await store.getSource('ci')).toEqual({ ...before, secret: 'whsec_new' })
      expect(await store.setSourceSecret('missing', 'whsec_x')).toBe(false)
      expect(await store.getSource('missing')).toBeNull()
    })

    it('keeps a source’s preset and field map, generic with none when not given', async ({ store }) => {
      await store.addSource({ name: 'plain', topic: 'plain', secret: 'whsec_1', deliveryHeader: null })
      const mapped = await store.addSource({
        name: 'form',
        topic: 'form',
        secret: 'whsec_2',
        deliveryHeader: null,
        preset: 'generic',
        fieldMap: { content: '$.alert.text', title: '$.alert.title' },
      })
      await store.addSource({
        name: 'gh',
        topic: 'github',
        secret: 'whsec_3',
        deliveryHeader: null,
        preset: 'github',
      })
      expect(await store.getSource('plain')).toMatchObject({ preset: 'generic', fieldMap: null })
      expect(await store.getSource('form')).toEqual(mapped)
      expect((await store.listSources()).map((s) => [s.name, s.preset])).toEqual([
        ['form', 'generic'],
        ['gh', 'github'],
        ['plain', 'generic'],
      ])
    })

    it('finds a sender by the hash of their token, by name and by id', async ({ store }) => {
      const alice = await store.addSender({
        name: 'alice',
        tokenHash: 'hash-a',
        status: 'allowed',
        operator: true,
      })
      await store.addSender({ name: 'bob', tokenHash: 'hash-b', status: 'pending', operator: false })
      expect(await store.senderByToken('hash-a')).toEqual(alice)
      expect(await store.senderByToken('hash-unknown')).toBeNull()
      expect(await store.senderByName('alice')).toEqual(alice)
      expect(await store.senderById(alice.id)).toEqual(alice)
      expect((await store.listSenders()).map((s) => s.name).sort()).toEqual(['alice', 'bob'])
    })

    it('removes a sender, whose token then lets nobody in', async ({ store }) => {
      const bob = await store.addSender({
        name: 'bob',
        tokenHash: 'hash-b',
        status: 'allowed',
        operator: false,
      })
      expect(await store.removeSender(bob.id)).toBe(true)
      expect(await store.senderByToken('hash-b')).toBeNull()
      expect(await store.removeSender(bob.id)).toBe(false)
    })

    it('changes a sender and counts only allowed operators', async ({ store }) => {
      await store.addSender({ name: 'alice', tokenHash: 'hash-a', status: 'allowed', operator: true })
      const bob = await store.addSender({
        name: 'bob',
        tokenHash: 'hash-b',
        status: 'pending',
        operator: true,
      })
      await store.addSender({ name: 'carol', tokenHash: 'hash-c', status: 'allowed', operator: false })
      expect(await store.countOperators()).toBe(1)
      await store.updateSender(bob.id, { status: 'allowed', name: 'robert' })
      expect(await store.countOperators()).toBe(2)
      await store.updateSender(bob.id, { operator: false })
      expect(await store.countOperators()).toBe(1)
      expect(await store.senderById(bob.id)).toMatchObject({
        name: 'robert',
        status: 'allowed',
        operator: false,
      })
    })

    it('gives a sender one chat per source', async ({ store }) => {
      const chat = await store.chatFor('telegram', 'snd_1')
      expect(await store.chatFor('telegram', 'snd_1')).toEqual(chat)
      expect((await store.chatFor('slack', 'snd_1')).id).not.toBe(chat.id)
      expect(await store.getChat(chat.id)).toEqual({ id: chat.id, source: 'telegram', senderId: 'snd_1' })
      expect(await store.getChat('chat_missing')).toBeNull()
    })

    it('hands out a sender’s replies not streamed yet, or those after an id', async ({ store }) => {
      const one = await store.addOutbox('snd_1', reply('one'))
      const two = await store.addOutbox('snd_1', reply('two'))
      await store.addOutbox('snd_2', reply('for someone else'))
      const three = await store.addOutbox('snd_1', prompt('abcde'))
      expect(await store.outboxFor('snd_1', null)).toEqual([one, two, three])
      await store.markStreamed([one.id, two.id])
      expect(await store.outboxFor('snd_1', null)).toEqual([three])
      expect((await store.outboxFor('snd_1', one.id)).map((item) => item.body)).toEqual([
        reply('two').body,
        prompt('abcde').body,
      ])
      expect(await store.outboxFor('snd_1', 0, 'reply')).toEqual([one, two])
      expect(await store.outboxFor('snd_1', one.id, 'permission')).toEqual([three])
      expect(await store.outboxFor('snd_1', null, 'reply')).toEqual([])
    })

    it('hands out one item of a sender’s by its id, and none of another sender’s', async ({ store }) => {
      await store.addOutbox('snd_1', reply('one'))
      const two = await store.addOutbox('snd_1', prompt('abcde'))
      await store.addOutbox('snd_1', reply('three'))
      const theirs = await store.addOutbox('snd_2', reply('for someone else'))
      expect(await store.outboxItem('snd_1', two.id)).toEqual(two)
      expect(await store.outboxItem('snd_1', theirs.id)).toBeNull()
      expect(await store.outboxItem('snd_1', theirs.id + 1)).toBeNull()
    })

    it('names a sender’s latest item, or 0 for a sender with none', async ({ store }) => {
      expect(await store.lastOutboxId('snd_1')).toBe(0)
      await store.addOutbox('snd_1', reply('one'))
      const two = await store.addOutbox('snd_1', reply('two'))
      await store.addOutbox('snd_2', reply('for someone else'))
      expect(await store.lastOutboxId('snd_1')).toBe(two.id)
    })

    it('keeps how a platform shows a sender, and changes it', async ({ store }) => {
      const ann = await store.addSender({
        name: 'telegram:42',
        tokenHash: 'hash-t',
        status: 'pending',
        operator: false,
        displayName: 'ann',
      })
      expect(await store.senderByName('telegram:42')).toMatchObject({ id: ann.id, displayName: 'ann' })
      await store.updateSender(ann.id, { displayName: 'Ann B' })
      expect((await store.senderById(ann.id))?.displayName).toBe('Ann B')
      const plain = await store.addSender({
        name: 'bob',
        tokenHash: 'hash-b',
        status: 'allowed',
        operator: false,
      })
      expect(plain.displayName).toBeNull()
    })

    it('marks an item shown with its receipt, and finds a sender’s items about a code', async ({ store }) => {
      const shown = await store.addOutbox('snd_1', prompt('abcde'))
      await store.addOutbox('snd_2', prompt('abcde'))
      await store.addOutbox('snd_1', reply('unrelated'))
      await store.markShown(shown.id, { chat: '42', messages: ['7'] })
      expect(await store.outboxFor('snd_1', null)).toHaveLength(1)
      const answered = await store.addOutbox('snd_1', {
        kind: 'decision',
        body: { id: 'abcde', kind: 'permission', session: 's', status: 'answered' },
      })
      const about = await store.outboxAbout('snd_1', 'abcde')
      expect(about.map((i) => [i.id, i.kind, i.receipt])).toEqual([
        [shown.id, 'permission', { chat: '42', messages: ['7'] }],
        [answered.id, 'decision', null],
      ])
      expect(await store.outboxAbout('snd_1', 'zzzzz')).toEqual([])
    })
  })
}
