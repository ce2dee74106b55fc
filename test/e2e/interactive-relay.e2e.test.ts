// Interactive Claude Code under tmux with Switchboard as a development channel: a chat message leads
// the model to a Bash call that needs approval; an operator answers it from the hub's /events.
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { FakeAnthropic, type MessagesRequest, textOf, toolResults } from '../fakes/anthropic.js'
import { CLAUDE_BIN, ClaudeHome, switchboardChannel } from '../helpers/claude.js'
import { TestHome, waitFor } from '../helpers/home.js'
import { SseReader } from '../helpers/sse.js'
import { TmuxSession } from '../helpers/tmux.js'

let fake: FakeAnthropic
let home: TestHome
let claude: ClaudeHome
const closers: (() => unknown)[] = []

beforeEach(async () => {
  fake = await new FakeAnthropic().start()
  home = await TestHome.create()
  claude = new ClaudeHome({ channelPlugin: 'switchboard' })
})

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  await fake.close()
  await home.cleanup()
  claude.cleanup()
})

/** Runs the scenario up to the operator's verdict; returns what the model saw of the Bash call. */
async function approveFromTheHub(verdict: 'yes' | 'no', marker: string): Promise<string> {
  const operator = await home.addSender('ops', true)
  const chatter = await home.addSender('carol')
  claude.addUserMcpServer('switchboard', switchboardChannel(home, 'tmux'))
  const terminal = new TmuxSession(
    [
      CLAUDE_BIN,
      '--dangerously-load-development-channels',
      'server:switchboard',
      '--permission-mode',
      'default',
    ],
    { cwd: claude.cwd, env: claude.env(fake.url) },
  )
  closers.push(() => terminal.kill())
  await terminal.waitForScreen(/I am using this for local development/)
  terminal.keys('Enter')
  await terminal.waitForScreen(/Channels \(experimental\)/)
  await waitFor(
    async () => (await fetch(`${home.url}/health`).catch(() => null))?.ok === true,
    15_000,
    'the hub',
  )

  const ops = await SseReader.open(home.url, operator)
  closers.push(() => ops.close())
  const command = `touch ${basename(marker)}`
  fake.respond((request: MessagesRequest) => {
    const results = toolResults(request)
    if (results.length) return { text: `the command finished: ${textOf(results[0]?.content)}` }
    if (textOf(request.messages).includes('please create the marker'))
      return { tool: 'Bash', input: { command, description: 'Create the marker file' } }
    return { text: 'nothing to do' }
  })
  const posted = await fetch(`${home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${chatter}` },
    body: 'please create the marker',
  })
  expect(posted.status).toBe(202)

  const prompt = await ops.waitFor('permission', 45_000).catch((err: Error) => {
    const asked = fake.requests.map((r) => textOf(r.messages).slice(-300))
    throw new Error(
      `${err.message}\n--- screen:\n${terminal.screen()}\n--- the model was asked:\n${asked.join('\n---\n')}`,
    )
  })
  const data = prompt.data as { id: string; tool_name: string; input_preview: string }
  expect(data.tool_name).toBe('Bash')
  expect(data.input_preview).toContain(basename(marker))
  const answer = await fetch(`${home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator}` },
    body: `${verdict} ${data.id}`,
  })
  expect(answer.status).toBe(200)
  await waitFor(() => fake.requests.some((r) => toolResults(r).length > 0), 30_000, 'the Bash result').catch(
    (err: Error) => {
      throw new Error(`${err.message}\n--- screen:\n${terminal.screen()}`)
    },
  )
  const result = fake.requests.flatMap(toolResults)[0]
  return `${result?.is_error ? 'error: ' : ''}${textOf(result?.content)}`
}

it('runs the command once an operator answers "yes <id>"', { timeout: 120_000 }, async () => {
  const marker = join(claude.cwd, 'approved-marker')
  await approveFromTheHub('yes', marker)
  await waitFor(() => existsSync(marker), 10_000, 'the marker file')
})

it('does not run it on "no <id>", and the model sees the denial', { timeout: 120_000 }, async () => {
  const marker = join(claude.cwd, 'denied-marker')
  const seen = await approveFromTheHub('no', marker)
  expect(seen).toMatch(/^error: /)
  expect(existsSync(marker)).toBe(false)
})
