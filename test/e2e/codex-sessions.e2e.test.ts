// Codex sessions driven like Claude Code's (issue 35, driving): the hub runs the real Codex CLI
// (pinned 0.171.0, `codex app-server`, offline against test/fakes/openai.ts) behind the same session
// model. Started through the API with agent "codex", its command prompt is a decision naming Codex
// that `switchboard answer` allows (the command ran, the model had its output); a second prompt is a
// second turn; an interrupt during a slow stream ends the turn as interrupted; a stopped session
// resumes its thread in a new app-server process, and the model is shown the whole history; no
// Codex process is left behind.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import {
  FakeOpenAI,
  lastToolOutput,
  lastUserText,
  type Responder,
  type ResponsesRequest,
  shellThenDone,
} from '../fakes/openai.js'
import { CodexHome } from '../helpers/codex.js'
import { CLI, runCli, TestHome, waitFor } from '../helpers/home.js'

let fake: FakeOpenAI
let home: TestHome
let codex: CodexHome
let hub: ChildProcess | null = null
let env: Record<string, string>

/** `SLOW` streams a long answer a word at a time; everything else is shellThenDone's. */
const script: Responder = (request, index) =>
  lastUserText(request) === 'SLOW' && lastToolOutput(request) === null
    ? { text: 'one two three four five six seven eight nine ten '.repeat(20), pieceMs: 300 }
    : shellThenDone(request, index)

beforeEach(async () => {
  fake = await new FakeOpenAI().start()
  fake.respond(script)
  home = await TestHome.create()
  codex = new CodexHome(fake.baseUrl)
  env = codex.env({
    SWITCHBOARD_HOME: home.dir,
    SWITCHBOARD_PORT: String(home.port),
    // The hub passes its sessions only the variables it knows; Codex's key for the fake is one more.
    SWITCHBOARD_SESSION_ENV: 'FAKE_OPENAI_KEY',
  })
  hub = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' })
  await home.waitForHub(15_000)
})

afterEach(async () => {
  if (hub && hub.exitCode === null && hub.signalCode === null) {
    hub.kill('SIGTERM')
    await once(hub, 'exit')
  }
  hub = null
  codex.cleanup()
  await fake.close()
  await home.cleanup()
})

type View = {
  id: string
  claudeSessionId: string | null
  status: string
  live: boolean
  lastResult: string | null
  turns: number
  costUsd: number
}

async function until(id: string, done: (v: View) => boolean, what: string): Promise<View> {
  let view: View | undefined
  await waitFor(
    async () => {
      view = (await home.api('session', { params: { id }, query: { wait: 5 } })) as View
      return done(view)
    },
    60_000,
    what,
  )
  return view as View
}

/**
 * Codex app-server processes with this test's HOME still running (read from /proc): the launcher
 * and the native binary it may run as its child.
 */
function codexProcesses(): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
        return cmdline.includes('app-server') && environ.includes(`HOME=${codex.home}`)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Every user text the model was shown in `request`, in order. */
function userTexts(request: ResponsesRequest): string[] {
  return request.input
    .filter((i) => i.type === 'message' && i.role === 'user' && Array.isArray(i.content))
    .map((i) => (i.content as { text?: string }[]).map((c) => c.text ?? '').join(''))
}

it('drives a Codex session: a prompt answered with switchboard answer, a second turn, an interrupt, a resume in a new process', {
  timeout: 240_000,
}, async () => {
  const made = join(codex.cwd, 'made-by-codex')
  const first = `RUN:touch ${made} && echo made-it`
  const created = (await home.api('createSession', {
    body: { prompt: first, agent: 'codex', options: { cwd: codex.cwd } },
  })) as View

  // The command prompt is a decision of the one inbox, naming Codex.
  let open: { code: string; owner: string; request: Record<string, unknown> }[] = []
  await waitFor(
    async () => {
      open = JSON.parse((await runCli(['decisions', '--json'], env)).stdout)
      return open.length === 1
    },
    60_000,
    'the Codex command prompt as a decision',
  )
  const asked = open[0]
  if (!asked) throw new Error('no decision')
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
