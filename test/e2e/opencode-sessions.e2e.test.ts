// OpenCode sessions driven like Claude Code's (issue 35, driving): the hub runs the real OpenCode
// (pinned 1.18.33, `opencode acp --cwd`, offline against test/fakes/chat-completions.ts) behind the
// same session model, over the Agent Client Protocol, through the one adapter Gemini CLI's sessions
// use. Started through the API with agent "opencode", its shell prompt is a decision naming OpenCode
// that `switchboard answer` allows (the command ran, the model had its output); a second prompt is a
// second turn; an interrupt during a slow stream ends the turn as interrupted; a webhook event
// reaches the session and the model, its receipt `in_context` once OpenCode's own store (opencode.db)
// holds it; a stopped session is loaded in a new process, and the model is shown the history; no
// OpenCode process is left behind.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { type ChatRequest, FakeChatCompletions, lastToolOutput } from '../fakes/chat-completions.js'
import { agentProcesses, DrivingHub, type SessionView } from '../helpers/driven-agent.js'
import { runCli, TestHome, waitFor } from '../helpers/home.js'
import { oneOpenDecision } from '../helpers/open-decision.js'
import { OFFLINE_ENV, OpenCodeHome } from '../helpers/opencode.js'

let fake: FakeChatCompletions
let home: TestHome
let opencode: OpenCodeHome
let hub: DrivingHub
let env: Record<string, string>

beforeEach(async () => {
  // The fake's script: RUN: runs a command through bash, SLOW streams a long answer slowly.
  fake = await new FakeChatCompletions().start()
  home = await TestHome.create()
  opencode = new OpenCodeHome(fake.baseUrl)
  env = opencode.env({
    SWITCHBOARD_HOME: home.dir,
    SWITCHBOARD_PORT: String(home.port),
    // The hub passes its sessions only the variables it knows; what keeps OpenCode offline is more.
    SWITCHBOARD_SESSION_ENV: Object.keys(OFFLINE_ENV).join(','),
  })
  hub = new DrivingHub(home, env)
  await hub.start()
})

afterEach(async () => {
  await hub.stop()
  opencode.cleanup()
  await fake.close()
  await home.cleanup()
})

type View = SessionView
const until = (id: string, done: (v: View) => boolean, what: string, ms?: number) =>
  hub.until(id, done, what, ms)

const opencodeProcesses = () => agentProcesses('acp', opencode.home)

/** The prompts the model was shown in `request`, in order. */
function shownTexts(request: ChatRequest): string[] {
  return request.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content))
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part: { text?: string }) => part.text ?? '').join('')
}

it('drives an OpenCode session: a prompt answered with switchboard answer, a second turn, an interrupt, an event in context from its store, a load in a new process', {
  timeout: 600_000,
}, async () => {
  const secret = await home.addSource('ci')
  const made = join(opencode.cwd, 'made-by-opencode')
  const first = `RUN:touch ${made} && echo made-it`
  const created = (await home.api('createSession', {
    body: { prompt: first, agent: 'opencode', options: { cwd: opencode.cwd }, topics: ['ci'] },
  })) as View

  // The shell prompt is a decision of the one inbox, naming OpenCode.
  const asked = await oneOpenDecision(home, env, 'the OpenCode shell prompt as a decision', 180_000)
  expect(asked.owner).toBe(created.id)
  expect(asked.request).toMatchObject({ agent: 'opencode', tool_name: 'Bash' })
  expect(String((asked.request.input as { command?: string }).command)).toContain(`touch ${made}`)
  expect(existsSync(made)).toBe(false)
  expect((await runCli(['answer', asked.code, 'yes'], env)).stdout).toMatch(/^allowed /)

  const afterFirst = await until(created.id, (v) => v.status === 'idle', 'the first turn to end')
  expect(existsSync(made)).toBe(true)
  expect(lastToolOutput(fake.turns.at(-1) as ChatRequest)).toContain('made-it')
  expect(afterFirst.lastResult).toContain('DONE:')
  // The session's own id is what a load takes; OpenCode prices nothing over ACP.
  expect(afterFirst.claudeSessionId).toMatch(/^ses_/)
  expect(afterFirst.costUsd).toBe(0)
  const { lines } = await home.api('sessionLines', { params: { id: created.id } })
  // The prompt is the session's first line (the hub writes it once OpenCode has it), then OpenCode's init.
  const init = lines.find(({ line }) => line.type === 'system')?.line
  expect(init).toMatchObject({ subtype: 'init', agent: 'opencode', session_id: afterFirst.claudeSessionId })
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
  expect(shownTexts(fake.turns.at(-1) as ChatRequest)).toEqual([first, 'and now?'])

  // An interrupt during a slow stream ends the turn as interrupted; the process stays.
  const before = fake.turns.length
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'SLOW' } })
  await waitFor(() => fake.turns.length > before, 30_000, 'the slow request to reach the model')
  await home.api('interrupt', { params: { id: created.id } })
  const interrupted = await until(created.id, (v) => v.status === 'interrupted', 'the interrupt')
  expect(interrupted.live).toBe(true)
  expect(opencodeProcesses().length).toBeGreaterThan(0)

  // A webhook event goes in as a prompt and reaches the model; its receipt is in_context once
  // OpenCode's own store holds it as the person's message in this session.
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
      return deliveries.some((d) => d.state !== 'stored' && d.state !== 'written' && d.state !== 'queued')
    },
    60_000,
    'the event in context',
  )
  expect(deliveries).toEqual([
    expect.objectContaining({ subscriber: `session:${created.id}`, state: 'in_context' }),
  ])
  await waitFor(
    () => shownTexts(fake.turns.at(-1) as ChatRequest).some((t) => t.includes('the build is red')),
    60_000,
    'the event to reach the model',
  )
  await until(created.id, (v) => v.status === 'idle', 'the event turn to end')

  // Stopped, then loaded by its next message in a new process: the model sees the earlier turns.
  await home.api('stopSession', { params: { id: created.id } })
  await until(created.id, (v) => !v.live, 'the session to stop')
  expect(opencodeProcesses()).toEqual([])
  const turnsBefore = (await until(created.id, () => true, 'the view')).turns
  await home.api('sendMessage', { params: { id: created.id }, body: { text: 'what came before?' } })
  const resumed = await until(
    created.id,
    (v) => v.status === 'idle' && v.turns > turnsBefore,
    'the loaded session to answer',
  )
  expect(resumed.claudeSessionId).toBe(afterFirst.claudeSessionId)
  expect(shownTexts(fake.turns.at(-1) as ChatRequest)).toEqual([
    first,
    'and now?',
    'SLOW',
    expect.stringContaining('the build is red'),
    'what came before?',
  ])

  await home.api('stopSession', { params: { id: created.id } })
  await until(created.id, (v) => !v.live, 'the session to stop again')
  expect(opencodeProcesses()).toEqual([])
})
