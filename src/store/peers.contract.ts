// The PeerStore's contract: aliases, rooms, and dead letters.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

export function describePeerStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('PeerStore', () => {
    it('points an alias at the last peer to claim it', async ({ store }) => {
      await store.setAlias('reviewer', 'session:a')
      await store.setAlias('lead', 'session:a')
      await store.setAlias('reviewer', 'session:b')
      expect(await store.resolveAlias('reviewer')).toBe('session:b')
      expect(await store.aliasesOf('session:a')).toEqual(['lead'])
      expect(await store.aliasesOf('session:b')).toEqual(['reviewer'])
      expect(await store.resolveAlias('nobody')).toBeNull()
    })

    it('keeps room members once each, until they leave', async ({ store }) => {
      await store.joinRoom('build', 'session:b')
      await store.joinRoom('build', 'session:a')
      await store.joinRoom('build', 'session:a')
      await store.joinRoom('deploy', 'session:a')
      expect(await store.roomMembers('build')).toEqual(['session:a', 'session:b'])
      expect(await store.roomsOf('session:a')).toEqual(['build', 'deploy'])
      await store.leaveRoom('build', 'session:a')
      expect(await store.roomMembers('build')).toEqual(['session:b'])
      expect(await store.roomsOf('session:a')).toEqual(['deploy'])
    })

    it('lists dead letters newest first, of one kind when asked', async ({ store }) => {
      const lost = await store.addDeadLetter({
        kind: 'peer',
        target: 'nobody',
        payload: { text: 'hello?' },
        reason: 'no such peer',
      })
      const failed = await store.addDeadLetter({
        kind: 'webhook',
        target: 'ci',
        payload: { event: 'ev_1' },
        reason: 'HTTP 500',
      })
      expect(await store.listDeadLetters()).toEqual([failed, lost])
      expect(await store.listDeadLetters('peer')).toEqual([lost])
    })
  })
}
