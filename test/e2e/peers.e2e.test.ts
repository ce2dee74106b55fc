// Two real Claude Code sessions, each with Switchboard's channel (plugin, channels on), talking to
// each other through the hub: a message, an answer, and a message that waits for a peer offline.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { FakeAnthropic, latestTurn, type MessagesRequest, toolResults } from '../fakes/anthropic.js'
import { ClaudeHome, PLUGIN_DIR, PrintSession } from '../helpers/claude.js'
import { TestHome, waitFor } from '../helpers/home.js'

let fake: FakeAnthropic
let home: TestHome
const claudes: ClaudeHome[] = []
const closers: (() => unknown)[] = []

const SEND = 'mcp__plugin_switchboard_switchboard__send'

beforeEach(async () => {
  fake = await new FakeAnthropic().start()
  home = await TestHome.create()
})

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  await fake.close()
  await home.cleanup()
  for (const c of claudes.splice(0)) c.cleanup()
})

/** A session whose channel is the peer `name`. Its first turn connects the channel. */
async function session(name: string): Promise<PrintSession> {
  const claude = new ClaudeHome({ channelPlugin: 'switchboard' })
  claudes.push(claude)
  const s = new PrintSession(
    ['--plugin-dir', PLUGIN_DIR, '--channels', 'plugin:switchboard@inline', '--allowedTools', SEND],
    {
      cwd: claude.cwd,
      env: claude.env(fake.url, {
        SWITCHBOARD_HOME: home.dir,
        SWITCHBOARD_PORT: String(home.port),
        SWITCHBOARD_CHANNEL_NAME: name,
      }),
    },
  )
  closers.push(() => s.close())
  await s.waitForMcpServer()
  await s.sendUntilChannelWired(`you are ${name}; get ready`)
  await waitFor(async () => (await home.pending(name)) !== undefined, 10_000, `${name} to connect`)
  return s
}

/** The <channel> message the model was shown last, if the turn it answers is one. */
function channelMessage(r: MessagesRequest): string | null {
  return latestTurn(r).match(/<channel [^>]*>[\s\S]*?<\/channel>/)?.[0] ?? null
}

it('A sends to B, B answers with send, A receives the answer', { timeout: 90_000 }, async () => {
  fake.respond((r) => {
    if (toolResults(r).length) return { text: 'done' }
    const incoming = channelMessage(r)
    if (incoming?.includes('from="A"')) return { tool: SEND, input: { to: 'A', text: 'hi A, B here' } }
    if (incoming?.includes('from="B"')) return { text: 'A got the answer' }
    if (latestTurn(r).includes('say hello to B'))
      return { tool: SEND, input: { to: 'B', text: 'hello from A' } }
    return { text: 'ready' }
  })
  await session('B')
  const a = await session('A')
  a.send('say hello to B')
  await waitFor(
    () => a.results().some((r) => r.result === 'A got the answer'),
    60_000,
    'the answer to reach A',
  )
  const shown = fake.requests.map(channelMessage).filter(Boolean) as string[]
  expect(shown).toContainEqual(expect.stringMatching(/from="A"[^>]*>\s*hello from A/))
  expect(shown).toContainEqual(expect.stringMatching(/from="B"[^>]*>\s*hi A, B here/))
})

it('a message to B while B is offline reaches B when it comes up', { timeout: 90_000 }, async () => {
  fake.respond((r) => {
    if (toolResults(r).length) return { text: 'done' }
    if (channelMessage(r)?.includes('while you were away')) return { text: 'B read it' }
    if (latestTurn(r).includes('leave B a note'))
      return { tool: SEND, input: { to: 'B', text: 'while you were away' } }
    return { text: 'ready' }
  })
  const b = await session('B')
  await b.close()
  const a = await session('A')
  a.send('leave B a note')
  await waitFor(() => a.turnsSinceReady().length >= 1, 60_000, 'A to send')
  expect(await home.pending('B')).toBe(1)
  const back = await session('B')
  await waitFor(() => back.results().some((r) => r.result === 'B read it'), 60_000, 'B to read the note')
})
