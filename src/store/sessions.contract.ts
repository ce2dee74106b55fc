// The SessionStore's contract: a driven session's record, and its stream as numbered lines.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

const PAGE = { limit: 100, maxChars: 1_000_000, maxLineChars: 100_000 }

export function describeSessionStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('SessionStore', () => {
    it('keeps what a session’s usage counts against: its project, routine and who started it', async ({
      store,
    }) => {
      await store.createSession({ id: 'ses_1', cwd: '/work', config: {}, status: 'running' })
      await store.createSession({
        id: 'ses_2',
        cwd: '/work',
        config: {},
        status: 'running',
        project: 'api',
        routine: 'triage',
        startedBy: 'ann',
      })
      expect(await store.getSession('ses_1')).toMatchObject({ project: null, routine: null, startedBy: null })
      expect(await store.getSession('ses_2')).toMatchObject({
        project: 'api',
        routine: 'triage',
        startedBy: 'ann',
      })
    })

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

    it('keeps the first prompt a session started with, and the title a person gives it', async ({
      store,
      reopen,
    }) => {
      await store.createSession({
        id: 'ses_1',
        cwd: '/work/api',
        config: {},
        status: 'running',
        firstPrompt: 'fix the login bug',
      })
      await store.createSession({ id: 'ses_2', cwd: '/work', config: {}, status: 'running' })
      expect(await store.getSession('ses_1')).toMatchObject({ firstPrompt: 'fix the login bug', title: null })
      await store.updateSession('ses_1', { title: 'login' })
      const reopened = await reopen()
      expect(await reopened.getSession('ses_1')).toMatchObject({
        firstPrompt: 'fix the login bug',
        title: 'login',
      })
      expect(await reopened.getSession('ses_2')).toMatchObject({ firstPrompt: null, title: null })
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
      expect((await store.sessionLines('ses_1', 0, PAGE)).lines).toEqual([])
      expect((await store.sessionLines('ses_2', 0, PAGE)).lines.map((l) => l.seq)).toEqual([1])
    })

    it('numbers each session’s lines from 1 and reads them back in pages', async ({ store }) => {
      expect(await store.appendSessionLine('ses_1', { type: 'system' })).toBe(1)
      expect(await store.appendSessionLine('ses_1', { type: 'assistant' })).toBe(2)
      expect(await store.appendSessionLine('ses_2', { type: 'system' })).toBe(1)
      expect(await store.appendSessionLine('ses_1', { type: 'result' })).toBe(3)
      const page = await store.sessionLines('ses_1', 1, { ...PAGE, limit: 1 })
      expect(page.lines.map((l) => [l.seq, l.line])).toEqual([[2, { type: 'assistant' }]])
      expect(page.more).toBe(true)
      const all = await store.sessionLines('ses_1', 0, PAGE)
      expect(all.lines.map((l) => l.seq)).toEqual([1, 2, 3])
      expect(all.more).toBe(false)
      expect(await store.sessionLines('ses_1', 3, PAGE)).toEqual({ lines: [], more: false })
    })

    it('ends a page at its characters, and gives an over-long line as its start and length', async ({
      store,
    }) => {
      const text = (n: number) => ({ type: 'assistant', text: 'x'.repeat(n) })
      const chars = (n: number) => JSON.stringify(text(n)).length
      await store.appendSessionLine('ses_1', text(100)) // 1
      await store.appendSessionLine('ses_1', text(100)) // 2
      await store.appendSessionLine('ses_1', text(5_000)) // 3: over maxLineChars
      await store.appendSessionLine('ses_1', text(100)) // 4
      const size = { limit: 10, maxChars: 2 * chars(100) + 10, maxLineChars: 1_000 }
      const first = await store.sessionLines('ses_1', 0, size)
      expect(first.lines.map((l) => l.seq)).toEqual([1, 2])
      expect(first.more).toBe(true)
      // One line always comes, whatever its size; a cut one counts as maxLineChars.
      const cut = await store.sessionLines('ses_1', 2, { ...size, maxChars: 10 })
      expect(cut.lines).toEqual([
        {
          seq: 3,
          at: expect.any(Number),
          line: {
            type: 'switchboard_cut',
            chars: chars(5_000),
            head: expect.stringMatching(/^\{"type":"assistant","text":"x{900}/),
          },
        },
      ])
      expect(cut.more).toBe(true)
      const rest = await store.sessionLines('ses_1', 2, { ...size, maxChars: 2_000 })
      expect(rest.lines.map((l) => l.seq)).toEqual([3, 4])
      expect(rest.more).toBe(false)
    })
  })
}
