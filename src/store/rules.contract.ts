// The RuleStore's contract: rules kept, found by tool while they last, counted, removed.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

export function describeRuleStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('RuleStore', () => {
    it('finds a tool’s rules until they expire, counts their uses, and removes them', async ({ store }) => {
      const input = { command: 'npm test' }
      const lasting = await store.addRule({
        id: 'rule_1',
        toolName: 'Bash',
        match: 'exact',
        input,
        pattern: null,
        effect: 'allow',
        scope: 'folder',
        scopeValue: '/work/app',
        expiresAt: null,
        createdBy: 'web-abc',
      })
      await store.addRule({
        id: 'rule_2',
        toolName: 'Bash',
        match: 'exact',
        input,
        pattern: null,
        effect: 'allow',
        scope: 'everywhere',
        scopeValue: null,
        expiresAt: 2_000,
        createdBy: 'web-abc',
      })
      await store.addRule({
        id: 'rule_3',
        toolName: 'Write',
        match: 'exact',
        input: {},
        pattern: null,
        effect: 'allow',
        scope: 'session',
        scopeValue: 'ses_1',
        expiresAt: null,
        createdBy: 'cli',
      })
      expect(lasting).toMatchObject({ uses: 0, input })
      expect((await store.rulesFor('Bash', 1_000)).map((r) => r.id)).toEqual(['rule_1', 'rule_2'])
      expect((await store.rulesFor('Bash', 3_000)).map((r) => r.id)).toEqual(['rule_1'])
      await store.countRuleUse('rule_1')
      await store.countRuleUse('rule_1')
      expect((await store.listRules()).find((r) => r.id === 'rule_1')?.uses).toBe(2)
      expect(await store.removeRule('rule_1')).toBe(true)
      expect(await store.removeRule('rule_1')).toBe(false)
      expect((await store.listRules()).map((r) => r.id)).toEqual(['rule_2', 'rule_3'])
    })

    it('keeps a pattern rule’s kind, pattern and effect, with no input', async ({ store }) => {
      const made = await store.addRule({
        id: 'rule_deny',
        toolName: 'Bash',
        match: 'glob',
        input: null,
        pattern: 'rm *',
        effect: 'deny',
        scope: 'everywhere',
        scopeValue: null,
        expiresAt: null,
        createdBy: 'web-abc',
      })
      const [found] = await store.rulesFor('Bash', 1_000)
      expect(found).toEqual(made)
      expect(found).toMatchObject({ match: 'glob', input: null, pattern: 'rm *', effect: 'deny' })
    })

    it('keeps a rule for the sessions one operator starts', async ({ store }) => {
      const made = await store.addRule({
        id: 'rule_alice',
        toolName: 'Bash',
        match: 'prefix',
        input: null,
        pattern: 'npm test',
        effect: 'allow',
        scope: 'operator',
        scopeValue: 'alice',
        expiresAt: null,
        createdBy: 'alice',
      })
      expect(await store.rulesFor('Bash', 1_000)).toEqual([made])
      expect(made).toMatchObject({ scope: 'operator', scopeValue: 'alice' })
    })
  })
}
