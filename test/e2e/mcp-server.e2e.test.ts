// `switchboard mcp` driving real Claude Code sessions: through the MCP SDK's Client calling the six
// tools as seed 004 writes them (with and without elicitation), and spawned by the real CLI, whose
// model starts a second, driven session.
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { expect, it } from 'vitest'
import { type FakeAnthropic, latestTurn, textOf, toolResults } from '../fakes/anthropic.js'
import { PrintSession } from '../helpers/claude.js'
import { drivingEnv, e2eWorld } from '../helpers/e2e.js'
import { CLI } from '../helpers/home.js'

const world = e2eWorld()

/** Everything a hub started by `switchboard mcp` needs to run the CLI offline. */
const env = () => drivingEnv(world)

// biome-ignore lint/suspicious/noExplicitAny: a tool's JSON answer, read field by field
type Json = any

async function mcpClient(
  elicit?: (message: string) => Record<string, unknown> | null,
  flags: string[] = [],
  extraEnv: Record<string, string> = {},
) {
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
    env: { ...env(), ...extraEnv },
    cwd: world.claude.cwd,
    stderr: 'ignore',
  })
  await client.connect(transport)
  world.closers.push(() => client.close())
  // Listing the tools makes the SDK client check every structured answer against its outputSchema.
  const { tools } = await client.listTools()
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    const body = textOf(result.content)
    if (result.isError) return { isError: true, body, json: null as Json }
    expect(result.structuredContent).toEqual(JSON.parse(body))
    return { isError: false, body, json: result.structuredContent as Json }
  }
  /** Polls claude_get_status as a seed-004 agent does, until the session is where the test wants it. */
  const until = async (sessionId: string, what: string, done: (s: Json) => boolean) => {
    const deadline = Date.now() + 60_000
    for (;;) {
      const { json } = await call('claude_get_status', { sessionId })
      if (json && done(json)) return json
      if (Date.now() > deadline) throw new Error(`waited in vain for ${what}: ${JSON.stringify(json)}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  return { client, tools, call, until }
}

const bashThenDone = (command: string) => (r: Parameters<Parameters<FakeAnthropic['respond']>[0]>[0]) => {
  if (latestTurn(r).includes('interrupt me')) return { slowText: 'word '.repeat(400), delayMs: 20 }
  if (toolResults(r).length) return { text: `finished: ${textOf(toolResults(r)[0]?.content)}` }
  if (latestTurn(r).includes('make the file'))
    return { tool: 'Bash', input: { command, description: 'make it' } }
  return { text: 'plain answer' }
}

it('drives the real CLI through a permission prompt with the six tools called as seed 004 writes them', {
  timeout: 90_000,
}, async () => {
  world.fake.respond(bashThenDone('touch from-pending'))
  const { tools, call, until } = await mcpClient()
  const args = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {})]))
  expect(Object.keys(args).sort()).toEqual([
    'claude_create_session',
    'claude_get_status',
    'claude_interrupt',
    'claude_list_sessions',
    'claude_respond',
    'claude_send_message',
    // Switchboard's own, beside the seed's: every session's prompts (test/mcp-decisions.integration.test.ts).
    'switchboard_answer',
    'switchboard_decisions',
  ])
  expect(args.claude_create_session).toEqual(
    expect.arrayContaining([
      'prompt',
      'workingDirectory',
      'model',
      'permissionMode',
      'allowedTools',
      'disallowedTools',
      'maxTurns',
      'maxBudgetUsd',
      'systemPrompt',
      'dangerouslySkipPermissions',
    ]),
  )
  expect(args.claude_respond).toEqual(
    expect.arrayContaining(['sessionId', 'inputId', 'decision', 'reason', 'updatedInput']),
  )
  expect(args.claude_get_status).toEqual(expect.arrayContaining(['sessionId', 'outputLines']))
  expect(args.claude_list_sessions).toEqual(expect.arrayContaining(['projectDirectory', 'limit']))

  const created = await call('claude_create_session', {
    prompt: 'make the file',
    workingDirectory: world.claude.cwd,
  })
  // Tools answer at once: a snapshot, taken before or after the fake model asked for the tool.
  expect(created.json).toMatchObject({ sessionId: expect.any(String) })
  expect(['running', 'waiting_for_input']).toContain(created.json.status)
  const sessionId = created.json.sessionId as string

  const asking = await until(sessionId, 'the permission prompt', (s) => s.pendingInputs.length > 0)
  expect(asking).toMatchObject({
    status: 'waiting_for_input',
    pendingInputs: [
      {
        inputId: expect.any(String),
        type: 'permission',
        toolName: 'Bash',
        toolInput: { command: 'touch from-pending', description: 'make it' },
        description: expect.stringContaining('make it'),
      },
    ],
    toolUseEvents: [{ toolName: 'Bash', status: 'running' }],
  })
  const responded = await call('claude_respond', {
    sessionId,
    inputId: asking.pendingInputs[0].inputId,
    decision: 'allow',
  })
  expect(responded.json.sessionId).toBe(sessionId)
  expect(['running', 'waiting_for_input', 'completed']).toContain(responded.json.status)

  const done = await until(sessionId, 'the result', (s) => s.status === 'completed')
  expect(done).toMatchObject({
    sessionId,
    result: expect.stringContaining('finished'),
    recentOutput: [expect.stringContaining('finished')],
    pendingInputs: [],
    toolUseEvents: [{ toolName: 'Bash', status: 'completed' }],
    costUsd: expect.any(Number),
    turnCount: 2,
  })
  expect(done.costUsd).toBeGreaterThan(0)
  expect(existsSync(join(world.claude.cwd, 'from-pending'))).toBe(true)
  const short = await call('claude_get_status', { sessionId, outputLines: 0 })
  expect(short.json.recentOutput).toEqual([])

  const sent = await call('claude_send_message', { sessionId, message: 'just talk' })
  expect(sent.json).toMatchObject({ sessionId })
  // Still running, or already done with the new answer (the fake model is fast): never the old one.
  if (sent.json.status !== 'running')
    expect(sent.json).toMatchObject({ status: 'completed', result: 'plain answer' })
  const talked = await until(sessionId, 'the second result', (s) => s.result === 'plain answer')
  expect(talked).toMatchObject({ status: 'completed', turnCount: 3 })

  const listed = await call('claude_list_sessions', { projectDirectory: world.claude.cwd, limit: 5 })
  expect(listed.json.sessions).toContainEqual({
    sessionId,
    projectDirectory: world.claude.cwd,
    displayText: 'plain answer',
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    isActive: true,
    activeStatus: 'completed',
    claudeSessionId: expect.any(String),
  })
})

it('claude_interrupt ends the running turn, and the next message continues the session', {
  timeout: 90_000,
}, async () => {
  world.fake.respond(bashThenDone('true'))
  const { call, until } = await mcpClient()
  const created = await call('claude_create_session', {
    prompt: 'interrupt me',
    workingDirectory: world.claude.cwd,
  })
  const sessionId = created.json.sessionId as string
  // The text arrives as one line when the block ends: the model is asked, so the turn is under way.
  await until(
    sessionId,
    'the model to be asked',
    () => world.fake.requestsMentioning('interrupt me').length > 0,
  )
  await new Promise((r) => setTimeout(r, 300))
  const interrupted = await call('claude_interrupt', { sessionId })
  expect(interrupted.json).toMatchObject({ sessionId, status: 'interrupted' })
  const status = await call('claude_get_status', { sessionId, waitSeconds: 20 })
  expect(status.json.status).toBe('interrupted')
  expect(status.json.result).toBeUndefined()

  await call('claude_send_message', { sessionId, message: 'just talk' })
  await until(sessionId, 'the next turn', (s) => s.result === 'plain answer')
})

it('answers a question the seed’s way: one label per question in updatedInput.answers', {
  timeout: 60_000,
}, async () => {
  const options = ['red', 'blue'].map((label) => ({ label, description: `${label} paint` }))
  const questions = [{ question: 'Which colour?', header: 'Colour', multiSelect: false, options }]
  world.fake.respond((r) => {
    const results = toolResults(r)
    if (results.length) return { text: `got: ${textOf(results[0]?.content)}` }
    return { tool: 'AskUserQuestion', input: { questions } }
  })
  const { call, until } = await mcpClient()
  const created = await call('claude_create_session', {
    prompt: 'ask me',
    workingDirectory: world.claude.cwd,
  })
  const sessionId = created.json.sessionId as string
  const asking = await until(sessionId, 'the question', (s) => s.pendingInputs.length > 0)
  expect(asking.pendingInputs).toEqual([
    {
      inputId: expect.any(String),
      type: 'user_question',
      toolName: 'AskUserQuestion',
      toolInput: { questions },
      description: 'Claude asks: Which colour?',
    },
  ])
  await call('claude_respond', {
    sessionId,
    inputId: asking.pendingInputs[0].inputId,
    decision: 'allow',
    updatedInput: { questions, answers: ['blue'] },
  })
  const done = await until(sessionId, 'the answer', (s) => s.status === 'completed')
  expect(done.result).toContain('blue')
})

it('answers a bad argument with a one-line error that names it', { timeout: 60_000 }, async () => {
  world.fake.respond(() => ({ text: 'plain answer' }))
  const { call } = await mcpClient()
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['claude_get_status', { sessionId: 42 }, /^claude_get_status: sessionId: .*string/],
    ['claude_get_status', { sessionId: 'ses_nope' }, /no session/],
    ['claude_get_status', { sessionId: 'ses_nope', outputLines: -1 }, /outputLines/],
    ['claude_respond', { sessionId: 'ses_nope', inputId: 'x', decision: 'maybe' }, /decision: .*allow/],
    ['claude_respond', { sessionId: 'ses_nope', decision: 'allow' }, /inputId/],
    ['claude_create_session', { prompt: '' }, /prompt: must not be empty/],
    ['claude_create_session', { prompt: 'hi', cwd: '/tmp' }, /Unrecognized key.*cwd/],
    [
      'claude_create_session',
      { prompt: 'hi', workingDirectory: '/no/such/dir' },
      /workingDirectory: no such folder/,
    ],
    ['claude_create_session', { prompt: 'hi', maxTurns: 1.5 }, /maxTurns/],
    ['claude_list_sessions', { limit: 0 }, /limit/],
  ]
  for (const [tool, args, message] of cases) {
    const answer = await call(tool, args)
    expect(answer, `${tool} ${JSON.stringify(args)}`).toMatchObject({
      isError: true,
      body: expect.stringMatching(message),
    })
    expect(answer.body).not.toContain('\n')
  }
})

it('resumes a session found on disk that the hub never drove, by the sessionId the list gave', {
  timeout: 90_000,
}, async () => {
  world.fake.respond((r) =>
    latestTurn(r).includes('which bird') ? { text: 'it was the pelican' } : { text: 'noted' },
  )
  const first = new PrintSession([], { cwd: world.claude.cwd, env: env() })
  world.closers.push(() => first.close())
  first.send('remember the word pelican')
  const [done] = await first.waitForResults(1)
  await first.close()

  const { call, until } = await mcpClient()
  const listed = await call('claude_list_sessions', { projectDirectory: world.claude.cwd })
  const onDisk = listed.json.sessions.find((s: Json) => s.sessionId === done?.session_id)
  expect(onDisk).toMatchObject({ projectDirectory: world.claude.cwd, isActive: false })
  expect(onDisk.activeStatus).toBeUndefined()

  const sent = await call('claude_send_message', {
    sessionId: onDisk.sessionId,
    message: 'which bird was it?',
  })
  const answered = await until(sent.json.sessionId, 'the resumed turn', (s) => s.status === 'completed')
  expect(answered).toMatchObject({ result: 'it was the pelican', claudeSessionId: onDisk.sessionId })
  // The resumed conversation reached the model with the first session's words in it.
  expect(JSON.stringify(world.fake.requestsMentioning('which bird').at(-1))).toContain('pelican')
})

it('asks the person through elicitation when the client supports it', { timeout: 60_000 }, async () => {
  world.fake.respond(bashThenDone('touch from-elicitation'))
  const asked: string[] = []
  const { call } = await mcpClient((message) => {
    asked.push(message)
    return { approve: true }
  })
  const created = await call('claude_create_session', {
    prompt: 'make the file',
    workingDirectory: world.claude.cwd,
    waitSeconds: 30,
  })
  expect(created.json).toMatchObject({ status: 'completed', pendingInputs: [] })
  expect(asked).toEqual([
    `Claude wants to run Bash: $ touch from-elicitation (Claude's description: "make it")\nAllow?`,
  ])
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
      input: { prompt: 'inner task', workingDirectory: world.claude.cwd, waitSeconds: 30 },
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

it('refuses bypassPermissions and dangerouslySkipPermissions unless the server was started to allow them', {
  timeout: 60_000,
}, async () => {
  world.fake.respond(bashThenDone('touch from-bypass'))
  // The CLI refuses to skip permissions as root (as these tests may run) unless told it is sandboxed.
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ sessionEnv: ['IS_SANDBOX'] }))
  const sandbox = { IS_SANDBOX: '1' }
  const { call } = await mcpClient(undefined, [], sandbox)
  const refused = await call('claude_create_session', { prompt: 'hi', permissionMode: 'bypassPermissions' })
  expect(refused.isError).toBe(true)
  expect(refused.body).toMatch(/--allow-pre-approval/)
  const skipRefused = await call('claude_create_session', {
    prompt: 'make the file',
    dangerouslySkipPermissions: true,
  })
  expect(skipRefused.isError).toBe(true)
  expect(skipRefused.body).toMatch(
    /^claude_create_session: dangerouslySkipPermissions .*--allow-pre-approval/,
  )

  const allowed = await mcpClient(undefined, ['--allow-pre-approval'], sandbox)
  const created = await allowed.call('claude_create_session', {
    prompt: 'hi',
    permissionMode: 'bypassPermissions',
    waitSeconds: 30,
  })
  expect(created.isError).toBe(false)
  expect(created.json.status).toBe('completed')
  const contradicts = await allowed.call('claude_create_session', {
    prompt: 'hi',
    dangerouslySkipPermissions: true,
    permissionMode: 'plan',
  })
  expect(contradicts.body).toMatch(/dangerouslySkipPermissions.*contradicts permissionMode plan/)
  // Skipping permissions runs the tool without ever asking.
  const skipped = await allowed.call('claude_create_session', {
    prompt: 'make the file',
    workingDirectory: world.claude.cwd,
    dangerouslySkipPermissions: true,
  })
  const finished = await allowed.until(skipped.json.sessionId, 'the result', (s) => s.status === 'completed')
  expect(finished).toMatchObject({
    result: expect.stringContaining('finished'),
    toolUseEvents: [{ toolName: 'Bash', status: 'completed' }],
  })
  expect(existsSync(join(world.claude.cwd, 'from-bypass'))).toBe(true)
})

it('refuses every option that lets tools run unasked unless the owner allowed pre-approval; the old flag still does', {
  timeout: 90_000,
}, async () => {
  world.fake.respond(bashThenDone('touch from-preapproved'))
  const { call, until } = await mcpClient()
  // What a prompt-injected driving agent would try: each lets its child run tools with no decision on record.
  const attempts: [Record<string, unknown>, RegExp][] = [
    [{ allowedTools: ['Bash'] }, /allowedTools/],
    [{ allowedTools: ['Read', 'Bash(touch *)'] }, /allowedTools/],
    [{ permissionMode: 'acceptEdits' }, /permissionMode acceptEdits/],
    [{ permissionMode: 'auto' }, /permissionMode auto/],
    [{ permissionMode: 'bypassPermissions' }, /permissionMode bypassPermissions/],
    [{ dangerouslySkipPermissions: true }, /dangerouslySkipPermissions/],
  ]
  for (const [extra, names] of attempts) {
    const answer = await call('claude_create_session', {
      prompt: 'make the file',
      workingDirectory: world.claude.cwd,
      ...extra,
    })
    expect(answer, JSON.stringify(extra)).toMatchObject({ isError: true })
    expect(answer.body).toMatch(names)
    expect(answer.body).toMatch(/^claude_create_session: .*refused.*--allow-pre-approval/)
    expect(answer.body).not.toContain('\n')
  }
  // Executable config is no option at all.
  for (const key of ['mcpConfig', 'settings', 'appendSystemPrompt', 'pluginDir'])
    expect((await call('claude_create_session', { prompt: 'hi', [key]: 'x' })).body).toMatch(
      /Unrecognized key/,
    )
  expect(existsSync(join(world.claude.cwd, 'from-preapproved'))).toBe(false)
  const listed = await call('claude_list_sessions', { projectDirectory: world.claude.cwd })
  expect(listed.json.sessions.filter((s: Json) => s.isActive)).toEqual([])

  // What only restricts stays open to the agent: its session asks before Bash runs.
  const restricted = await call('claude_create_session', {
    prompt: 'make the file',
    workingDirectory: world.claude.cwd,
    permissionMode: 'default',
    disallowedTools: ['WebFetch'],
  })
  expect(restricted.isError).toBe(false)
  for (const mode of ['plan', 'dontAsk'])
    expect((await call('claude_create_session', { prompt: 'hi', permissionMode: mode })).isError).toBe(false)
  const asking = await until(restricted.json.sessionId, 'the prompt', (s) => s.pendingInputs.length > 0)
  expect(asking.pendingInputs[0]).toMatchObject({ type: 'permission', toolName: 'Bash' })

  // The owner's flag, and its old name, let the agent pre-approve.
  for (const flag of ['--allow-pre-approval', '--allow-bypass-permissions']) {
    const owner = await mcpClient(undefined, [flag])
    const created = await owner.call('claude_create_session', {
      prompt: 'make the file',
      workingDirectory: world.claude.cwd,
      allowedTools: ['Bash'],
    })
    expect(created.isError, flag).toBe(false)
    const done = await owner.until(created.json.sessionId, 'the result', (s) => s.status === 'completed')
    expect(done.toolUseEvents).toEqual([expect.objectContaining({ toolName: 'Bash', status: 'completed' })])
    expect(existsSync(join(world.claude.cwd, 'from-preapproved'))).toBe(true)
    rmSync(join(world.claude.cwd, 'from-preapproved'))
  }
})
