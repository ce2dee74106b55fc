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
  expect(answer.json.error).toBe(
    'x-switchboard-agent: "gpt-pilot" is not one of claude, codex, gemini, opencode',
  )
})

/** Gemini CLI's BeforeTool input (shared/AGENTS.md §2c). */
const geminiInput = {
  session_id: 'b724a7e5-0000-4000-8000-000000000003',
  transcript_path: '/tmp/.gemini/tmp/api/chats/session-2026-11-28T05-24-b724a7e5.jsonl',
  cwd: '/tmp/api',
  hook_event_name: 'BeforeTool',
  timestamp: '2026-11-28T05:24:35.050Z',
  tool_name: 'run_shell_command',
  tool_input: { command: 'touch x', description: 'make x' },
}

/** The open permission decisions, once the hook has opened one. */
async function opened(): Promise<{ id: string; request: Record<string, unknown> }[]> {
  const { hub } = world.parts
  let open = await hub.store.listDecisions({ kind: 'permission', status: 'open' })
  for (let i = 0; i < 200 && open.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 20))
    open = await hub.store.listDecisions({ kind: 'permission', status: 'open' })
  }
  return open
}

it('opens a decision naming Gemini CLI for its BeforeTool, and answers allow and deny in Gemini’s words', async () => {
  const gemini = (body: Record<string, unknown> = geminiInput) =>
    world.request('POST', '/api/claude-hooks/BeforeTool', {
      headers: { 'x-switchboard-agent': 'gemini', 'x-switchboard-timeout': '330' },
      body,
    })
  const first = gemini()
  const [asked] = await opened()
  expect(asked?.request).toMatchObject({
    agent: 'gemini',
    tool_name: 'run_shell_command',
    input: { command: 'touch x' },
    project: 'api',
    source: 'hook',
  })
  const answer = world.client(ADMIN_TOKEN)
  await answer('answer', { params: { ref: asked?.id as string }, body: { behavior: 'allow' } })
  expect((await first).json).toEqual({ decision: 'allow' })

  const second = gemini({ ...geminiInput, tool_input: { command: 'rm -rf build' } })
  const [again] = await opened()
  await answer('answer', {
    params: { ref: again?.id as string },
    body: { behavior: 'deny', message: 'not on a Friday' },
  })
  expect((await second).json).toEqual({ decision: 'deny', reason: 'not on a Friday' })
})

it('answers Gemini `ask` when nobody answers in time, which puts up Gemini’s own dialog', async () => {
  // A hook that gives up after 6 s: the hub stops waiting 5 s before, and says ask.
  const hook = await world.request('POST', '/api/claude-hooks/BeforeTool', {
    headers: { 'x-switchboard-agent': 'gemini', 'x-switchboard-timeout': '6' },
    body: geminiInput,
  })
  expect(hook.json).toEqual({ decision: 'ask' })
  expect(await world.parts.hub.store.listDecisions({ kind: 'permission', status: 'open' })).toEqual([])
})

it('refuses BeforeTool from any agent but Gemini CLI, and Gemini’s hook on any other event', async () => {
  const claude = await world.request('POST', '/api/claude-hooks/BeforeTool', { body: geminiInput })
  expect(claude.status).toBe(400)
  expect(claude.json.error).toBe('BeforeTool is Gemini CLI’s hook, and the one Switchboard takes from it')
  const stop = await world.request('POST', '/api/claude-hooks/Stop', {
    headers: { 'x-switchboard-agent': 'gemini' },
    body: { ...geminiInput, hook_event_name: 'Stop' },
  })
  expect(stop.status).toBe(400)
})
