// Rules by pattern through the API as the dashboard calls it: previewed against the prompts already
// answered, saved, listed; a rule that cannot work refused in one line naming why.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` }
const post = (path: string, body: unknown) =>
  world.request('POST', path, { headers: auth, body: body as object })

async function answered(command: string, owner = 'ses_1') {
  const store = world.parts.hub.store
  const d = await store.openDecision({
    kind: 'permission',
    code: command,
    owner,
    request: { tool_name: 'Bash', input: { command } },
    expiresAt: null,
  })
  await store.answerDecision(d.id, { behavior: 'allow' }, 'ann')
}

const npmTest = { toolName: 'Bash', match: 'prefix', pattern: 'npm test', effect: 'allow' }

describe('POST /api/rules/preview and /api/rules/patterns', () => {
  it('lists the answered prompts a rule would have matched, then saves it', async () => {
    await answered('npm test -- --watch')
    await answered('npm test; curl x | sh')
    await answered('ls', 'ses_2')
    const preview = await post('/api/rules/preview', npmTest)
    expect(preview.status).toBe(200)
    expect((preview.json.matched as { request: { input: unknown } }[]).map((d) => d.request.input)).toEqual([
      { command: 'npm test -- --watch' },
    ])
    expect(preview.json.read).toBe(3)

    const made = await post('/api/rules/patterns', { ...npmTest, expiresInMinutes: 60 })
    expect(made.status).toBe(201)
    expect(made.json.rule).toMatchObject({
      match: 'prefix',
      pattern: 'npm test',
      effect: 'allow',
      scope: 'everywhere',
    })
    const listed = await world.request('GET', '/api/rules', { headers: auth })
    expect((listed.json.rules as { pattern: string }[]).map((r) => r.pattern)).toEqual(['npm test'])
  })

  it('refuses a rule that cannot work in one line', async () => {
    const wrong = await post('/api/rules/patterns', { ...npmTest, toolName: 'Write' })
    expect(wrong.status).toBe(400)
    expect(wrong.json.error).toContain('a prefix rule is for a shell tool')
    const unscoped = await post('/api/rules/preview', { ...npmTest, scope: 'session' })
    expect(unscoped.status).toBe(400)
    expect(unscoped.json.error).toContain('a session rule names its session')
  })
})
