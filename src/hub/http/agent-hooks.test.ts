// Another agent's hook on the hook route, in-process over the home's socket: Codex's PermissionRequest
// (Claude Code's input, `x-switchboard-agent: codex`) opens a decision that names Codex, and an agent
// the hub does not know is refused with one line, which the installed hook turns into nothing.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

const input = {
  session_id: '01a2209a-dbaf-7000-8000-000000000001',
  turn_id: '01a2209a-dbd1-7000-8000-000000000002',
  transcript_path: '/tmp/rollout.jsonl',
  cwd: '/tmp/api',
  hook_event_name: 'PermissionRequest',
  model: 'gpt-5',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'touch x', description: 'make x' },
}

it('opens a decision naming Codex for its PermissionRequest', async () => {
  const hook = world.request('POST', '/api/claude-hooks/PermissionRequest', {
    headers: { 'x-switchboard-agent': 'codex', 'x-switchboard-timeout': '330' },
    body: input,
  })
  const { hub } = world.parts
  let open = await hub.store.listDecisions({ kind: 'permission', status: 'open' })
  for (let i = 0; i < 200 && open.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 20))
    open = await hub.store.listDecisions({ kind: 'permission', status: 'open' })
  }
  expect(open[0]?.request).toMatchObject({
    agent: 'codex',
    tool_name: 'Bash',
    project: 'api',
    source: 'hook',
  })
  // Denied from anywhere: the hook gets Codex's (Claude Code's) deny, with its message.
  await world.client(ADMIN_TOKEN)('answer', {
    params: { ref: open[0]?.id as string },
    body: { behavior: 'deny', message: 'not now' },
  })
  expect((await hook).json).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'not now' },
    },
  })
})

it('refuses an agent it does not know, saying which', async () => {
  const answer = await world.request('POST', '/api/claude-hooks/PermissionRequest', {
    headers: { 'x-switchboard-agent': 'gpt-pilot' },
    body: input,
  })
  expect(answer.status).toBe(400)
  expect(answer.json.error).toBe('x-switchboard-agent: "gpt-pilot" is not one of claude, codex')
})
