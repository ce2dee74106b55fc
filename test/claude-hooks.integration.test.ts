// Claude Code's hooks as the hub takes them, from Claude Code's side: real hook inputs POSTed down a
// spawned hub's socket to its hook route, answered from the CLI, the API or nowhere, and what
// the operators see on their stream meanwhile.
import { type ChildProcess, spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { readAdminToken } from '../src/core/admin-token.js'
import { hubRequest } from '../src/core/hub-dial.js'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import { ChannelClient } from './helpers/channel-client.js'
import { postHook } from './helpers/claude-hook.js'
import { CLI, runCli, TestHome, waitFor } from './helpers/home.js'
import { TWO_QUESTIONS } from './helpers/questions.js'
import { SseReader } from './helpers/sse.js'

let home: TestHome
let hub: ChildProcess
let operator: SseReader
let project: string
const opened: { close(): unknown }[] = []

/** A hub with these settings, an operator following its stream, and a project folder on a git branch. */
async function start(env: Record<string, string> = {}): Promise<void> {
  Object.assign(home.extraEnv, env)
  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub()
  operator = await SseReader.open(home.url, await home.addSender('phone', true))
  opened.push(operator)
}

beforeEach(async () => {
  home = await TestHome.create()
  project = realpathSync(mkdtempSync(join(tmpdir(), 'hooked-project-')))
  mkdirSync(join(project, '.git'))
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/feature/hooks\n')
})

afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close()
  hub?.kill()
  await home.cleanup()
  rmSync(project, { recursive: true, force: true })
})

const SESSION = '5f0c1a2e-0000-4000-8000-000000000001'

function input(event: string, extra: Record<string, unknown> = {}, session = SESSION) {
  return {
    session_id: session,
    transcript_path: `/tmp/${session}.jsonl`,
    cwd: project,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  }
}

/** POSTs a hook's input as the installed hooks do: down the home's socket. */
function hook(
  event: string,
  body: Record<string, unknown>,
  options: { timeout?: number; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  return postHook(home, event, body, options)
}

type Prompt = { id: string; session: string; tool_name: string; [k: string]: unknown }

/** The next prompt of this kind the operator was sent. */
async function promptOfKind(kind: string, after = 0): Promise<Prompt> {
  let found: Prompt | undefined
  await waitFor(
    () => {
      found = operator.messages.slice(after).find((m) => m.event === kind)?.data as Prompt | undefined
      return found !== undefined
    },
    10_000,
    `a ${kind} prompt on the operator's stream`,
  )
  return found as Prompt
}

const bash = { tool_name: 'Bash', tool_input: { command: 'echo hi', description: 'say hi' } }

it('puts a permission dialog to the operators and answers the hook with the first answer: allow, then deny with its message', async () => {
  await start()
  const allowed = hook('PermissionRequest', input('PermissionRequest', bash), { timeout: 330 })
  const prompt = await promptOfKind('permission')
  // Named by its key (its subscriber: its folder's name) and by what people call it.
  expect(prompt).toMatchObject({
    session: basename(project),
    session_name: `${basename(project)} · feature/hooks`,
    claude_session: SESSION,
    tool_name: 'Bash',
    input: bash.tool_input,
    project: basename(project),
    cwd: project,
  })
  const listed = await runCli(['decisions'], home.env)
  expect(listed.stdout).toContain(
    `${prompt.id}\t${basename(project)} · feature/hooks\tpermission\tBash\t$ echo hi`,
  )
  // What happens if nobody answers, and when: back to the terminal at hookWaitSeconds (300).
  expect(listed.stdout).toMatch(/\tGoes back to the terminal at \d\d:\d\d\n$/)
  const [row] = JSON.parse((await runCli(['decisions', '--json'], home.env)).stdout) as Record<
    string,
    unknown
  >[]
  expect(row).toMatchObject({ code: prompt.id, expiresAt: prompt.expires_at, onTimeout: 'terminal' })
  expect((await runCli(['answer', prompt.id, 'yes'], home.env)).stdout).toMatch(/^allowed /)
  expect((await allowed).json).toEqual({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  })

  const denied = hook('PermissionRequest', input('PermissionRequest', bash), { timeout: 330 })
  const second = await promptOfKind(
    'permission',
    operator.messages.indexOf(operator.messages.find((m) => m.event === 'permission') as never) + 1,
  )
  await runCli(['answer', second.id, 'no', '--message', 'not on a Friday'], home.env)
  expect((await denied).json).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'not on a Friday' },
    },
  })
})

it('returns an input edited by the operator as the updated input', async () => {
  await start()
  const answered = hook('PermissionRequest', input('PermissionRequest', bash), { timeout: 330 })
  const prompt = await promptOfKind('permission')
  const res = await fetch(`${home.url}/api/decisions/${prompt.id}/answer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${readAdminToken({ home: home.dir, adminToken: null })}` },
    body: JSON.stringify({ behavior: 'allow', updatedInput: { command: 'echo edited' } }),
  })
  expect(res.status).toBe(200)
  expect((await answered).json).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { command: 'echo edited' } },
    },
  })
})

it('answers every question of an AskUserQuestion call, by number, label or in words, as the updated input', async () => {
  await start()
  const questions = [
    {
      question: 'Which database?',
      header: 'DB',
      multiSelect: false,
      options: [
        { label: 'SQLite', description: 'one file' },
        { label: 'Postgres', description: 'a server' },
      ],
    },
    {
      question: 'Which port?',
      header: 'Port',
      multiSelect: false,
      options: [
        { label: '7420', description: 'the default' },
        { label: '8080', description: 'another' },
      ],
    },
  ]
  const toolInput = { questions }
  // Asked through PermissionRequest: the question is on screen at the terminal meanwhile.
  const answered = hook(
    'PermissionRequest',
    input('PermissionRequest', { tool_name: 'AskUserQuestion', tool_input: toolInput }),
    { timeout: 330 },
  )
  const prompt = await promptOfKind('question')
  expect(prompt.input).toEqual(toolInput)
  expect((await runCli(['answer', prompt.id, 'one'], home.env)).stderr).toMatch(
    /asks 2 questions: give one answer each, in order \(got 1\)/,
  )
  await runCli(['answer', prompt.id, '2', 'port 9000 please'], home.env)
  expect((await answered).json).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: {
        behavior: 'allow',
        updatedInput: {
          questions,
          answers: { 'Which database?': 'Postgres', 'Which port?': 'port 9000 please' },
        },
      },
    },
  })
})

/** ExitPlanMode's input as the pinned CLI sends it once the plan file is written: its text and path. */
const plan = {
  tool_name: 'ExitPlanMode',
  tool_input: {
    plan: '# Add the table\n\n1. add the table\n2. ship',
    planFilePath: '/home/someone/.claude/plans/plan-it-tranquil-adleman.md',
  },
}

it('shows the plan it asks about, sends it back with the comment the model is given, and approves one with yes', async () => {
  await start()
  const back = hook('PermissionRequest', input('PermissionRequest', plan), { timeout: 330 })
  const prompt = await promptOfKind('plan')
  expect(prompt.input).toEqual(plan.tool_input)
  expect((await runCli(['decisions'], home.env)).stdout).toContain(
    `${prompt.id}\t${basename(project)} · feature/hooks\tplan\tExitPlanMode\t# Add the table 1. add the table 2. ship`,
  )
  await runCli(['answer', prompt.id, 'no', '--message', 'add tests first'], home.env)
  expect((await back).json).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'add tests first' },
    },
  })
  const approved = hook('PermissionRequest', input('PermissionRequest', plan), { timeout: 330 })
  await waitFor(
    () => operator.messages.filter((m) => m.event === 'plan').length === 2,
    10_000,
    'a second plan',
  )
  const again = operator.messages.filter((m) => m.event === 'plan')[1]?.data as Prompt
  await runCli(['answer', again.id, 'yes'], home.env)
  // A bare allow would leave the dialog open: the input goes back as the updated input.
  expect((await approved).json).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: plan.tool_input },
    },
  })
})

it('cuts a long plan to a size operators are shown, and approves it with the whole plan', async () => {
  await start()
  const long = { ...plan, tool_input: { ...plan.tool_input, plan: `# Long\n${'step\n'.repeat(10_000)}` } }
  const approved = hook('PermissionRequest', input('PermissionRequest', long), { timeout: 330 })
  const prompt = await promptOfKind('plan')
  const shown = (prompt.input as { plan: string }).plan
  expect(shown.length).toBeLessThan(21_000)
  expect(shown).toMatch(/^# Long\nstep\n/)
  expect(shown).toContain('more characters in /home/someone/.claude/plans/plan-it-tranquil-adleman.md')
  await runCli(['answer', prompt.id, 'yes'], home.env)
  expect((await approved).json).toMatchObject({
    hookSpecificOutput: { decision: { behavior: 'allow', updatedInput: long.tool_input } },
  })
})

it('says on the operators’ copies what the person answered at the terminal, once the question’s tool ran', async () => {
  await start()
  const { questions } = TWO_QUESTIONS
  const waiting = hook(
    'PermissionRequest',
    input('PermissionRequest', { tool_name: 'AskUserQuestion', tool_input: { questions } }),
    { timeout: 330 },
  )
  const prompt = await promptOfKind('question')
  // What the pinned CLI sends once the person answered the dialog: the input with their answers.
  const answers = { 'Which colour?': 'blue', 'Which size?': 'small' }
  await hook(
    'PostToolUse',
    input('PostToolUse', {
      tool_name: 'AskUserQuestion',
      tool_input: { questions, answers, annotations: {} },
      tool_response: { questions, answers, annotations: {} },
      tool_use_id: 'toolu_9',
    }),
  )
  expect((await waiting).json).toEqual({})
  await waitFor(() => operator.messages.some((m) => m.event === 'decision'), 10_000, 'the prompt closed')
  expect(operator.messages.find((m) => m.event === 'decision')?.data).toMatchObject({
    id: prompt.id,
    status: 'cancelled',
    reason: 'answered at the terminal (Which colour? → blue; Which size? → small)',
  })
})

it('answers a PreToolUse hook with nothing when no retry was allowed, and asks no one', async () => {
  await start()
  const ask = input('PreToolUse', {
    tool_name: 'AskUserQuestion',
    tool_input: { questions: [{ question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }] },
    tool_use_id: 'toolu_3',
  })
  expect(await hook('PreToolUse', ask, { timeout: 330 })).toEqual({ status: 200, json: {} })
  // The next prompt operators are sent is the permission after it: the question never went out.
  const waiting = hook('PermissionRequest', input('PermissionRequest', bash), { timeout: 6 })
  await promptOfKind('permission')
  expect(operator.messages.filter((m) => m.event !== 'ready').map((m) => m.event)[0]).toBe('permission')
  expect((await waiting).json).toEqual({})
})

it('answers a PermissionDenied hook without its call or reason with nothing, and opens no decision', async () => {
  await start()
  const denied = input('PermissionDenied', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } })
  expect(await hook('PermissionDenied', denied, { timeout: 330 })).toEqual({ status: 200, json: {} })
  const waiting = hook('PermissionRequest', input('PermissionRequest', bash), { timeout: 6 })
  await promptOfKind('permission')
  expect(operator.messages.filter((m) => m.event !== 'ready').map((m) => m.event)[0]).toBe('permission')
  expect((await waiting).json).toEqual({})
})

it('leaves the dialog to the terminal when no answer comes before the hook’s deadline: {} and the prompt closed by the timeout', async () => {
  await start()
  // The hook's own timeout is 6 s: the hub answers 5 s before it, whatever hookWaitSeconds says.
  const answer = await hook('PermissionRequest', input('PermissionRequest', bash), { timeout: 6 })
  expect(answer).toEqual({ status: 200, json: {} })
  const prompt = await promptOfKind('permission')
  await waitFor(
    () => operator.messages.some((m) => m.event === 'decision' && (m.data as Prompt).id === prompt.id),
    10_000,
    'the prompt cancelled',
  )
  // It said so from the start, and closes as the timeout's, saying what became of it.
  expect(prompt).toMatchObject({ on_timeout: 'terminal', expires_at: expect.any(Number) })
  expect(operator.messages.find((m) => m.event === 'decision')?.data).toMatchObject({
    id: prompt.id,
    status: 'answered',
    answered_by: 'timeout',
    reason: 'Back to the terminal: no one answered within 1 s',
  })
  expect((await runCli(['decisions', '--json'], home.env)).stdout.trim()).toBe('[]')
})

it('denies a dialog nobody answers within decisionTimeout, warning the operators once before, and tells the model why', async () => {
  await start({
    SWITCHBOARD_DECISION_TIMEOUT: '4s',
    SWITCHBOARD_DECISION_TIMEOUT_OUTCOME: 'deny',
    SWITCHBOARD_DECISION_WARNING: '2s',
  })
  const asked = Date.now()
  const answer = hook('PermissionRequest', input('PermissionRequest', bash), { timeout: 330 })
  const prompt = await promptOfKind('permission')
  expect(prompt).toMatchObject({ on_timeout: 'deny' })
  const expiresAt = prompt.expires_at as number
  expect(expiresAt - asked).toBeGreaterThan(3_000)
  expect((await answer).json).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: {
        behavior: 'deny',
        message: "Denied by Switchboard's decision timeout: no one answered within 4 s",
      },
    },
  })
  const warnings = operator.messages.filter(
    (m) => m.event === 'notice' && String((m.data as { id?: string }).id).startsWith('expiring:'),
  )
  expect(warnings).toHaveLength(1)
  expect((warnings[0]?.data as { text?: string } | undefined)?.text).toMatch(
    /: Bash is still waiting for an answer\. Denied at \d\d:\d\d unless answered \(in 2 s\)/,
  )
  await waitFor(
    () => operator.messages.some((m) => m.event === 'decision' && (m.data as Prompt).id === prompt.id),
    10_000,
    'the prompt closed',
  )
  expect(operator.messages.find((m) => m.event === 'decision')?.data).toMatchObject({
    id: prompt.id,
    status: 'answered',
    answered_by: 'timeout',
    reason: 'Denied: no one answered within 4 s',
  })
  expect((await runCli(['decisions', '--json'], home.env)).stdout.trim()).toBe('[]')
})

it('cancels the prompt and tells the operators when Claude Code stops waiting (answered at the terminal)', async () => {
  await start()
  const controller = new AbortController()
  const waiting = hook('PermissionRequest', input('PermissionRequest', bash), {
    timeout: 330,
    signal: controller.signal,
  }).catch((err: Error) => err.name)
  const prompt = await promptOfKind('permission')
  controller.abort()
  expect(await waiting).toBe('AbortError')
  await waitFor(() => operator.messages.some((m) => m.event === 'decision'), 10_000, 'the prompt cancelled')
  expect(operator.messages.find((m) => m.event === 'decision')?.data).toMatchObject({
    id: prompt.id,
    status: 'cancelled',
    reason: 'answered at the terminal',
  })
  expect((await runCli(['answer', prompt.id, 'yes'], home.env)).stderr).toMatch(/no open prompt/)
})

it('takes hooks down the home’s socket only: over TCP a hook needs the admin token, and the socket opens nothing else', async () => {
  await start()
  const overTcp = (token?: string) =>
    fetch(`${home.url}/api/claude-hooks/Stop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(input('Stop')),
    })
  expect((await overTcp()).status).toBe(401)
  // The token an earlier install wrote into settings.json opens nothing now.
  writeFileSync(join(home.dir, 'hook-token'), 'sbh_earlier\n')
  expect((await overTcp('sbh_earlier')).status).toBe(401)
  expect((await overTcp(readAdminToken({ home: home.dir, adminToken: null }))).status).toBe(200)
  expect((await hook('Stop', input('Stop'))).status).toBe(200)
  // Down the socket with no token: the hook route and nothing else.
  const decisions = await hubRequest(
    { socketPath: join(home.dir, `hub-${home.port}.sock`) },
    'GET',
    '/api/decisions',
  )
  expect(decisions.status).toBe(401)
  // The path and the input must name the same event.
  const mismatch = await hook('Stop', input('Notification', { message: 'hi', notification_type: 'x' }))
  expect(mismatch.status).toBe(400)
  expect((await hook('Stop', { hook_event_name: 'Stop' })).json.error).toMatch(/session_id/)
})

it('acts for the session that registered itself: a hook naming another session’s subscriber takes none of its events', async () => {
  await start()
  const victim = SESSION
  const other = '5f0c1a2e-0000-4000-8000-0000000000ee'
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'other-project-')))
  opened.push({ close: () => rmSync(elsewhere, { recursive: true, force: true }) })
  await hook('SessionStart', input('SessionStart', { source: 'startup' }, victim))
  const name = basename(project)
  await runCli(['send', name, 'the deploy key rotates at noon'], home.env)
  // Another session names the victim's subscriber in its header: it is bound to a name of its own.
  const stolen = await hook(
    'UserPromptSubmit',
    { ...input('UserPromptSubmit', { prompt: 'x', source: 'user' }, other), cwd: elsewhere },
    { headers: { 'x-switchboard-name': name } },
  )
  expect(JSON.stringify(stolen.json)).not.toContain('deploy key')
  // A later hook of the victim naming another subscriber is still the victim's.
  const own = await hook(
    'UserPromptSubmit',
    input('UserPromptSubmit', { prompt: 'go', source: 'user' }, victim),
    {
      headers: { 'x-switchboard-name': 'somebody-else' },
    },
  )
  expect(JSON.stringify(own.json)).toContain('the deploy key rotates at noon')
  const admin = readAdminToken({ home: home.dir, adminToken: null })
  const { sessions } = (await (
    await fetch(`${home.url}/api/terminal-sessions`, { headers: { authorization: `Bearer ${admin}` } })
  ).json()) as { sessions: { sessionId: string; name: string }[] }
  expect(Object.fromEntries(sessions.map((t) => [t.sessionId, t.name]))).toEqual({
    [victim]: name,
    [other]: basename(elsewhere),
  })
})

it('gives two sessions in folders of one name two names, so neither takes the other’s events', async () => {
  await start()
  const twin = realpathSync(mkdtempSync(join(tmpdir(), 'twin-')))
  opened.push({ close: () => rmSync(twin, { recursive: true, force: true }) })
  const sameName = join(twin, basename(project))
  mkdirSync(sameName)
  const second = '5f0c1a2e-0000-4000-8000-0000000000ef'
  await hook('SessionStart', input('SessionStart', { source: 'startup' }))
  await hook('SessionStart', { ...input('SessionStart', { source: 'startup' }, second), cwd: sameName })
  await runCli(['send', `${basename(project)}-2`, 'for the second one'], home.env)
  const first = await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'a', source: 'user' }))
  expect(JSON.stringify(first.json)).not.toContain('for the second one')
  const other = await hook('UserPromptSubmit', {
    ...input('UserPromptSubmit', { prompt: 'b', source: 'user' }, second),
    cwd: sameName,
  })
  expect(JSON.stringify(other.json)).toContain('for the second one')
})

it('tells operators a session waits or finished only while its person is away, and escalates a wait they leave', async () => {
  await start({ SWITCHBOARD_PRESENCE_SECONDS: '600', SWITCHBOARD_ESCALATE_SECONDS: '0' })
  const away = '5f0c1a2e-0000-4000-8000-0000000000aa'
  // Someone typed at SESSION a moment ago: neither its wait nor its turn's end goes to the phone.
  await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'go', source: 'user' }))
  await hook(
    'Notification',
    input('Notification', {
      message: 'Claude needs your permission',
      notification_type: 'permission_prompt',
    }),
  )
  await hook('Stop', input('Stop', { stop_hook_active: false, last_assistant_message: 'done here' }))
  await hook(
    'Stop',
    input('Stop', { stop_hook_active: false, last_assistant_message: 'All 12 tests pass.' }, away),
  )
  await waitFor(() => operator.messages.some((m) => m.event === 'notice'), 10_000, 'a notice')
  await hook(
    'Notification',
    input(
      'Notification',
      { message: 'Claude is waiting for your input', notification_type: 'permission_prompt' },
      away,
    ),
  )
  await waitFor(
    () => operator.messages.filter((m) => m.event === 'notice').length === 2,
    10_000,
    'two notices',
  )
  const notices = operator.messages.filter((m) => m.event === 'notice').map((m) => m.data)
  // The second session of the folder has a name of its own, and is told apart by it until it has a title.
  const second = `${basename(project)}-2`
  expect(notices).toEqual([
    expect.objectContaining({
      session: second,
      claude_session: away,
      kind: 'finished',
      text: `${basename(project)} · ${second}: Claude finished its turn\n\nAll 12 tests pass.`,
    }),
    expect.objectContaining({
      session: second,
      claude_session: away,
      kind: 'waiting',
      text: `${basename(project)} · ${second}: Claude is waiting for you\n\nClaude is waiting for your input`,
    }),
  ])
})

it('escalates a wait the person at the terminal leaves unanswered', async () => {
  await start({ SWITCHBOARD_PRESENCE_SECONDS: '600', SWITCHBOARD_ESCALATE_SECONDS: '1' })
  await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'go', source: 'user' }))
  await hook(
    'Notification',
    input('Notification', {
      message: 'Claude needs your permission',
      notification_type: 'permission_prompt',
    }),
  )
  await waitFor(() => operator.messages.some((m) => m.event === 'notice'), 10_000, 'the escalated notice')
  expect(operator.messages.find((m) => m.event === 'notice')?.data).toMatchObject({
    session: basename(project),
    claude_session: SESSION,
    kind: 'waiting',
  })
})

it('does not escalate a wait the person answered at the terminal: the session went on', async () => {
  // Long enough that the person's answer (the next hook, a moment later) always comes first.
  await start({ SWITCHBOARD_PRESENCE_SECONDS: '600', SWITCHBOARD_ESCALATE_SECONDS: '5' })
  await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'go', source: 'user' }))
  await hook(
    'Notification',
    input('Notification', {
      message: 'Claude needs your permission',
      notification_type: 'permission_prompt',
    }),
  )
  // Answered at the terminal: the tool ran and the turn ended; later the session idles at its prompt.
  await hook('PostToolUse', input('PostToolUse', { ...bash, tool_response: {}, tool_use_id: 'toolu_1' }))
  await hook('Stop', input('Stop', { stop_hook_active: false, last_assistant_message: 'done' }))
  await hook(
    'Notification',
    input('Notification', {
      message: 'Claude is waiting for your input',
      notification_type: 'idle_prompt',
    }),
  )
  await waitFor(() => operator.messages.some((m) => m.event === 'notice'), 15_000, 'the escalated notice')
  const notices = operator.messages.filter((m) => m.event === 'notice').map((m) => m.data)
  expect(notices).toEqual([
    expect.objectContaining({
      kind: 'waiting',
      // Named by its project and the title of its first prompt.
      text: `${basename(project)} · go: Claude is waiting for you\n\nClaude is waiting for your input`,
    }),
  ])
})

it('registers a terminal session from its hooks, lists it, and hands it what is about its project with its next prompt', async () => {
  await start({ SWITCHBOARD_ROUTING: 'project' })
  await hook('SessionStart', input('SessionStart', { source: 'startup', model: 'claude-opus-4' }))
  const admin = readAdminToken({ home: home.dir, adminToken: null })
  const list = async () =>
    (await (
      await fetch(`${home.url}/api/terminal-sessions`, { headers: { authorization: `Bearer ${admin}` } })
    ).json()) as {
      sessions: Record<string, unknown>[]
    }
  const name = basename(project)
  expect((await list()).sessions).toEqual([
    expect.objectContaining({
      sessionId: SESSION,
      folder: project,
      name,
      branch: 'feature/hooks',
      model: 'claude-opus-4',
      channel: false,
      status: 'running',
    }),
  ])
  // A header names the columns; --json is the list alone.
  const terminals = (await runCli(['sessions', 'terminals'], home.env)).stdout.split('\n')
  expect(terminals[0]).toBe('SESSION\tSTATUS\tNAME\tBRANCH\tMODEL\tCHANNEL\tLAST SEEN\tFOLDER')
  expect(terminals[1]).toMatch(new RegExp(`^${SESSION}\trunning\t${name}\tfeature/hooks\tclaude-opus-4\t-\t`))
  const json = JSON.parse((await runCli(['sessions', 'terminals', '--json'], home.env)).stdout)
  expect(json).toEqual([expect.objectContaining({ sessionId: SESSION, status: 'running' })])
  const secret = await home.addSource('ci')
  const post = (text: string) =>
    fetch(`${home.url}/hooks/ci`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: text,
    })
  // A source bound to no project: its events are about none, and no session of a project takes them.
  expect((await post('the nightly build of another team is red')).status).toBe(202)
  const quiet = await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'go', source: 'user' }))
  expect(JSON.stringify(quiet.json)).not.toContain('nightly')
  // Bound to this project, its next event is this session's.
  await runCli(['source', 'bind', 'ci', '--project', project], home.env)
  expect((await post('also update the changelog')).status).toBe(202)
  const context = await hook(
    'UserPromptSubmit',
    input('UserPromptSubmit', { prompt: 'go on', source: 'user' }),
  )
  expect(context.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit' } })
  expect(JSON.stringify(context.json)).toContain('also update the changelog')
  await hook('SessionEnd', input('SessionEnd', { reason: 'prompt_input_exit' }))
  expect((await list()).sessions[0]).toMatchObject({ status: 'ended', endReason: 'prompt_input_exit' })
})

it('shows a dialog that both the channel and the hooks of one session relay to operators once', async () => {
  const log = join(home.dir, 'hub-test.log')
  await start({ SWITCHBOARD_LOG_FILE: log })
  const name = 'both-ways'
  // Claude Code names its session to the MCP servers it starts.
  const channel = await ChannelClient.start(home, ['--name', name], { CLAUDE_CODE_SESSION_ID: SESSION })
  opened.push(channel)
  const open = async () => (await openDecisions()).length
  // The channel relays the dialog first; then the session's hook asks about the same call.
  await channel.sendPermissionRequest({
    request_id: 'abcde',
    tool_name: 'Bash',
    description: 'say hi',
    input_preview: JSON.stringify(bash.tool_input),
  })
  await promptOfKind('permission')
  const answered = hook('PermissionRequest', input('PermissionRequest', bash), {
    timeout: 330,
    headers: { 'x-switchboard-name': name },
  })
  await waitFor(
    () => existsSync(log) && readFileSync(log, 'utf8').includes('hook waits on its channel'),
    10_000,
    'the hook waiting on the channel’s prompt',
  )
  expect(await open()).toBe(1)
  await runCli(['answer', 'abcde', 'yes'], home.env)
  expect((await answered).json).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } })
  await waitFor(() => channel.verdicts.length === 1, 10_000, 'the channel’s verdict')

  // The other way round: the hook asks first, the channel relays the same dialog after it.
  const second = hook(
    'PermissionRequest',
    input('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'ls' } }),
    { timeout: 330, headers: { 'x-switchboard-name': name } },
  )
  await waitFor(
    () => operator.messages.filter((m) => m.event === 'permission').length === 2,
    10_000,
    'the hook’s prompt',
  )
  const hooked = operator.messages.filter((m) => m.event === 'permission')[1]?.data as Prompt
  await channel.sendPermissionRequest({
    request_id: 'fghij',
    tool_name: 'Bash',
    description: 'list',
    input_preview: '{"command":"ls"}',
  })
  await waitFor(
    async () => (await storedOpen()).some((d) => d.code === 'fghij'),
    10_000,
    'the channel’s copy stored',
  )
  expect(await open()).toBe(1)
  await runCli(['answer', hooked.id, 'yes'], home.env)
  expect((await second).json).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } })
  await waitFor(() => channel.verdicts.length === 2, 10_000, 'the channel’s second verdict')
  expect(channel.verdicts[1]).toEqual({ request_id: 'fghij', behavior: 'allow' })
  expect(operator.messages.filter((m) => m.event === 'permission')).toHaveLength(2)
})

async function openDecisions(): Promise<unknown[]> {
  return JSON.parse((await runCli(['decisions', '--json'], home.env)).stdout) as unknown[]
}

/** The open decisions as stored, twins included. */
async function storedOpen() {
  const store = openSqliteStore(join(home.dir, 'switchboard.db'))
  try {
    return await store.listDecisions({ status: 'open' })
  } finally {
    await store.close()
  }
}
