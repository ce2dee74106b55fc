// Another agent answers any session's prompts through `switchboard mcp` (the MCP SDK's own Client
// over stdio): a terminal session's question, plan and permission, put to the hub by its hooks, are
// listed by switchboard_decisions and answered by switchboard_answer, and the hook that waits gets
// what Claude Code needs.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { postHook } from './helpers/claude-hook.js'
import { CLI, TestHome, waitFor } from './helpers/home.js'
import { TWO_QUESTIONS } from './helpers/questions.js'

let home: TestHome
let hub: ChildProcess
let project: string
let client: Client

beforeEach(async () => {
  home = await TestHome.create()
  project = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-hooked-')))
  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub()
  client = new Client({ name: 'agent', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: home.env as Record<string, string>,
      cwd: project,
      stderr: 'ignore',
    }),
  )
})

afterEach(async () => {
  await client.close()
  hub.kill()
  await home.cleanup()
  rmSync(project, { recursive: true, force: true })
})

const SESSION = '5f0c1a2e-0000-4000-8000-0000000000c1'

/** A PermissionRequest as the installed hook sends it; resolves with the hook's output. */
async function dialog(tool: string, toolInput: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = {
    session_id: SESSION,
    transcript_path: '/tmp/x.jsonl',
    cwd: project,
    hook_event_name: 'PermissionRequest',
    tool_name: tool,
    tool_input: toolInput,
  }
  return (await postHook(home, 'PermissionRequest', body, { timeout: 330 })).json
}

type Listed = { code: string; kind: string; toolName: string; [k: string]: unknown }

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args })
  return { isError: result.isError === true, json: result.structuredContent as Record<string, unknown> }
}

/** What switchboard_decisions lists once `n` prompts are open. */
async function listed(n: number): Promise<Listed[]> {
  let decisions: Listed[] = []
  await waitFor(
    async () => {
      decisions = (await call('switchboard_decisions', {})).json.decisions as Listed[]
      return decisions.length === n
    },
    10_000,
    `${n} open prompt(s) listed`,
  )
  return decisions
}

const { questions } = TWO_QUESTIONS

it('lists a terminal session’s question with its questions, and answers every one of them', async () => {
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name)).toEqual(
    expect.arrayContaining(['switchboard_decisions', 'switchboard_answer']),
  )
  const answered = dialog('AskUserQuestion', { questions })
  const [question] = await listed(1)
  expect(question).toMatchObject({
    kind: 'question',
    session: SESSION,
    toolName: 'AskUserQuestion',
    questions: [
      { question: 'Which colour?', options: ['red', 'blue'] },
      { question: 'Which size?', options: ['small', 'large'] },
    ],
  })
  const one = await call('switchboard_answer', { code: question?.code, decision: 'allow', answers: ['blue'] })
  expect(one.isError).toBe(true)
  const both = await call('switchboard_answer', {
    code: question?.code,
    decision: 'allow',
    answers: ['blue', '2'],
  })
  expect(both.json).toMatchObject({
    behavior: 'allow',
    answers: { 'Which colour?': 'blue', 'Which size?': 'large' },
  })
  expect(await answered).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: {
        behavior: 'allow',
        updatedInput: { questions, answers: { 'Which colour?': 'blue', 'Which size?': 'large' } },
      },
    },
  })
})

it('sends a plan back with the reason Claude is given, and allows a command as edited', async () => {
  const plan = { plan: '# Ship\n1. cart\n2. ship', planFilePath: '/h/.claude/plans/p.md' }
  const back = dialog('ExitPlanMode', plan)
  const [listedPlan] = await listed(1)
  expect(listedPlan).toMatchObject({ kind: 'plan', toolInput: plan })
  await call('switchboard_answer', { code: listedPlan?.code, decision: 'deny', reason: 'tests first' })
  expect(await back).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'tests first' },
    },
  })

  const run = dialog('Bash', { command: 'rm -rf build', description: 'clean' })
  const [permission] = await listed(1)
  expect(permission).toMatchObject({ kind: 'permission', toolName: 'Bash' })
  await call('switchboard_answer', {
    code: permission?.code,
    decision: 'allow',
    updatedInput: { command: 'rm -rf build/tmp' },
  })
  expect(await run).toMatchObject({
    hookSpecificOutput: { decision: { behavior: 'allow', updatedInput: { command: 'rm -rf build/tmp' } } },
  })
  const gone = await call('switchboard_answer', { code: permission?.code, decision: 'allow' })
  expect(gone.isError).toBe(true)
})
