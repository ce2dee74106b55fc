// The real Claude Code CLI in -p stream-json mode with Switchboard's channel loaded (--mcp-config):
// the model replies to an HTTP sender's chat and reads the inbox, which is what takes the message.
import { expect, it } from 'vitest'
import { textOf, toolResults } from '../fakes/anthropic.js'
import { PrintSession, switchboardChannel } from '../helpers/claude.js'
import { chatAs, e2eWorld } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'

const world = e2eWorld()

it('replies to an HTTP sender through the reply tool; without channels the message stays pending until inbox returns it', async () => {
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

  // In -p mode without channels the notification would be dropped: Claude has not read the message
  // after a whole turn of its own, so it stays pending at the hub.
  world.fake.respond((request) =>
    toolResults(request).length === 0
      ? { tool: 'mcp__switchboard__reply', input: { chat_id, text: 'It is 4.' } }
      : { text: 'replied' },
  )
  session.send('answer alice')
  await session.waitForResults(2)
  expect((await replies.waitFor('reply')).data).toMatchObject({ chat_id, text: 'It is 4.', from: 'e2e' })
  expect(await world.home.pending('e2e')).toBe(1)

  // Claude reads it with inbox (again, should the channel not have had it yet): now it is taken.
  let tries = 0
  world.fake.respond((request) => {
    const read = toolResults(request).some((r) => textOf(r.content).includes('hello claude'))
    return read || ++tries > 20 ? { text: 'done' } : { tool: 'mcp__switchboard__inbox', input: { limit: 5 } }
  })
  session.send('read your inbox')
  const results = await session.waitForResults(3)
  expect(results[2]).toMatchObject({ subtype: 'success', is_error: false })
  const inboxResult = world.fake.requests
    .flatMap(toolResults)
    .find((r) => textOf(r.content).includes('hello claude'))
  expect(JSON.parse(textOf(inboxResult?.content))).toEqual([
    expect.objectContaining({ content: 'hello claude, what is 2+2?', sender: 'alice', chat_id }),
  ])
  await waitFor(async () => (await world.home.pending('e2e')) === 0, 10_000, 'the read message to be taken')
})
