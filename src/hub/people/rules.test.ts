import { describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../store/sqlite/index.js'
import { canonicalJson, inputOf, Rules } from './rules.js'

describe('always-allow rules', () => {
  it('reads the same input the same, whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    )
    expect(canonicalJson({ command: 'ls' })).not.toBe(canonicalJson({ command: 'ls ' }))
  })

  it('takes a relay’s preview as its input only when it is whole JSON', () => {
    expect(inputOf({ input_preview: '{"command":"ls"}' })).toEqual({ command: 'ls' })
    expect(inputOf({ input_preview: '{"command":"ls -la /very/lo' })).toBeNull()
    expect(inputOf({ input: { file_path: '/x' } })).toEqual({ file_path: '/x' })
  })

  it('allows only the same call, in its scope, until it expires', async () => {
    const store = openSqliteStore(':memory:')
    const rules = new Rules(store)
    const base = {
      toolName: 'Bash',
      match: 'exact',
      input: { command: 'npm test' },
      pattern: null,
      effect: 'allow',
      createdBy: 'web-a',
      expiresAt: null,
    } as const
    await store.addRule({ ...base, id: 'r_session', scope: 'session', scopeValue: 'ses_1' })
    await store.addRule({ ...base, id: 'r_folder', scope: 'folder', scopeValue: '/work/app' })
    const call = { command: 'npm test' }
    expect(
      (await rules.answering('Bash', call, { session: 'ses_1', folder: null, startedBy: null }))?.id,
    ).toBe('r_session')
    expect(
      (await rules.answering('Bash', call, { session: 'ses_2', folder: '/work/app', startedBy: null }))?.id,
    ).toBe('r_folder')
    expect(
      await rules.answering('Bash', call, { session: 'ses_2', folder: '/work/other', startedBy: null }),
    ).toBeNull()
    expect(
      await rules.answering(
        'Bash',
        { command: 'npm test; rm -rf /' },
        { session: 'ses_1', folder: null, startedBy: null },
      ),
    ).toBeNull()
    expect(
      await rules.answering('Write', call, { session: 'ses_1', folder: null, startedBy: null }),
    ).toBeNull()
    await store.addRule({
      ...base,
      id: 'r_gone',
      scope: 'everywhere',
      scopeValue: null,
      expiresAt: Date.now() - 1,
    })
    expect(
      await rules.answering('Bash', call, { session: 'ses_9', folder: null, startedBy: null }),
    ).toBeNull()
    await store.close()
  })

  it('answers by pattern, a deny rule before any allow rule, in its scope', async () => {
    const store = openSqliteStore(':memory:')
    const rules = new Rules(store)
    const pattern = {
      toolName: 'Bash',
      input: null,
      createdBy: 'web-a',
      expiresAt: null,
      match: 'prefix',
    } as const
    await store.addRule({
      ...pattern,
      id: 'r_npm',
      pattern: 'npm test',
      effect: 'allow',
      scope: 'everywhere',
      scopeValue: null,
    })
    await store.addRule({
      ...pattern,
      id: 'r_all',
      pattern: 'rm',
      effect: 'allow',
      scope: 'everywhere',
      scopeValue: null,
    })
    await store.addRule({
      ...pattern,
      id: 'r_rm',
      match: 'glob',
      pattern: 'rm *',
      effect: 'deny',
      scope: 'folder',
      scopeValue: '/work/app',
    })
    const here = { session: 'ses_1', folder: '/work/app', startedBy: null }
    expect((await rules.answering('Bash', { command: 'npm test -- --watch' }, here))?.id).toBe('r_npm')
    expect(await rules.answering('Bash', { command: 'npm test; curl x | sh' }, here)).toBeNull()
    expect((await rules.answering('Bash', { command: 'rm -rf build' }, here))?.id).toBe('r_rm')
    expect(
      (
        await rules.answering(
          'Bash',
          { command: 'rm -rf build' },
          { session: 'ses_1', folder: '/elsewhere', startedBy: null },
        )
      )?.id,
    ).toBe('r_all')
    await store.close()
  })

  it('makes a pattern rule in its scope, and says what it would have matched', async () => {
    const store = openSqliteStore(':memory:')
    const rules = new Rules(store)
    for (const command of ['npm test -- --watch', 'npm test; curl x | sh', 'ls'])
      await store
        .openDecision({
          kind: 'permission',
          code: command,
          owner: 'ses_1',
          request: { tool_name: 'Bash', input: { command } },
          expiresAt: null,
        })
        .then((d) => store.answerDecision(d.id, { behavior: 'allow' }, 'web-a'))
    const wanted = {
      toolName: 'Bash',
      match: 'prefix',
      pattern: 'npm test',
      effect: 'allow',
      scope: 'everywhere',
      scopeValue: null,
      expiresInMinutes: null,
    } as const
    const { matched, read } = await rules.preview(wanted, { last: 50 })
    expect(read).toBe(3)
    expect(matched.map((d) => d.request.input)).toEqual([{ command: 'npm test -- --watch' }])
    const rule = await rules.make(wanted, 'web-a')
    expect(rule).toMatchObject({
      match: 'prefix',
      pattern: 'npm test',
      effect: 'allow',
      input: null,
      expiresAt: null,
    })
    await expect(rules.make({ ...wanted, scope: 'folder', scopeValue: null }, 'web-a')).rejects.toThrow(
      'a project rule names its folder',
    )
    await store.close()
  })

  it('keeps an operator rule to the sessions its operator started, its maker unless it names one', async () => {
    const store = openSqliteStore(':memory:')
    const rules = new Rules(store)
    const wanted = {
      toolName: 'Bash',
      match: 'prefix',
      pattern: 'npm test',
      effect: 'allow',
      scope: 'operator',
      expiresInMinutes: null,
    } as const
    const alices = await rules.make(wanted, 'alice')
    expect(alices).toMatchObject({ scope: 'operator', scopeValue: 'alice' })
    const call = { command: 'npm test' }
    const site = (startedBy: string | null) => ({ session: 'ses_1', folder: '/work/app', startedBy })
    expect((await rules.answering('Bash', call, site('alice')))?.id).toBe(alices.id)
    expect(await rules.answering('Bash', call, site('bob'))).toBeNull()
    // A terminal session nobody started through the hub is no one's.
    expect(await rules.answering('Bash', call, site(null))).toBeNull()
    const forBob = await rules.make({ ...wanted, scopeValue: 'bob' }, 'alice')
    expect((await rules.answering('Bash', call, site('bob')))?.id).toBe(forBob.id)

    // Previewed, it counts only the prompts of sessions its operator started.
    for (const [owner, command] of [
      ['ses_a', 'npm test -- --watch'],
      ['ses_b', 'npm test -- --run'],
    ] as const)
      await store
        .openDecision({
          kind: 'permission',
          code: owner,
          owner,
          request: { tool_name: 'Bash', input: { command } },
          expiresAt: null,
        })
        .then((d) => store.answerDecision(d.id, { behavior: 'allow' }, 'alice'))
    // "Always allow…" on a prompt, for the sessions I start: the maker is the operator.
    const prompt = await store.openDecision({
      kind: 'permission',
      code: 'p1',
      owner: 'ses_a',
      request: { tool_name: 'Bash', input: { command: 'make' } },
      expiresAt: null,
    })
    const fromPrompt = await rules.fromDecision(prompt, 'operator', {
      folder: '/work/app',
      expiresInMinutes: null,
      by: 'carol',
    })
    expect(fromPrompt).toMatchObject({ scope: 'operator', scopeValue: 'carol', match: 'exact' })
    await store.answerDecision(prompt.id, { behavior: 'allow' }, 'carol')
    const startedByOf = async (owner: string) => (owner === 'ses_a' ? 'alice' : 'bob')
    const { matched } = await rules.preview(wanted, { startedByOf, by: 'alice' })
    expect(matched.map((d) => d.owner)).toEqual(['ses_a'])
    await store.close()
  })
})
