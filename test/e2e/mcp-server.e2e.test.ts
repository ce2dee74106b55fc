// `switchboard mcp` driving real Claude Code sessions: through the MCP SDK's Client (with and
// without elicitation), and spawned by the real CLI, whose model starts a second, driven session.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { expect, it } from 'vitest'
import { type FakeAnthropic, latestTurn, textOf, toolResults } from '../fakes/anthropic.js'
import { CLAUDE_BIN, PrintSession } from '../helpers/claude.js'
import { e2eWorld } from '../helpers/e2e.js'
import { CLI } from '../helpers/home.js'

const world = e2eWorld()

/** Everything a hub started by `switchboard mcp` needs to run the CLI offline. */
function env(): Record<string, string> {
  return {
    ...world.claude.env(world.fake.url),
    SWITCHBOARD_HOME: world.home.dir,
    SWITCHBOARD_PORT: String(world.home.port),
    CLAUDE_CODE_PATH: CLAUDE_BIN,
  }
}

async function mcpClient(elicit?: (message: string) => Record<string, unknown> | null, flags: string[] = []) {
  const client = new Client(
    { name: 'agent', version: '0' },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  )
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      const content = elicit(req.params.message)
      return content ? { action: 'accept', content } : { action: 'decline' }
    })
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...flags],
    env: env(),
    cwd: world.claude.cwd,
    stderr: 'ignore',
  })
  await client.connect(transport)
  world.closers.push(() => client.close())
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    const body = textOf(result.content)
    return { isError: result.isError === true, body, json: result.isError ? null : JSON.parse(body) }
  }
  return { client, call }
}

const bashThenDone = (command: string) => (r: Parameters<Parameters<FakeAnthropic['respond']>[0]>[0]) => {
  if (latestTurn(r).includes('interrupt me')) return { slowText: 'word '.repeat(400), delayMs: 20 }
  if (toolResults(r).length) return { text: `finished: ${textOf(toolResults(r)[0]?.content)}` }
  if (latestTurn(r).includes('make the file'))
    return { tool: 'Bash', input: { command, description: 'make it' } }
  return { text: 'plain answer' }
}

it('drives a session with all six tools, answering prompts from pendingInputs', {
  timeout: 90_000,
}, async () => {
  world.fake.respond(bashThenDone('touch from-pending'))
  const { client, call } = await mcpClient()
  const names = (await client.listTools()).tools.map((t) => t.name).sort()
  expect(names).toEqual([
    'claude_create_session',
    'claude_get_status',
    'claude_interrupt',
    'claude_list_sessions',
    'claude_respond',
    'claude_send_message',
  ])

  const created = await call('claude_create_session', { prompt: 'make the file', cwd: world.claude.cwd })
  expect(created.json).toMatchObject({
    status: 'waiting_for_input',
    pendingInputs: [{ kind: 'permission', tool_name: 'Bash' }],
  })
  const id = created.json.sessionId as string
  const responded = await call('claude_respond', {
    sessionId: id,
    decision: created.json.pendingInputs[0].code,
    behavior: 'allow',
  })
  expect(responded.json).toMatchObject({ status: 'idle', lastResult: expect.stringContaining('finished') })
  expect(existsSync(join(world.claude.cwd, 'from-pending'))).toBe(true)

  const sent = await call('claude_send_message', { sessionId: id, message: 'just talk' })
  expect(sent.json).toMatchObject({ status: 'idle', lastResult: 'plain answer' })

  await call('claude_send_message', { sessionId: id, message: 'interrupt me', waitSeconds: 0 })
  await new Promise((r) => setTimeout(r, 500))
  await call('claude_interrupt', { sessionId: id })
  const status = await call('claude_get_status', { sessionId: id, waitSeconds: 20 })
  expect(status.json.status).toBe('interrupted')

  const listed = await call('claude_list_sessions', { cwd: world.claude.cwd })
  expect(listed.json.sessions).toContainEqual(expect.objectContaining({ id, managed: true }))

  const bad = await call('claude_get_status', { sessionId: 42 })
  expect(bad).toMatchObject({ isError: true, body: expect.stringMatching(/sessionId/) })
  const unknown = await call('claude_get_status', { sessionId: 'ses_nope' })
  expect(unknown).toMatchObject({ isError: true, body: expect.stringMatching(/no session/) })
})

it('asks the person through elicitation when the client supports it', { timeout: 60_000 }, async () => {
  world.fake.respond(bashThenDone('touch from-elicitation'))
  const asked: string[] = []
  const { call } = await mcpClient((message) => {
    asked.push(message)
    return { approve: true }
  })
  const created = await call('claude_create_session', { prompt: 'make the file', cwd: world.claude.cwd })
  expect(created.json).toMatchObject({ status: 'idle', pendingInputs: [] })
  expect(asked).toEqual([expect.stringContaining('Allow Bash?')])
  expect(existsSync(join(world.claude.cwd, 'from-elicitation'))).toBe(true)
})

it('is spawned by the real CLI, whose model starts a second, driven session', {
  timeout: 90_000,
}, async () => {
  world.fake.respond((r) => {
    if (latestTurn(r).includes('inner task')) return { text: 'inner session reporting' }
    const results = toolResults(r)
    if (results.length) return { text: `outer saw: ${textOf(results[0]?.content)}` }
    return {
      tool: 'mcp__switchboard__claude_create_session',
      input: { prompt: 'inner task', cwd: world.claude.cwd },
    }
  })
  const config = world.claude.writeMcpConfig({
    switchboard: { command: process.execPath, args: [CLI, 'mcp'], env: env() },
  })
  const outer = new PrintSession(
    ['--mcp-config', config, '--allowedTools', 'mcp__switchboard__claude_create_session'],
    {
      cwd: world.claude.cwd,
      env: env(),
    },
  )
  world.closers.push(() => outer.close())
  outer.send('start a helper session')
  const [result] = await outer.waitForResults(1, 90_000)
  expect(result?.result).toContain('outer saw')
  expect(result?.result).toContain('inner session reporting')
  expect(world.fake.requestsMentioning('inner task').length).toBeGreaterThan(0)
})

it('refuses bypassPermissions unless the server was started to allow it', async () => {
  world.fake.respond(() => ({ text: 'plain answer' }))
  const { call } = await mcpClient()
  const refused = await call('claude_create_session', { prompt: 'hi', permissionMode: 'bypassPermissions' })
  expect(refused.isError).toBe(true)
  expect(refused.body).toMatch(/--allow-bypass-permissions/)
  const allowed = await mcpClient(undefined, ['--allow-bypass-permissions'])
  const created = await allowed.call('claude_create_session', {
    prompt: 'hi',
    permissionMode: 'bypassPermissions',
    waitSeconds: 30,
  })
  expect(created.isError).toBe(false)
})
