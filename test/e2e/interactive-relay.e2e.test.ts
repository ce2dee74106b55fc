// Interactive Claude Code under tmux with Switchboard as a development channel: a chat message leads
// the model to a Bash call that needs approval; an operator answers it from the hub's /events.
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { expect, it } from 'vitest'
import { type MessagesRequest, textOf, toolResults } from '../fakes/anthropic.js'
import { CLAUDE_BIN, switchboardChannel } from '../helpers/claude.js'
import { e2eWorld } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'
import { SseReader } from '../helpers/sse.js'
import { TmuxSession } from '../helpers/tmux.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

/** Runs the scenario up to the operator's verdict; returns what the model saw of the Bash call. */
async function approveFromTheHub(verdict: 'yes' | 'no', marker: string): Promise<string> {
  const operator = await world.home.addSender('ops', true)
  const chatter = await world.home.addSender('carol')
  world.claude.addUserMcpServer('switchboard', switchboardChannel(world.home, 'tmux'))
  const terminal = new TmuxSession(
    [
      CLAUDE_BIN,
      '--dangerously-load-development-channels',
      'server:switchboard',
      '--permission-mode',
      'default',
    ],
    { cwd: world.claude.cwd, env: world.claude.env(world.fake.url) },
  )
  world.closers.push(() => terminal.kill())
  await terminal.waitForScreen(/I am using this for local development/)
  terminal.keys('Enter')
  await terminal.waitForScreen(/Channels \(experimental\)/)
  await world.home.waitForHub(15_000)

  const ops = await SseReader.open(world.home.url, operator)
  world.closers.push(() => ops.close())
  const command = `touch ${basename(marker)}`
  world.fake.respond((request: MessagesRequest) => {
    const results = toolResults(request)
    if (results.length) return { text: `the command finished: ${textOf(results[0]?.content)}` }
    if (textOf(request.messages).includes('please create the marker'))
      return { tool: 'Bash', input: { command, description: 'Create the marker file' } }
    return { text: 'nothing to do' }
  })
  const posted = await fetch(`${world.home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${chatter}` },
    body: 'please create the marker',
  })
  expect(posted.status).toBe(202)

  const prompt = await ops.waitFor('permission', 45_000).catch((err: Error) => {
    const asked = world.fake.requests.map((r) => textOf(r.messages).slice(-300))
    throw new Error(
      `${err.message}\n--- screen:\n${terminal.screen()}\n--- the model was asked:\n${asked.join('\n---\n')}`,
    )
  })
  const data = prompt.data as { id: string; tool_name: string; input_preview: string }
  expect(data.tool_name).toBe('Bash')
  expect(data.input_preview).toContain(basename(marker))
  const answer = await fetch(`${world.home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator}` },
    body: `${verdict} ${data.id}`,
  })
  expect(answer.status).toBe(200)
  await waitFor(
    () => world.fake.requests.some((r) => toolResults(r).length > 0),
    30_000,
    'the Bash result',
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n--- screen:\n${terminal.screen()}`)
  })
  const result = world.fake.requests.flatMap(toolResults)[0]
  return `${result?.is_error ? 'error: ' : ''}${textOf(result?.content)}`
}

it('runs the command once an operator answers "yes <id>"', { timeout: 120_000 }, async () => {
  const marker = join(world.claude.cwd, 'approved-marker')
  await approveFromTheHub('yes', marker)
  await waitFor(() => existsSync(marker), 10_000, 'the marker file')
})

it('does not run it on "no <id>", and the model sees the denial', { timeout: 120_000 }, async () => {
  const marker = join(world.claude.cwd, 'denied-marker')
  const seen = await approveFromTheHub('no', marker)
  expect(seen).toMatch(/^error: /)
  expect(existsSync(marker)).toBe(false)
})
