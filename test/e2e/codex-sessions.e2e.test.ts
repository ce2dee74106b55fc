// Codex sessions driven like Claude Code's (issue 35, driving): the hub runs the real Codex CLI
// (pinned 0.171.0, `codex app-server`, offline against test/fakes/openai.ts) behind the same session
// model. Started through the API with agent "codex", its command prompt is a decision naming Codex
// that `switchboard answer` allows (the command ran, the model had its output); a second prompt is a
// second turn; an interrupt during a slow stream ends the turn as interrupted; a stopped session
// resumes its thread in a new app-server process, and the model is shown the whole history; no
// Codex process is left behind. Webhook events reach a Codex session with their receipts, in_context
// only once Codex's own rollout file shows them. A routine starts a Codex session on an event, and its
// run ends when that session is idle. A driven Codex session's command prompt reaches an operator on
// Telegram's fake (the real grammy client) naming Codex, and the Allow button runs the command. A
// driven Codex is given the user's CODEX_HOME and OPENAI_API_KEY from the hub's environment.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import {
  FakeOpenAI,
  lastToolOutput,
  type ResponsesRequest,
  shellThenDoneOrSlow,
  userTexts,
} from '../fakes/openai.js'
import { botMessages, bridgeAddArgs, editOf, FAKES, pair, person } from '../helpers/bridge-world.js'
import { CodexHome } from '../helpers/codex.js'
import { agentProcesses, DrivingHub, type SessionView } from '../helpers/driven-agent.js'
import { CLI, runCli, TestHome, waitFor } from '../helpers/home.js'
import { oneOpenDecision } from '../helpers/open-decision.js'

let fake: FakeOpenAI
let home: TestHome
let codex: CodexHome
let hub: DrivingHub
let env: Record<string, string>

beforeEach(async () => {
  fake = await new FakeOpenAI().start()
  fake.respond(shellThenDoneOrSlow)
  home = await TestHome.create()
  codex = new CodexHome(fake.baseUrl)
  env = codex.env({
    SWITCHBOARD_HOME: home.dir,
    SWITCHBOARD_PORT: String(home.port),
    // The hub passes its sessions only the variables it knows; Codex's key for the fake is one more.
    SWITCHBOARD_SESSION_ENV: 'FAKE_OPENAI_KEY',
  })
  hub = new DrivingHub(home, env)
  await hub.start()
})

afterEach(async () => {
  await hub.stop()
  codex.cleanup()
  await fake.close()
  await home.cleanup()
})

type View = SessionView
const until = (id: string, done: (v: View) => boolean, what: string, ms?: number) =>
  hub.until(id, done, what, ms)

const codexProcesses = () => agentProcesses('app-server', codex.home)

it('drives a Codex session: a prompt answered with switchboard answer, a second turn, an interrupt, a resume in a new process', {
  timeout: 240_000,
}, async () => {
  const made = join(codex.cwd, 'made-by-codex')
  const first = `RUN:touch ${made} && echo made-it`
  const created = (await home.api('createSession', {
    body: { prompt: first, agent: 'codex', options: { cwd: codex.cwd } },
  })) as View
  expect(created).toMatchObject({ agent: 'codex' })

  // The command prompt is a decision of the one inbox, naming Codex.
  const asked = await oneOpenDecision(home, env, 'the Codex command prompt as a decision', 60_000)
  expect(asked.owner).toBe(created.id)
  expect(asked.request).toMatchObject({ agent: 'codex', tool_name: 'Bash' })
  expect(String((asked.request.input as { command?: string }).command)).toContain(`touch ${made}`)
  expect((await runCli(['answer', asked.code, 'yes'], env)).stdout).toMatch(/^allowed /)

  const afterFirst = await until(created.id, (v) => v.status === 'idle', 'the first turn to end')
  expect(existsSync(made)).toBe(true)
  expect(lastToolOutput(fake.requests.at(-1) as ResponsesRequest)).toContain('made-it')
  expect(afterFirst.lastResult).toContain('DONE:')
  // The thread is the session's own id, what a resume takes; Codex prices nothing.
  expect(afterFirst.claudeSessionId).toMatch(/^[0-9a-f-]{36}$/)
  expect(afterFirst.costUsd).toBe(0)
  const { lines } = await home.api('sessionLines', { params: { id: created.id } })
  const types = lines.map(({ line }) => line.type)
  expect(types[0]).toBe('system')
  const toolUse = lines.find(({ line }) => JSON.stringify(line).includes('"tool_use"'))
  expect(JSON.stringify(toolUse?.line)).toContain(`touch ${made}`)
  const result = lines.find(({ line }) => line.type === 'result')?.line as {
    usage?: { output_tokens?: number }
  }
  expect(result.usage?.output_tokens).toBeGreaterThan(0)

  // A second prompt is a second turn of the same thread.
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'and now?' } })
  const second = await until(created.id, (v) => v.status === 'idle' && v.turns === 2, 'the second turn')
  expect(second.lastResult).toBe('nothing to do')
  expect(userTexts(fake.requests.at(-1) as ResponsesRequest)).toEqual(
    expect.arrayContaining([first, 'and now?']),
  )

  // An interrupt during a slow stream ends the turn as interrupted; the process stays.
  const before = fake.requests.length
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'SLOW' } })
  await waitFor(() => fake.requests.length > before, 30_000, 'the slow request to reach the model')
  await home.api('interrupt', { params: { id: created.id } })
  const interrupted = await until(created.id, (v) => v.status === 'interrupted', 'the interrupt')
  expect(interrupted.live).toBe(true)
  expect(codexProcesses().length).toBeGreaterThan(0)

  // Stopped, then resumed by its next message in a new app-server: the model sees every turn.
  await home.api('stopSession', { params: { id: created.id } })
  await until(created.id, (v) => !v.live, 'the session to stop')
  expect(codexProcesses()).toEqual([])
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'what came before?' } })
  const resumed = await until(created.id, (v) => v.status === 'idle' && v.turns >= 4, 'the resumed turn')
  expect(resumed.claudeSessionId).toBe(afterFirst.claudeSessionId)
  expect(userTexts(fake.requests.at(-1) as ResponsesRequest)).toEqual(
    expect.arrayContaining([first, 'and now?', 'SLOW', 'what came before?']),
  )

  await home.api('stopSession', { params: { id: created.id } })
  await until(created.id, (v) => !v.live, 'the session to stop again')
  expect(codexProcesses()).toEqual([])
})

type Delivery = { subscriber: string; state: string; written: string | null; in_context: string | null }

/** POSTs `body` to the webhook source `ci`; the event's id. */
async function postWebhook(secret: string, body: string): Promise<string> {
  const res = await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  if (res.status !== 202) throw new Error(`webhook answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { id: string }).id
}

async function inContext(eventId: string): Promise<Delivery> {
  let deliveries: Delivery[] = []
  await waitFor(
    async () => {
      ;({ deliveries } = (await home.api('event', { params: { id: eventId } })) as { deliveries: Delivery[] })
      return deliveries.some((d) => d.state === 'in_context')
    },
    60_000,
    `event ${eventId} in context`,
  )
  return deliveries.find((d) => d.state === 'in_context') as Delivery
}

it("confirms a webhook event in a Codex session's context from its rollout file, whether the session was idle or in a turn", {
  timeout: 180_000,
}, async () => {
  const secret = await home.addSource('ci')
  const created = (await home.api('createSession', {
    body: { prompt: 'wait for events', agent: 'codex', options: { cwd: codex.cwd }, topics: ['ci'] },
  })) as View
  await until(created.id, (v) => v.status === 'idle', 'the first turn to end')

  // Idle: the event starts a turn, and the model is shown it.
  const idle = await postWebhook(secret, 'build 41 failed on main')
  expect(await inContext(idle)).toMatchObject({ subscriber: `session:${created.id}` })
  await waitFor(
    () => fake.requests.some((r) => userTexts(r).some((t) => t.includes('build 41 failed on main'))),
    30_000,
    'the event in a model request',
  )
  const deliveries = ((await home.api('event', { params: { id: idle } })) as { deliveries: Delivery[] })
    .deliveries
  expect(deliveries[0]?.written).not.toBeNull()

  // In a turn: the event joins it, and is in context once Codex recorded it; the model sees it next.
  await until(created.id, (v) => v.status === 'idle', 'the event turn to end')
  const before = fake.requests.length
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'SLOW' } })
  await waitFor(() => fake.requests.length > before, 30_000, 'the slow request to reach the model')
  const busy = await postWebhook(secret, 'deploy 7 rolled back')
  await inContext(busy)
  await waitFor(
    () =>
      fake.requests
        .slice(before + 1)
        .some((r) => userTexts(r).some((t) => t.includes('deploy 7 rolled back'))),
    60_000,
    'the event sent mid-turn in a later model request',
  )
  // What the adapter said of each, in Claude Code's words: the idle one started; the other was
  // queued behind the running turn first.
  const { lines } = await home.api('sessionLines', { params: { id: created.id } })
  const fates = new Map<string, string[]>()
  for (const { line } of lines)
    if (line.type === 'command_lifecycle')
      fates.set(String(line.command_uuid), [
        ...(fates.get(String(line.command_uuid)) ?? []),
        String(line.state),
      ])
  expect([...fates.values()]).toEqual([['started'], ['queued', 'started']])
})

it("puts a driven Codex session's command prompt to Telegram, naming Codex, and the Allow button runs the command", {
  timeout: 180_000,
}, async () => {
  const telegram = await FAKES.telegram()
  try {
    // Added while the hub runs, as a person does: the hub picks the bridge up.
    await home.cli(...bridgeAddArgs(telegram))
    await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge to connect', 30_000)
    const olga = person('telegram', 2, 'olga')
    const chat = await pair(home, telegram, olga, true)

    const made = join(codex.cwd, 'allowed-from-telegram')
    const created = (await home.api('createSession', {
      body: { prompt: `RUN:touch ${made} && echo phoned`, agent: 'codex', options: { cwd: codex.cwd } },
    })) as View
    const prompt = await telegram.waitFor(
      () => botMessages(telegram, chat).find((m) => m.text.includes('Permission: Bash')),
      'the Codex prompt on the phone',
      60_000,
    )
    expect(prompt.text).toContain('(Codex)')
    expect(prompt.text).toContain(`touch ${made}`)
    expect(existsSync(made)).toBe(false)
    const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
    await telegram.press(olga, chat, prompt.messageId, allow?.data as string)

    const done = await until(created.id, (v) => v.status === 'idle', 'the turn to end')
    expect(existsSync(made)).toBe(true)
    expect(done.lastResult).toContain('phoned')
    await editOf(telegram, chat, prompt.messageId, 'Allowed by olga', 'the prompt marked allowed')
  } finally {
    await telegram.close()
  }
})

it("gives a driven Codex the user's CODEX_HOME and OPENAI_API_KEY from the hub's environment", {
  timeout: 120_000,
}, async () => {
  // As a user of the OpenAI API has it: Codex's home away from ~/.codex, its key in OPENAI_API_KEY.
  const elsewhere = join(codex.home, 'codex-elsewhere')
  mkdirSync(elsewhere)
  const config = codex.config().replace(/env_key = "\w+"/, 'env_key = "OPENAI_API_KEY"')
  expect(config).toContain('env_key = "OPENAI_API_KEY"')
  writeFileSync(join(elsewhere, 'config.toml'), config)
  rmSync(codex.configFile)
  await hub.stop()
  const { SWITCHBOARD_SESSION_ENV: _named, FAKE_OPENAI_KEY: _fake, ...rest } = env
  const users = { ...rest, CODEX_HOME: elsewhere, OPENAI_API_KEY: 'sk-users-own' }
  await hub.start(users)

  const created = (await home.api('createSession', {
    body: { prompt: 'hello from the user', agent: 'codex', options: { cwd: codex.cwd } },
  })) as View
  const done = await until(created.id, (v) => v.status !== 'running', 'the turn to end')
  expect(done).toMatchObject({ status: 'idle', lastResult: 'nothing to do' })
  expect(fake.requests.some((r) => userTexts(r).includes('hello from the user'))).toBe(true)
  // Codex kept its record where the user keeps Codex's home.
  expect(readdirSync(join(elsewhere, 'sessions'), { recursive: true }).join('\n')).toMatch(
    /rollout-.*\.jsonl/,
  )
})

it('starts a Codex session from a routine on an event, and ends the run once the session is idle', {
  timeout: 180_000,
}, async () => {
  const secret = await home.addSource('ci')
  await home.api('addRoutine', {
    body: {
      name: 'codex-ci',
      trigger: { kind: 'events', topics: ['ci'] },
      action: { kind: 'start', agent: 'codex', folder: codex.cwd, prompt: 'CI spoke: look into it.' },
    },
  })
  await postWebhook(secret, 'build 12 failed on main')

  type Run = { id: string; state: string; sessionId: string | null; reason: string | null }
  let runs: Run[] = []
  await waitFor(
    async () => {
      ;({ runs } = (await home.api('routineRuns', { params: { name: 'codex-ci' } })) as { runs: Run[] })
      return runs[0]?.state === 'done'
    },
    90_000,
    'the routine run to be done',
  )
  const [run] = runs
  // The run ended with the session's turn: its answer is the run's outcome, its session stopped.
  expect(run?.reason).toBe('nothing to do')
  const session = (await home.api('session', { params: { id: String(run?.sessionId) } })) as View
  expect(session).toMatchObject({ lastResult: 'nothing to do', live: false })
  // Codex ran it: its thread opened the session, and the fake Responses API had the prompt and event.
  const { lines } = await home.api('sessionLines', { params: { id: session.id } })
  expect(lines[0]?.line).toMatchObject({ type: 'system', subtype: 'init', agent: 'codex' })
  const asked = fake.requests.find((r) => userTexts(r).some((t) => t.includes('CI spoke: look into it.')))
  expect(userTexts(asked as ResponsesRequest).join('\n')).toContain('build 12 failed on main')
  expect(codexProcesses()).toEqual([])
})

it('runs Codex from switchboard run --agent codex: a command denied at the terminal is declined, and never runs', {
  timeout: 120_000,
}, async () => {
  const refused = join(codex.cwd, 'refused-at-the-terminal')
  const child = spawn(
    process.execPath,
    [CLI, 'run', '--agent', 'codex', '--cwd', codex.cwd, `RUN:touch ${refused}`],
    {
      env,
    },
  )
  let output = ''
  child.stdout.on('data', (c: Buffer) => {
    output += c
  })
  child.stderr.on('data', (c: Buffer) => {
    output += c
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  try {
    await waitFor(() => output.includes('[y/n]'), 60_000, `the prompt at the terminal\n${output}`)
    // The prompt names Codex, whose prompt it is.
    expect(output).toMatch(new RegExp(`Codex wants to run Bash: .*touch ${refused}`))
    child.stdin.write('n\n')
    expect(await exited).toBe(0)
  } finally {
    child.kill()
  }
  expect(existsSync(refused)).toBe(false)
  // Codex told its model the command was declined, and the turn went on to its end.
  expect(lastToolOutput(fake.requests.at(-1) as ResponsesRequest)).toContain('rejected by user')
  expect(output).toContain('DONE:')
  await waitFor(() => codexProcesses().length === 0, 15_000, 'Codex to end with the run')
})

it('refuses run --agent with an agent the hub does not know, in one line', { timeout: 60_000 }, async () => {
  const run = await runCli(['run', '--agent', 'aider', 'hello'], env)
  expect(run.code).not.toBe(0)
  expect(run.stderr.trim().split('\n')).toHaveLength(1)
  expect(run.stderr).toContain('--agent: the agent is one of: claude, codex, gemini, opencode')
})
