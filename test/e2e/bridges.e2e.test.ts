// The real Claude Code CLI with Switchboard's channel plugin, and a chat bridge in the hub it
// started: a DM on the (fake) platform starts a turn, and Claude's reply tool call arrives on the
// platform as the bot's message.
import { once } from 'node:events'
import { expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import { textOf, toolResults } from '../fakes/anthropic.js'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person } from '../helpers/bridge-world.js'
import { e2eWorld, startDrivingHub, startedSession } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'
import { channelBlock, PLUGIN_CHANNEL, REPLY_TOOL } from '../helpers/plugin.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

it.each(BRIDGE_PLATFORMS)(
  '%s: a DM becomes a turn, and Claude’s reply reaches the platform',
  async (platform) => {
    const fake: FakePlatform = await FAKES[platform]()
    world.closers.push(() => fake.close())
    await world.home.cli(...bridgeAddArgs(fake))
    const session = await startedSession(world, [...PLUGIN_CHANNEL, '--allowedTools', REPLY_TOOL])
    await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
    const ann = person(platform, 1, 'ann')
    const chat = await pair(world.home, fake, ann)

    world.fake.respond((request) => {
      if (toolResults(request).length) return { text: 'replied' }
      const block = channelBlock(request, 'is the build green?')
      const chatId = block ? /chat_id="([^"]+)"/.exec(block)?.[1] : undefined
      return chatId
        ? { tool: REPLY_TOOL, input: { chat_id: chatId, text: 'green since 10:02' } }
        : { text: 'nothing for me' }
    })
    await fake.dm(ann, 'is the build green?')
    const reply = await fake.waitFor(
      () => botMessages(fake, chat).find((m) => m.text.includes('green since 10:02')),
      'Claude’s reply on the platform',
      60_000,
    )
    expect(reply.text).toMatch(/^\[[^\]]+\] green since 10:02$/)
    const block = world.fake.requests.map((r) => channelBlock(r, 'is the build green?')).find(Boolean)
    expect(block).toContain(`origin="${platform}"`)
    expect(block).toContain('user="ann"')
    expect(block).toContain(`user_id="${ann.id}"`)
    await session.close()
  },
)

it('starts a driven session from the chat with /new, and its answer comes back to the chat', async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  await world.home.cli(...bridgeAddArgs(fake))
  await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, fake, olga, true)

  world.fake.respond((request) =>
    textOf(request.messages).includes('summarise the repo') ? { text: 'it is a small repo' } : { text: 'ok' },
  )
  await fake.dm(olga, `/new ${world.claude.cwd} summarise the repo`)
  const started = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('Started ses_')),
    '/new',
  )
  const session = /Started (ses_\w+)/.exec(started.text)?.[1] as string
  const answer = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('it is a small repo')),
    'the session’s answer in the chat',
    60_000,
  )
  expect(answer.text).toBe(`[session:${session}] it is a small repo`)

  await fake.dm(olga, '/status')
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.startsWith(`[switchboard] ${session}`)),
    '/status',
  )
  await fake.dm(olga, `/stop ${session}`)
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes(`Stopped ${session}`)),
    '/stop',
  )
})

it('keeps bringing a /new session’s answers to the chat after the hub restarts', {
  timeout: 120_000,
}, async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  await world.home.cli(...bridgeAddArgs(fake))
  const hub = await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, fake, olga, true)

  world.fake.respond((request) => {
    const said = textOf(request.messages)
    if (said.includes('and the tests?')) return { text: 'the tests pass' }
    return said.includes('summarise the repo') ? { text: 'it is a small repo' } : { text: 'ok' }
  })
  await fake.dm(olga, `/new ${world.claude.cwd} summarise the repo`)
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('it is a small repo')),
    'the session’s first answer',
    60_000,
  )
  const exited = once(hub, 'exit')
  hub.kill('SIGTERM')
  await exited
  await startDrivingHub(world)
  await waitFor(
    async () => JSON.parse(await world.home.cli('bridge', 'list', '--json'))[0]?.state === 'connected',
    20_000,
    'the bridge to connect again',
  )
  await fake.dm(olga, 'and the tests?')
  const answer = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('the tests pass')),
    'the session’s answer after the restart',
    60_000,
  )
  expect(answer.text).toMatch(/^\[session:ses_\w+\] the tests pass$/)
})

it('puts a driven session’s tool call to the phone, and the Allow button lets it run', async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  await world.home.cli(...bridgeAddArgs(fake))
  await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, fake, olga, true)

  world.fake.respond((request) => {
    const results = toolResults(request)
    if (results.length) return { text: `ran it: ${textOf(results[0]?.content).trim()}` }
    return { tool: 'Bash', input: { command: 'touch bridged-ok && ls', description: 'Make a file' } }
  })
  await fake.dm(olga, `/new ${world.claude.cwd} run the check`)
  const prompt = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
    'the prompt on the phone',
    60_000,
  )
  expect(prompt.text).toContain('touch bridged-ok')
  const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
  await fake.press(olga, chat, prompt.messageId, allow?.data as string)
  const answer = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('ran it:')),
    'the session’s answer',
    60_000,
  )
  expect(answer.text).toContain('bridged-ok')
  expect(fake.sent().find((m) => m.messageId === prompt.messageId)?.text).toContain('Allowed by olga')
})
