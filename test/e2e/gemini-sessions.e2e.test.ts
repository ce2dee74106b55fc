// Gemini CLI sessions driven like Claude Code's (issue 35, driving): the hub runs the real Gemini CLI
// (pinned 0.61.0, `gemini --acp`, offline against test/fakes/gemini.ts) behind the same session
// model, over the Agent Client Protocol. Started through the API with agent "gemini", its shell
// prompt is a decision naming Gemini that `switchboard answer` allows (the command ran, the model had
// its output); a second prompt is a second turn; an interrupt during a slow stream ends the turn as
// interrupted; a webhook event reaches the session with its receipt `in_context`, read from Gemini's
// own record; a stopped session is loaded in a new process (waiting for the minute to turn if it
// must), and the model is shown the history; no Gemini process is left behind.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { it, type TestContext } from 'vitest'
import { FakeGemini, type GenerateRequest, lastToolResponse, shellThenDoneOrSlow } from '../fakes/gemini.js'
import { agentProcesses, DrivingHub, type SessionView } from '../helpers/driven-agent.js'
import { GEMINI_BIN, GeminiHome } from '../helpers/gemini.js'
import { runCli, TestHome, waitFor } from '../helpers/home.js'
import { oneOpenDecision } from '../helpers/open-decision.js'

/** One test's world: the fake model, a home, Gemini's HOME and a hub driving it, ended with the test. */
async function world(onTestFinished: TestContext['onTestFinished']) {
  const fake = await new FakeGemini().start()
  fake.respond(shellThenDoneOrSlow)
  const home = await TestHome.create()
  const gemini = new GeminiHome(fake.baseUrl)
  const env = gemini.env({
    SWITCHBOARD_HOME: home.dir,
    SWITCHBOARD_PORT: String(home.port),
    GEMINI_PATH: GEMINI_BIN,
    // The hub passes its sessions only the variables it knows; Gemini's key, the fake's address and
    // where Gemini is installed are three more.
    SWITCHBOARD_SESSION_ENV: 'GEMINI_API_KEY,GOOGLE_GEMINI_BASE_URL,GEMINI_PATH',
  })
  const hub = new DrivingHub(home, env)
  onTestFinished(async () => {
    await hub.stop()
    gemini.cleanup()
    await fake.close()
    await home.cleanup()
  })
  await hub.start()
  return {
    fake,
    home,
    gemini,
    env,
    until: (id: string, done: (v: View) => boolean, what: string, ms?: number) =>
      hub.until(id, done, what, ms),
    geminiProcesses: () => agentProcesses('--acp', gemini.home),
  }
}

type View = SessionView

/**
 * How much of the minute is left, at least, when the message that loads the session is sent: the hub
 * looks at the clock once the new Gemini process has started, seconds later on a busy machine.
 */
const SPARE_MS = 15_000
/** How much of the minute a session's first turn and stop may need, with SPARE_MS left after them. */
const LEEWAY_MS = SPARE_MS + 15_000

/**
 * The prompts the model was shown in `request`, in order: the person's texts, less the session
 * context Gemini puts before the first (in the same content).
 */
function shownTexts(request: GenerateRequest): string[] {
  return userTexts(request).map((text) => text.replace(/^<session_context>[\s\S]*<\/session_context>/, ''))
}

/** Every text the person's side gave the model in `request`, in order. */
function userTexts(request: GenerateRequest): string[] {
  return request.contents
    .filter((c) => c.role === 'user')
    .map((c) => (c.parts ?? []).map((p) => p.text ?? '').join(''))
    .filter(Boolean)
}

// The two tests run side by side: each has a world of its own, and most of each is a wait for Gemini
// or for the minute to turn, which they then share instead of taking one after the other.
it.concurrent('drives a Gemini CLI session: a prompt answered with switchboard answer, a second turn, an interrupt, an event in context, a load in a new process', {
  timeout: 600_000,
}, async ({ expect, onTestFinished }) => {
  const { fake, home, gemini, env, until, geminiProcesses } = await world(onTestFinished)
  const secret = await home.addSource('ci')
  const made = join(gemini.cwd, 'made-by-gemini')
  const first = `RUN:touch ${made} && echo made-it`
  const created = (await home.api('createSession', {
    body: { prompt: first, agent: 'gemini', options: { cwd: gemini.cwd }, topics: ['ci'] },
  })) as View

  // The shell prompt is a decision of the one inbox, naming Gemini.
  const asked = await oneOpenDecision(home, env, 'the Gemini shell prompt as a decision', 180_000)
  expect(asked.owner).toBe(created.id)
  expect(asked.request).toMatchObject({ agent: 'gemini', tool_name: 'Bash' })
  expect(String((asked.request.input as { command?: string }).command)).toContain(`touch ${made}`)
  expect(existsSync(made)).toBe(false)
  expect((await runCli(['answer', asked.code, 'yes'], env)).stdout).toMatch(/^allowed /)

  const afterFirst = await until(created.id, (v) => v.status === 'idle', 'the first turn to end')
  expect(existsSync(made)).toBe(true)
  expect(lastToolResponse(fake.turns.at(-1) as GenerateRequest)).toContain('made-it')
  expect(afterFirst.lastResult).toContain('DONE:')
  // The session's own id is what a load takes; Gemini prices nothing.
  expect(afterFirst.claudeSessionId).toMatch(/^[0-9a-f-]{36}$/)
  expect(afterFirst.costUsd).toBe(0)
  const { lines } = await home.api('sessionLines', { params: { id: created.id } })
  // The prompt is the session's first line (the hub writes it once Gemini has it), then Gemini's init.
  const init = lines.find(({ line }) => line.type === 'system')?.line
  expect(init).toMatchObject({ subtype: 'init', agent: 'gemini', session_id: afterFirst.claudeSessionId })
  const toolUse = lines.find(({ line }) => JSON.stringify(line).includes('"tool_use"'))
  expect(JSON.stringify(toolUse?.line)).toContain(`touch ${made}`)
  const result = lines.find(({ line }) => line.type === 'result')?.line as {
    usage?: { output_tokens?: number }
  }
  expect(result.usage?.output_tokens).toBeGreaterThan(0)

  // A second prompt is a second turn of the same session.
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'and now?' } })
  const second = await until(created.id, (v) => v.status === 'idle' && v.turns === 2, 'the second turn')
  expect(second.lastResult).toBe('nothing to do')
  expect(shownTexts(fake.turns.at(-1) as GenerateRequest)).toEqual([first, 'and now?'])

  // An interrupt during a slow stream ends the turn as interrupted; the process stays.
  const before = fake.turns.length
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'SLOW' } })
  await waitFor(() => fake.turns.length > before, 30_000, 'the slow request to reach the model')
  await home.api('interrupt', { params: { id: created.id } })
  const interrupted = await until(created.id, (v) => v.status === 'interrupted', 'the interrupt')
  expect(interrupted.live).toBe(true)
  expect(geminiProcesses().length).toBeGreaterThan(0)

  // A webhook event goes in as a prompt; Gemini's own record shows it: in context.
  const res = await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'the build is red',
  })
  expect(res.status).toBe(202)
  const eventId = ((await res.json()) as { id: string }).id
  let deliveries: { subscriber: string; state: string }[] = []
  await waitFor(
    async () => {
      deliveries = (await home.api('event', { params: { id: eventId } })).deliveries
      return deliveries.some((d) => d.state === 'in_context')
    },
    60_000,
    'the event in context',
  )
  expect(deliveries).toEqual([
    expect.objectContaining({ subscriber: `session:${created.id}`, state: 'in_context' }),
  ])
  expect(userTexts(fake.turns.at(-1) as GenerateRequest).at(-1)).toContain('the build is red')
  await until(created.id, (v) => v.status === 'idle', 'the event turn to end')

  // Stopped, then loaded by its next message in a new process: the model sees the earlier turns.
  await home.api('stopSession', { params: { id: created.id } })
  await until(created.id, (v) => !v.live, 'the session to stop')
  expect(geminiProcesses()).toEqual([])
  const turnsBefore = (await until(created.id, () => true, 'the view')).turns
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'what came before?' } })
  const resumed = await until(
    created.id,
    (v) => v.status === 'idle' && v.turns > turnsBefore,
    'the loaded session to answer (after the minute turns, if it must)',
    240_000,
  )
  expect(resumed.claudeSessionId).toBe(afterFirst.claudeSessionId)
  // The interrupted SLOW is not among them: Gemini drops a cancelled turn from its history.
  expect(shownTexts(fake.turns.at(-1) as GenerateRequest)).toEqual([
    first,
    'and now?',
    expect.stringContaining('the build is red'),
    'what came before?',
  ])

  await home.api('stopSession', { params: { id: created.id } })
  await until(created.id, (v) => !v.live, 'the session to stop again')
  expect(geminiProcesses()).toEqual([])
})

it.concurrent('loads a session stopped in the minute its record started: the load waits for the minute to turn, says so, and the model has the history', {
  timeout: 600_000,
}, async ({ expect, onTestFinished }) => {
  const { fake, home, gemini, until, geminiProcesses } = await world(onTestFinished)
  const minuteOf = (at: Date) => at.toISOString().slice(0, 16).replace(/:/g, '-')
  const msLeftInMinute = () => 60_000 - (Date.now() % 60_000)
  const toNextMinute = () => new Promise((resolve) => setTimeout(resolve, msLeftInMinute() + 100))
  /** A session given its first turn and stopped, and the minute its record was started. */
  const stoppedSession = async () => {
    const created = (await home.api('createSession', {
      body: { prompt: 'hello', agent: 'gemini', options: { cwd: gemini.cwd } },
    })) as View
    const first = await until(created.id, (v) => v.status === 'idle' && v.turns === 1, 'the first turn')
    await home.api('stopSession', { params: { id: created.id } })
    await until(created.id, (v) => !v.live, 'the session to stop')
    const record = readdirSync(join(gemini.home, '.gemini/tmp'), { recursive: true, encoding: 'utf8' }).find(
      (name) => name.endsWith(`-${String(first.claudeSessionId).slice(0, 8)}.jsonl`),
    )
    return { created, recordMinute: /session-(\d{4}-\d\d-\d\dT\d\d-\d\d)-/.exec(record ?? '')?.[1] }
  }
  // The first turn, the stop and the next message must come within one minute, with SPARE_MS of it
  // left when the message is sent. Tried at once unless less than LEEWAY_MS of this minute is left
  // (then from the top of the next: always waiting for it cost half a minute on average, for
  // nothing), and once more from the top of the next minute when a busy machine took too long.
  if (msLeftInMinute() < LEEWAY_MS) await toNextMinute()
  let stopped = await stoppedSession()
  if (minuteOf(new Date()) !== stopped.recordMinute || msLeftInMinute() < SPARE_MS) {
    await toNextMinute()
    stopped = await stoppedSession()
  }
  const { created, recordMinute } = stopped
  const sentMinute = minuteOf(new Date())
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'what came before?' } })
  const resumed = await until(
    created.id,
    (v) => v.status === 'idle' && v.turns === 2,
    'the loaded session',
    240_000,
  )
  expect(resumed.lastResult).toBe('nothing to do')
  expect(shownTexts(fake.turns.at(-1) as GenerateRequest)).toEqual(['hello', 'what came before?'])
  const { lines } = await home.api('sessionLines', { params: { id: created.id } })
  const notices = lines.filter(({ line }) => line.type === 'system' && line.subtype === 'notice')
  // The machine may be slow enough that the minute turned anyway: then there was nothing to wait for.
  if (sentMinute === recordMinute) {
    expect(notices.map(({ line }) => line.text)).toEqual([
      expect.stringContaining('waiting for the minute to turn'),
    ])
  } else {
    expect(notices).toEqual([])
  }
  await home.api('stopSession', { params: { id: created.id } })
  await until(created.id, (v) => !v.live, 'the session to stop again')
  expect(geminiProcesses()).toEqual([])
})
