// The Claude Code hook facts Switchboard's hooks rung relies on (docs/claude-hooks.md), each checked
// against the pinned CLI offline: `-p` and interactive under tmux, no channel, no flag, hooks of
// `type: "http"` aimed at a tiny server here. A CLI upgrade that changes one of them fails here first.
// The payloads are kept, normalized, in test/fixtures/claude-hooks/; CAPTURE_HOOK_FIXTURES=1 rewrites
// them from what the CLI sends (then `npx biome format --write test/fixtures/claude-hooks`); otherwise
// each payload must still carry every key of its fixture.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeAnthropic, type MessagesRequest, textOf, toolResults } from '../fakes/anthropic.js'
import { CLAUDE_BIN, ClaudeHome, PrintSession, ROOT } from '../helpers/claude.js'
import { waitFor } from '../helpers/home.js'
import { type HookAnswer, HookTarget, json } from '../helpers/hook-target.js'
import { TWO_QUESTIONS } from '../helpers/questions.js'
import { TmuxSession } from '../helpers/tmux.js'

const FIXTURES = join(ROOT, 'test/fixtures/claude-hooks')

let fake: FakeAnthropic
let target: HookTarget
let claude: ClaudeHome
const closers: (() => unknown)[] = []

beforeEach(async () => {
  fake = await new FakeAnthropic().start()
  target = await new HookTarget().start()
  claude = new ClaudeHome()
})

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  await target.close()
  await fake.close()
  claude.cleanup()
})

type Hook = Record<string, unknown>
type Hooks = Record<string, { matcher?: string; hooks: Hook[] }[]>

const http = (path: string, extra: Hook = {}): Hook => ({ type: 'http', url: target.url(path), ...extra })
const on = (path: string, matcher?: string, extra: Hook = {}) => [
  { ...(matcher ? { matcher } : {}), hooks: [http(path, extra)] },
]

/** User settings of the throwaway HOME: what `switchboard install claude --hooks` writes to. */
function installHooks(hooks: Hooks, config: Record<string, unknown> = {}): void {
  mkdirSync(join(claude.home, '.claude'), { recursive: true })
  writeFileSync(join(claude.home, '.claude', 'settings.json'), JSON.stringify({ hooks }))
  const file = join(claude.home, '.claude.json')
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...config }))
}

const permission = (decision: Record<string, unknown>) =>
  json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } })
const preToolUse = (output: Record<string, unknown>) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...output } })

const BASH = { command: 'touch marker', description: 'Create the marker' }

/** The model calls `tool` once, then says what the tool answered. */
function modelCalls(tool: string, input: Record<string, unknown>): void {
  fake.respond((request: MessagesRequest) => {
    const results = toolResults(request)
    if (results.length) return { text: `the tool said: ${textOf(results[0]?.content)}` }
    return { tool, input }
  })
}

const theToolResult = () => fake.requests.flatMap(toolResults)[0]

/** One `-p` turn with the hooks installed; resolves once the turn ended and the CLI exited. */
async function printTurn(prompt: string, env: Record<string, string> = {}): Promise<PrintSession> {
  const session = new PrintSession([], { cwd: claude.cwd, env: claude.env(fake.url, env) })
  closers.push(() => session.close())
  session.send(prompt)
  await session.waitForResults(1)
  await session.close()
  return session
}

/** Interactive Claude Code under tmux in `mode`, with `prompt` typed and sent. */
async function terminalTurn(prompt: string, mode: 'default' | 'plan' = 'default'): Promise<TmuxSession> {
  const terminal = new TmuxSession([CLAUDE_BIN, '--permission-mode', mode], {
    cwd: claude.cwd,
    env: claude.env(fake.url),
  })
  closers.push(() => terminal.kill())
  await terminal.waitForScreen(/❯/)
  terminal.keys('-l', prompt)
  await terminal.waitForScreen(new RegExp(`❯\\s${prompt}`))
  terminal.keys('Enter')
  return terminal
}

async function called(path: string, n = 1, ms = 30_000): Promise<void> {
  await waitFor(() => target.on(path).length >= n, ms, `${n} call(s) of the ${path} hook`)
}

// --- fixtures ------------------------------------------------------------------------------------

/** Machine paths and ids out; what stays is the shape and the values that are facts. */
function normalized(value: unknown): unknown {
  const dashed = claude.cwd.replace(/\//g, '-')
  const walk = (v: unknown, key?: string): unknown => {
    if (key === 'session_id') return '<session-id>'
    if (key === 'prompt_id') return '<prompt-id>'
    if (key === 'duration_ms') return 0
    if (typeof v === 'string')
      return v
        .replaceAll(claude.home, '<home>')
        .replaceAll(dashed, '<cwd-as-dir-name>')
        .replaceAll(claude.cwd, '<cwd>')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<session-id>')
        .replace(/\/plans\/[^/]+\.md$/, '/plans/<plan-slug>.md')
    if (Array.isArray(v)) return v.map((item) => walk(item))
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, k)]))
    return v
  }
  return walk(value)
}

/** A value's keys and types, arrays by their first item: what a fixture pins. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : []
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
  return value === null ? 'null' : typeof value
}

/** Records a payload as a fixture (CAPTURE_HOOK_FIXTURES=1), else checks it still has the fixture's shape. */
function pinned(name: string, payload: unknown): void {
  const file = join(FIXTURES, `${name}.json`)
  const clean = normalized(payload)
  if (process.env.CAPTURE_HOOK_FIXTURES === '1') {
    mkdirSync(FIXTURES, { recursive: true })
    writeFileSync(file, `${JSON.stringify(clean, null, 2)}\n`)
    return
  }
  expect(shape(clean), `${name}: the payload lost keys its fixture has`).toMatchObject(
    shape(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>,
  )
}

// --- -p mode -------------------------------------------------------------------------------------

describe('-p mode, no channel', () => {
  it('sends every hook event as a JSON POST; a PermissionRequest allow runs the Bash command', {
    timeout: 60_000,
  }, async () => {
    const command = `cat > ${join(claude.home, 'session-start.json')}`
    installHooks({
      PermissionRequest: on('/permission', 'Bash', {
        headers: { 'X-Allowed': 'Bearer $HOOK_TOKEN', 'X-Not-Allowed': 'v=$OTHER_TOKEN' },
        allowedEnvVars: ['HOOK_TOKEN'],
      }),
      PreToolUse: on('/pre-tool-use', 'Bash'),
      PostToolUse: on('/post-tool-use', 'Bash'),
      UserPromptSubmit: on('/user-prompt-submit'),
      Stop: on('/stop'),
      SessionEnd: on('/session-end'),
      // SessionStart takes no http hook: only the command one runs.
      SessionStart: [{ hooks: [http('/session-start'), { type: 'command', command }] }],
    })
    target.answer('/permission', () => permission({ behavior: 'allow' }))
    modelCalls('Bash', BASH)
    await printTurn('make the marker', { HOOK_TOKEN: 'tok-123', OTHER_TOKEN: 'never-sent' })

    expect(existsSync(join(claude.cwd, 'marker'))).toBe(true)
    expect(theToolResult()?.is_error).toBe(false)
    const [asked] = target.on('/permission')
    expect(asked?.headers['content-type']).toBe('application/json')
    expect(asked?.headers['x-allowed']).toBe('Bearer tok-123')
    expect(asked?.headers['x-not-allowed']).toBe('v=')
    expect(asked?.body).toMatchObject({
      hook_event_name: 'PermissionRequest',
      cwd: claude.cwd,
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: BASH,
    })
    expect(asked?.body.transcript_path).toMatch(/\.claude\/projects\/.+\.jsonl$/)
    expect(asked?.body.tool_use_id).toBeUndefined()
    expect(asked?.body.permission_suggestions.map((s: { type: string }) => s.type)).toEqual([
      'addDirectories',
      'setMode',
    ])
    pinned('permission-request.bash', asked?.body)
    pinned('pre-tool-use.bash', target.on('/pre-tool-use')[0]?.body)
    pinned('post-tool-use.bash', target.on('/post-tool-use')[0]?.body)
    pinned('user-prompt-submit', target.on('/user-prompt-submit')[0]?.body)
    const stop = target.on('/stop')[0]?.body
    expect(stop.last_assistant_message).toBe('the tool said: (Bash completed with no output)')
    pinned('stop', stop)
    const end = target.on('/session-end')[0]?.body
    expect(end).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' })
    pinned('session-end.print', end)

    expect(target.on('/session-start')).toHaveLength(0)
    const start = JSON.parse(readFileSync(join(claude.home, 'session-start.json'), 'utf8'))
    expect(start).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup' })
    pinned('session-start.print', start)
  })

  it('runs the edited command when a PermissionRequest allow carries updatedInput', {
    timeout: 60_000,
  }, async () => {
    installHooks({ PermissionRequest: on('/permission', 'Bash') })
    target.answer('/permission', () =>
      permission({ behavior: 'allow', updatedInput: { command: 'touch edited', description: 'edited' } }),
    )
    modelCalls('Bash', BASH)
    await printTurn('make the marker')
    expect(existsSync(join(claude.cwd, 'edited'))).toBe(true)
    expect(existsSync(join(claude.cwd, 'marker'))).toBe(false)
  })

  it("hands a PermissionRequest deny's message to the model as the tool's error", {
    timeout: 60_000,
  }, async () => {
    installHooks({ PermissionRequest: on('/permission', 'Bash') })
    target.answer('/permission', () => permission({ behavior: 'deny', message: 'Not now, from the phone' }))
    modelCalls('Bash', BASH)
    const session = await printTurn('make the marker')
    expect(existsSync(join(claude.cwd, 'marker'))).toBe(false)
    expect(theToolResult()).toMatchObject({ is_error: true, content: 'Not now, from the phone' })
    expect(session.results()[0]?.permission_denials).toHaveLength(1)
  })

  const failures: [string, Hook, HookAnswer][] = [
    ['answers 500', {}, () => ({ status: 500, body: 'boom' })],
    ['answers 200 with an empty body', {}, () => ({ body: '' })],
    ['answers 200 with {}', {}, () => json({})],
    ['answers 200 with text that is not JSON', {}, () => ({ body: 'hello' })],
    ['is not listening', { url: 'http://127.0.0.1:9/permission' }, () => ({})],
    ['answers after its timeout', { timeout: 1 }, () => 'hold'],
  ]
  it.each(failures)(
    'leaves the decision to Claude Code when the hook %s',
    {
      timeout: 60_000,
    },
    async (_case, extra, answer) => {
      installHooks({ PermissionRequest: on('/permission', 'Bash', extra) })
      target.answer('/permission', answer)
      modelCalls('Bash', BASH)
      await printTurn('make the marker')
      // What -p does with no one to ask: the usual refusal, not the hook's, and the turn goes on.
      expect(existsSync(join(claude.cwd, 'marker'))).toBe(false)
      expect(theToolResult()).toMatchObject({ is_error: true })
      expect(textOf(theToolResult()?.content)).toMatch(/needs approval/)
      if ('timeout' in extra) expect(target.on('/permission')[0]?.closedUnanswered).toBe(true)
    },
  )

  it('adds the additionalContext of UserPromptSubmit and PostToolUse http hooks to what the model reads', {
    timeout: 60_000,
  }, async () => {
    installHooks({
      UserPromptSubmit: on('/user-prompt-submit'),
      PostToolUse: on('/post-tool-use', 'Bash'),
      PermissionRequest: on('/permission', 'Bash'),
    })
    target.answer('/permission', () => permission({ behavior: 'allow' }))
    target.answer('/user-prompt-submit', () =>
      json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'PROMPT-NOTE-1' } }),
    )
    target.answer('/post-tool-use', () =>
      json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'TOOL-NOTE-2' } }),
    )
    modelCalls('Bash', BASH)
    await printTurn('make the marker')
    expect(textOf(fake.requests[0]?.messages)).toContain('PROMPT-NOTE-1')
    const afterTool = fake.requests.find((r) => toolResults(r).length > 0)
    expect(textOf(afterTool?.messages)).toContain('TOOL-NOTE-2')
  })

  it('offers no AskUserQuestion in plain -p', { timeout: 60_000 }, async () => {
    installHooks({ PreToolUse: on('/pre-tool-use', 'AskUserQuestion') })
    modelCalls('AskUserQuestion', TWO_QUESTIONS)
    await printTurn('ask me')
    expect(fake.requests[0]?.tools?.map((t) => t.name)).not.toContain('AskUserQuestion')
    expect(theToolResult()).toMatchObject({ is_error: true })
    expect(textOf(theToolResult()?.content)).toMatch(/No such tool available/)
    expect(target.on('/pre-tool-use')).toHaveLength(0)
  })
})

// --- interactive ---------------------------------------------------------------------------------

describe('interactive under tmux, no channel', () => {
  it('keeps the dialog on screen while the hook waits, and closes it with "Allowed by PermissionRequest hook"', {
    timeout: 90_000,
  }, async () => {
    installHooks({ PermissionRequest: on('/permission', 'Bash') })
    target.answer('/permission', () => 'hold')
    modelCalls('Bash', BASH)
    const terminal = await terminalTurn('make the marker')
    await called('/permission')
    await terminal.waitForScreen(/Do you want to proceed\?/)
    const [call] = target.on('/permission')
    expect(call && target.release(call, permission({ behavior: 'allow' }))).toBe(true)
    await terminal.waitForScreen(/Allowed by PermissionRequest hook/)
    await waitFor(() => existsSync(join(claude.cwd, 'marker')), 15_000, 'the marker file')
  })

  it('leaves the hook request open when the person answers at the terminal, and ignores its late answer', {
    timeout: 120_000,
  }, async () => {
    const command = `cat > ${join(claude.home, 'session-start.json')}`
    installHooks(
      {
        PermissionRequest: on('/permission', 'Bash'),
        PostToolUse: on('/post-tool-use', 'Bash'),
        Notification: on('/notification'),
        Stop: on('/stop'),
        SessionStart: [{ hooks: [{ type: 'command', command }] }],
      },
      // Idle notifications after 2 s instead of 60: the setting Claude Code reads from ~/.claude.json.
      { messageIdleNotifThresholdMs: 2000 },
    )
    target.answer('/permission', () => 'hold')
    modelCalls('Bash', BASH)
    const terminal = await terminalTurn('make the marker')
    await called('/permission')
    await terminal.waitForScreen(/Do you want to proceed\?/)

    // A dialog that stays open a few seconds is a Notification.
    await called('/notification')
    const prompt = target.on('/notification')[0]?.body
    expect(prompt).toMatchObject({
      message: 'Claude needs your permission',
      notification_type: 'permission_prompt',
    })
    pinned('notification.permission-prompt', prompt)

    terminal.keys('Enter') // "1. Yes" at the terminal, the hook still waiting
    await waitFor(() => existsSync(join(claude.cwd, 'marker')), 15_000, 'the marker file')
    await called('/post-tool-use')
    await called('/stop')
    const [held] = target.on('/permission')
    expect(held?.closedUnanswered).toBe(false) // not aborted: the CLI just stops listening

    // The person is idle now: the idle Notification.
    await waitFor(
      () => target.on('/notification').some((c) => c.body.notification_type === 'idle_prompt'),
      30_000,
      'the idle notification',
    )
    const idle = target.on('/notification').find((c) => c.body.notification_type === 'idle_prompt')?.body
    expect(idle?.message).toBe('Claude is waiting for your input')
    pinned('notification.idle-prompt', idle)

    // An answer after the person's: accepted on the wire, and nothing comes of it.
    expect(held && target.release(held, permission({ behavior: 'deny', message: 'LATE-DENY' }))).toBe(true)
    modelCalls('Bash', { command: 'touch second', description: 'Second marker' })
    terminal.keys('-l', 'once more')
    terminal.keys('Enter')
    await called('/permission', 2)
    expect(fake.requestsMentioning('LATE-DENY')).toHaveLength(0)
    expect(theToolResult()?.is_error).toBe(false)

    const start = JSON.parse(readFileSync(join(claude.home, 'session-start.json'), 'utf8'))
    expect(start).toMatchObject({
      hook_event_name: 'SessionStart',
      source: 'startup',
      model: 'claude-opus-5-5',
    })
    pinned('session-start.interactive', start)
  })

  it('runs a PreToolUse hook on AskUserQuestion before any dialog; its answers reach the model', {
    timeout: 90_000,
  }, async () => {
    installHooks({ PreToolUse: on('/pre-tool-use', 'AskUserQuestion') })
    target.answer('/pre-tool-use', () => 'hold')
    modelCalls('AskUserQuestion', TWO_QUESTIONS)
    const terminal = await terminalTurn('ask me')
    await called('/pre-tool-use')
    await terminal.waitForScreen(/running PreToolUse hook/)
    expect(terminal.screen()).not.toMatch(/Which colour\?/)
    const [call] = target.on('/pre-tool-use')
    pinned('pre-tool-use.ask-user-question', call?.body)
    const answers = { 'Which colour?': 'blue', 'Which size?': 'large' }
    const allow = preToolUse({
      permissionDecision: 'allow',
      updatedInput: { ...call?.body.tool_input, answers },
    })
    expect(call && target.release(call, allow)).toBe(true)
    await waitFor(() => theToolResult() !== undefined, 30_000, 'the answers to reach the model')
    expect(textOf(theToolResult()?.content)).toBe(
      'Your questions have been answered: "Which colour?"="blue", "Which size?"="large". ' +
        'You can now continue with these answers in mind.',
    )
    await terminal.waitForScreen(/Which size\? → large/)
  })

  it('asks a PermissionRequest hook about AskUserQuestion with the dialog open; allow with answers answers it', {
    timeout: 90_000,
  }, async () => {
    installHooks({ PermissionRequest: on('/permission', 'AskUserQuestion') })
    target.answer('/permission', () => 'hold')
    modelCalls('AskUserQuestion', TWO_QUESTIONS)
    const terminal = await terminalTurn('ask me')
    await called('/permission')
    await terminal.waitForScreen(/Which colour\?/)
    const [call] = target.on('/permission')
    pinned('permission-request.ask-user-question', call?.body)
    const answers = { 'Which colour?': 'red', 'Which size?': 'small' }
    const allow = permission({ behavior: 'allow', updatedInput: { ...call?.body.tool_input, answers } })
    expect(call && target.release(call, allow)).toBe(true)
    await waitFor(() => theToolResult() !== undefined, 30_000, 'the answers to reach the model')
    expect(textOf(theToolResult()?.content)).toContain('"Which colour?"="red", "Which size?"="small"')
    await terminal.waitForScreen(/Allowed by PermissionRequest hook/)
  })

  it('ignores a PermissionRequest allow without updatedInput on ExitPlanMode: the dialog stays open', {
    timeout: 90_000,
  }, async () => {
    installHooks({ PermissionRequest: on('/permission', 'ExitPlanMode'), Notification: on('/notification') })
    target.answer('/permission', () => permission({ behavior: 'allow' }))
    modelCalls('ExitPlanMode', {})
    const terminal = await terminalTurn('plan it', 'plan')
    await called('/permission')
    const [call] = target.on('/permission')
    expect(call?.body).toMatchObject({ tool_name: 'ExitPlanMode', tool_input: {}, permission_mode: 'plan' })
    pinned('permission-request.exit-plan-mode', call?.body)
    // Answered at once, yet the dialog is still open seconds later: it sends its Notification.
    await called('/notification')
    expect(target.on('/notification')[0]?.body.notification_type).toBe('permission_prompt')
    expect(call?.answered).toBe(true)
    await terminal.waitForScreen(/Exit plan mode\?/)
    expect(theToolResult()).toBeUndefined()
  })

  it('approves ExitPlanMode from a PermissionRequest allow that carries updatedInput', {
    timeout: 90_000,
  }, async () => {
    installHooks({ PermissionRequest: on('/permission', 'ExitPlanMode'), PostToolUse: on('/post-tool-use') })
    target.answer('/permission', (c) => permission({ behavior: 'allow', updatedInput: c.body.tool_input }))
    modelCalls('ExitPlanMode', {})
    const terminal = await terminalTurn('plan it', 'plan')
    await waitFor(() => theToolResult() !== undefined, 30_000, 'the approval to reach the model')
    expect(theToolResult()?.content).toBe('User has approved exiting plan mode. You can now proceed.')
    await terminal.waitForScreen(/Allowed by PermissionRequest hook/)
    await called('/post-tool-use')
    const done = target.on('/post-tool-use')[0]?.body
    expect(done.permission_mode).toBe('default')
    expect(done.tool_response.filePath).toMatch(/\/\.claude\/plans\/[^/]+\.md$/)
    pinned('post-tool-use.exit-plan-mode', done)
  })

  it.each([
    [
      'PermissionRequest deny',
      'PermissionRequest',
      permission({ behavior: 'deny', message: 'Smaller steps, please' }),
      'Smaller steps, please',
    ],
    [
      'PreToolUse deny',
      'PreToolUse',
      preToolUse({ permissionDecision: 'deny', permissionDecisionReason: 'Tests first, please' }),
      'PreToolUse:ExitPlanMode hook error: Tests first, please',
    ],
  ])(
    'sends a plan back with a %s: the model receives the comment',
    {
      timeout: 90_000,
    },
    async (_case, event, reply, seen) => {
      installHooks({ [event]: on('/hook', 'ExitPlanMode') })
      target.answer('/hook', () => reply)
      modelCalls('ExitPlanMode', {})
      await terminalTurn('plan it', 'plan')
      await waitFor(() => theToolResult() !== undefined, 30_000, 'the plan to be sent back')
      expect(theToolResult()).toMatchObject({ is_error: true, content: seen })
    },
  )
})
