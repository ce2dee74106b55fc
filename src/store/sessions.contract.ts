// The SessionStore's contract: a driven session's record, and its stream as numbered lines.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

export function describeSessionStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('SessionStore', () => {
    it('creates a session, finds it by its own id or Claude Code’s, and records what changes', async ({
      store,
    }) => {
      const created = await store.createSession({
        id: 'ses_1',
        cwd: '/work',
        config: { model: 'opus' },
        status: 'running',
      })
      expect(created).toMatchObject({
        id: 'ses_1',
        claudeSessionId: null,
        cwd: '/work',
        config: { model: 'opus' },
        status: 'running',
        costUsd: 0,
        turns: 0,
        lastResult: null,
      })
      await store.updateSession('ses_1', {
        claudeSessionId: 'claude-1',
        status: 'idle',
        costUsd: 0.25,
        turns: 2,
        lastResult: 'done',
      })
      const updated = await store.getSession('claude-1')
      expect(updated).toMatchObject({
        id: 'ses_1',
        status: 'idle',
        costUsd: 0.25,
        turns: 2,
        lastResult: 'done',
      })
      expect(updated?.updatedAt).toBeGreaterThanOrEqual(created.updatedAt)
      expect(await store.getSession('ses_missing')).toBeNull()
      expect((await store.listSessions()).map((s) => s.id)).toEqual(['ses_1'])
    })

    it('keeps why a session stopped, and forgets a removed session with its lines', async ({ store }) => {
      await store.createSession({ id: 'ses_1', cwd: '/work', config: {}, status: 'running' })
      await store.createSession({ id: 'ses_2', cwd: '/work', config: {}, status: 'running' })
      await store.appendSessionLine('ses_1', { type: 'system' })
      await store.appendSessionLine('ses_2', { type: 'system' })
      await store.updateSession('ses_1', { status: 'error', reason: 'the CLI exited with code 1' })
      expect(await store.getSession('ses_1')).toMatchObject({
        status: 'error',
        reason: 'the CLI exited with code 1',
      })
      expect((await store.getSession('ses_2'))?.reason).toBeNull()

      expect(await store.removeSession('ses_1')).toBe(true)
      expect(await store.removeSession('ses_1')).toBe(false)
      expect(await store.getSession('ses_1')).toBeNull()
      expect(await store.sessionLines('ses_1', 0, 10)).toEqual([])
      expect((await store.sessionLines('ses_2', 0, 10)).map((l) => l.seq)).toEqual([1])
    })

    it('numbers each session’s lines from 1 and reads them back in pages', async ({ store }) => {
      expect(await store.appendSessionLine('ses_1', { type: 'system' })).toBe(1)
      expect(await store.appendSessionLine('ses_1', { type: 'assistant' })).toBe(2)
      expect(await store.appendSessionLine('ses_2', { type: 'system' })).toBe(1)
      expect(await store.appendSessionLine('ses_1', { type: 'result' })).toBe(3)
      const page = await store.sessionLines('ses_1', 1, 1)
      expect(page.map((l) => [l.seq, l.line])).toEqual([[2, { type: 'assistant' }]])
      expect((await store.sessionLines('ses_1', 0, 10)).map((l) => l.seq)).toEqual([1, 2, 3])
      expect(await store.sessionLines('ses_1', 3, 10)).toEqual([])
    })
  })
}
