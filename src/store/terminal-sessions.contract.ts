// The TerminalSessionStore's contract: a session heard of is recorded once, updated by what later
// hooks say (and only that), ended by SessionEnd and running again when heard from after.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

export function describeTerminalSessionStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('TerminalSessionStore', () => {
    it('records a session once, keeps what a later hook leaves out, and lists the newest first', async ({
      store,
      reopen,
    }) => {
      const seen = { sessionId: 's-1', folder: '/work/api', name: 'api' }
      expect(
        await store.sawTerminalSession({ ...seen, branch: 'main', model: 'opus', channel: true }, 1_000),
      ).toMatchObject({
        ...seen,
        branch: 'main',
        model: 'opus',
        channel: true,
        status: 'running',
        startedAt: 1_000,
      })
      await store.sawTerminalSession({ sessionId: 's-2', folder: '/work/web', name: 'web' }, 2_000)
      const again = await store.sawTerminalSession(seen, 3_000)
      expect(again).toMatchObject({
        branch: 'main',
        model: 'opus',
        channel: true,
        startedAt: 1_000,
        lastSeenAt: 3_000,
      })
      expect(await store.sawTerminalSession({ ...seen, channel: false }, 3_500)).toMatchObject({
        channel: false,
      })
      const reopened = await reopen()
      expect((await reopened.listTerminalSessions()).map((s) => s.sessionId)).toEqual(['s-1', 's-2'])
    })

    it('ends a session with its reason, and runs it again when it is heard from', async ({ store }) => {
      expect(await store.endTerminalSession('nobody', 'exit', 1)).toBe(false)
      await store.sawTerminalSession({ sessionId: 's-1', folder: '/w', name: 'w' }, 1_000)
      expect(await store.endTerminalSession('s-1', 'prompt_input_exit', 2_000)).toBe(true)
      expect(await store.getTerminalSession('s-1')).toMatchObject({
        status: 'ended',
        endedAt: 2_000,
        endReason: 'prompt_input_exit',
      })
      expect(
        await store.sawTerminalSession({ sessionId: 's-1', folder: '/w', name: 'w' }, 3_000),
      ).toMatchObject({
        status: 'running',
        endedAt: null,
        endReason: null,
      })
      expect(await store.getTerminalSession('s-2')).toBeNull()
    })

    it('keeps the title of its first prompt and its repository, once known', async ({ store }) => {
      const seen = { sessionId: 's-1', folder: '/a/api', name: 'api' }
      expect(await store.sawTerminalSession(seen, 1_000)).toMatchObject({ title: null, repository: null })
      await store.sawTerminalSession({ ...seen, title: 'fix the flaky test', repository: 'acme/api' }, 2_000)
      expect(
        await store.sawTerminalSession({ ...seen, title: 'a later prompt', repository: null }, 3_000),
      ).toMatchObject({ title: 'fix the flaky test', repository: 'acme/api' })
    })

    it('keeps the name a session was first recorded with, and finds sessions by name', async ({ store }) => {
      await store.sawTerminalSession({ sessionId: 's-1', folder: '/a/api', name: 'api' }, 1_000)
      await store.sawTerminalSession({ sessionId: 's-2', folder: '/b/api', name: 'api-2' }, 1_500)
      // A later hook naming another subscriber does not move the session to it.
      expect(
        await store.sawTerminalSession({ sessionId: 's-1', folder: '/a/api', name: 'api-2' }, 2_000),
      ).toMatchObject({ name: 'api', lastSeenAt: 2_000 })
      expect((await store.terminalSessionsNamed('api')).map((t) => t.sessionId)).toEqual(['s-1'])
      expect((await store.terminalSessionsNamed('api-2')).map((t) => t.sessionId)).toEqual(['s-2'])
      expect(await store.terminalSessionsNamed('web')).toEqual([])
    })
  })
}
