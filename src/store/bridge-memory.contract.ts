// The BridgeMemoryStore's contract: kept across a restart, replaced and forgotten by key, counted
// without losing a count to a concurrent one, trimmed to the newest, and pruned when only passing.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

export function describeBridgeMemoryStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('BridgeMemoryStore', () => {
    it('keeps what a bridge remembers across a restart, each platform and kind apart', async ({
      store,
      reopen,
    }) => {
      await store.remember('telegram', 'route', 'chat_1', { target: 'session:ses_a' }, 1_000)
      await store.remember('telegram', 'session-chat', 'chat_1', { chat: 'other' }, 1_000)
      await store.remember('discord', 'route', 'chat_1', { target: 'work' }, 1_000)
      await store.remember('telegram', 'route', 'chat_1', { target: 'other' }, 2_000) // replaced
      const again = await reopen()
      expect(await again.recall('telegram', 'route', 'chat_1')).toEqual({ target: 'other' })
      expect(await again.recall('telegram', 'session-chat', 'chat_1')).toEqual({ chat: 'other' })
      expect(await again.recall('discord', 'route', 'chat_1')).toEqual({ target: 'work' })
      expect(await again.recall('slack', 'route', 'chat_1')).toBeNull()
      await again.forget('telegram', 'route', 'chat_1')
      expect(await again.recall('telegram', 'route', 'chat_1')).toBeNull()
      expect(await again.recall('discord', 'route', 'chat_1')).toEqual({ target: 'work' })
    })

    it('counts up from one, and two hubs counting at once both count', async ({ store }) => {
      expect(await store.countUp('telegram', 'replies', 'user:42', 1_000)).toBe(1)
      const counts = await Promise.all(
        Array.from({ length: 8 }, () => store.countUp('telegram', 'replies', 'user:42', 1_000)),
      )
      expect(counts.sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9])
      expect(await store.countUp('slack', 'replies', 'user:42', 1_000)).toBe(1)
      // Remembering again starts the count over.
      await store.remember('telegram', 'replies', 'user:42', {}, 2_000)
      expect(await store.countUp('telegram', 'replies', 'user:42', 2_000)).toBe(1)
    })

    it('keeps the newest entries of a kind when trimmed', async ({ store }) => {
      for (let i = 1; i <= 5; i++)
        await store.remember('slack', 'attachment', `file_${i}`, { n: i }, 1_000 * i)
      await store.remember('slack', 'route', 'chat_1', { target: 'work' }, 0)
      await store.remember('discord', 'attachment', 'file_1', { n: 1 }, 0)
      await store.trimMemory('slack', 'attachment', 2)
      const left = await Promise.all(
        [1, 2, 3, 4, 5].map((i) => store.recall('slack', 'attachment', `file_${i}`)),
      )
      expect(left).toEqual([null, null, null, { n: 4 }, { n: 5 }])
      expect(await store.recall('slack', 'route', 'chat_1')).toEqual({ target: 'work' })
      expect(await store.recall('discord', 'attachment', 'file_1')).toEqual({ n: 1 })
    })

    it('keeps a session’s thread both ways across a restart, and retention keeps it', async ({
      store,
      reopen,
    }) => {
      const thread = { chat: '-100200', thread: '17', title: 'app · fix the tests', closed: false }
      await store.remember('telegram', 'thread-session', '-100200:17', { session: 'session:ses_a' }, 1_000)
      await store.remember('telegram', 'thread', 'session:ses_a', thread, 1_000)
      await store.remember(
        'telegram',
        'thread-copy',
        'prompt:bqzmx',
        { chat: '-100200', messages: ['18'] },
        1_000,
      )
      await store.remember('discord', 'message-thread', '300:301', { chat: '302' }, 1_000)
      const again = await reopen()
      expect(await again.recall('discord', 'message-thread', '300:301')).toEqual({ chat: '302' })
      expect(await again.recall('telegram', 'thread', 'session:ses_a')).toEqual(thread)
      expect(await again.recall('telegram', 'thread-session', '-100200:17')).toEqual({
        session: 'session:ses_a',
      })
      expect(await again.recall('discord', 'thread', 'session:ses_a')).toBeNull()
      let deleted = 0
      for (let n = -1; n !== 0; deleted += n) n = await again.prune(5_000, 10)
      // The copy of a prompt only matters while it is answered, where a thread's message is while
      // Claude may react to it; the thread for as long as its session.
      expect(deleted).toBe(2)
      expect(await again.recall('telegram', 'thread-copy', 'prompt:bqzmx')).toBeNull()
      expect(await again.recall('discord', 'message-thread', '300:301')).toBeNull()
      expect(await again.recall('telegram', 'thread', 'session:ses_a')).toEqual(thread)
    })

    it('keeps a chat’s and a thread’s progress level across a restart, and retention keeps them', async ({
      store,
      reopen,
    }) => {
      await store.remember('telegram', 'progress', '-100200', { level: 'minimal' }, 1_000)
      await store.remember('telegram', 'progress', '-100200:17', { level: 'normal' }, 1_000)
      await store.remember('telegram', 'progress', '-100200:17', { level: 'full' }, 2_000) // changed
      const again = await reopen()
      let deleted = 0
      for (let n = -1; n !== 0; deleted += n) n = await again.prune(9_000, 10)
      expect(deleted).toBe(0)
      expect(await again.recall('telegram', 'progress', '-100200')).toEqual({ level: 'minimal' })
      expect(await again.recall('telegram', 'progress', '-100200:17')).toEqual({ level: 'full' })
      expect(await again.recall('slack', 'progress', '-100200')).toBeNull()
    })

    it('lets retention delete old attachments and counts, never a chat’s choices', async ({ store }) => {
      await store.remember('telegram', 'attachment', 'file_old', { n: 1 }, 1_000)
      await store.countUp('telegram', 'replies', 'code', 1_000)
      await store.remember('telegram', 'route', 'chat_1', { target: 'work' }, 1_000)
      await store.remember('telegram', 'session-chat', 'ses_1', { chat: 'chat_1' }, 1_000)
      await store.remember('telegram', 'attachment', 'file_new', { n: 2 }, 9_000)
      let deleted = 0
      for (let n = -1; n !== 0; deleted += n) n = await store.prune(5_000, 1)
      expect(deleted).toBe(2)
      expect(await store.recall('telegram', 'attachment', 'file_old')).toBeNull()
      expect(await store.countUp('telegram', 'replies', 'code', 9_000)).toBe(1)
      expect(await store.recall('telegram', 'route', 'chat_1')).toEqual({ target: 'work' })
      expect(await store.recall('telegram', 'session-chat', 'ses_1')).toEqual({ chat: 'chat_1' })
      expect(await store.recall('telegram', 'attachment', 'file_new')).toEqual({ n: 2 })
    })
  })
}
