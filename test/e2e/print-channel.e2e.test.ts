// The real Claude Code CLI in -p stream-json mode with Switchboard's channel loaded (--mcp-config):
// the model replies to an HTTP sender's chat and reads the inbox.
import { expect, it } from 'vitest'
import { textOf, toolResults } from '../fakes/anthropic.js'
import { PrintSession, switchboardChannel } from '../helpers/claude.js'
import { chatAs, e2eWorld } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'

const world = e2eWorld()

it('replies to an HTTP sender through the reply tool, and lists delivered events with inbox', async () => {
  const token = await world.home.addSender('alice')
  const mcpConfig = world.claude.writeMcpConfig({ switchboard: switchboardChannel(world.home, 'e2e') })
  const session = new PrintSession(
    ['--mcp-config', mcpConfig, '--allowedTools', 'mcp__switchboard__reply,mcp__switchboard__inbox'],
    { cwd: world.claude.cwd, env: world.claude.env(world.fake.url) },
  )
  world.closers.push(() => session.close())

  // The first turn starts the channel, and with it the hub.
  world.fake.respond(() => ({ text: 'ready' }))
  session.send('get ready')
  await session.waitForResults(1)
  await world.home.waitForHub(10_000)

  const { replies, posted } = await chatAs(world, token, 'hello claude, what is 2+2?')
  expect(posted.status).toBe(202)
  const { chat_id } = (await posted.json()) as { chat_id: string }
  // In -p mode without channels the notification itself is dropped; the inbox still has the event
  // once the channel has handled (and acknowledged) it.
  await waitFor(
    async () => (await world.home.pending('e2e')) === 0,
    10_000,
    'the channel to take the message',
  )

  world.fake.respond((request) => {
    const results = toolResults(request)
    if (results.length === 0) return { tool: 'mcp__switchboard__reply', input: { chat_id, text: 'It is 4.' } }
    if (textOf(results[0]?.content) === 'sent')
      return { tool: 'mcp__switchboard__inbox', input: { limit: 5 } }
    return { text: 'done' }
  })
  session.send('answer alice')
  const results = await session.waitForResults(2)
  expect(results[1]).toMatchObject({ subtype: 'success', is_error: false })

  expect((await replies.waitFor('reply')).data).toMatchObject({ chat_id, text: 'It is 4.', from: 'e2e' })
  const inboxResult = world.fake.requests
    .flatMap(toolResults)
    .find((r) => textOf(r.content).includes('hello claude'))
  expect(JSON.parse(textOf(inboxResult?.content))).toEqual([
    expect.objectContaining({ content: 'hello claude, what is 2+2?', sender: 'alice', chat_id }),
  ])
})
