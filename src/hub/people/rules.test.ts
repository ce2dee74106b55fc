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
    const base = { toolName: 'Bash', input: { command: 'npm test' }, createdBy: 'web-a', expiresAt: null }
    await store.addRule({ ...base, id: 'r_session', scope: 'session', scopeValue: 'ses_1' })
    await store.addRule({ ...base, id: 'r_folder', scope: 'folder', scopeValue: '/work/app' })
    const call = { command: 'npm test' }
    expect((await rules.allowing('Bash', call, { session: 'ses_1', folder: null }))?.id).toBe('r_session')
    expect((await rules.allowing('Bash', call, { session: 'ses_2', folder: '/work/app' }))?.id).toBe(
      'r_folder',
    )
    expect(await rules.allowing('Bash', call, { session: 'ses_2', folder: '/work/other' })).toBeNull()
    expect(
      await rules.allowing('Bash', { command: 'npm test; rm -rf /' }, { session: 'ses_1', folder: null }),
    ).toBeNull()
    expect(await rules.allowing('Write', call, { session: 'ses_1', folder: null })).toBeNull()
    await store.addRule({
      ...base,
      id: 'r_gone',
      scope: 'everywhere',
      scopeValue: null,
      expiresAt: Date.now() - 1,
    })
    expect(await rules.allowing('Bash', call, { session: 'ses_9', folder: null })).toBeNull()
    await store.close()
  })
})
