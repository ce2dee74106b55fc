// The real Claude Code CLI with Switchboard's channel plugin, and a chat bridge in the hub it
// started: a DM on the (fake) platform starts a turn, and Claude's reply tool call arrives on the
// platform as the bot's message.
import { expect, it } from 'vitest'
import type { Platform } from '../../src/sources/chat/platform.js'
import { type MessagesRequest, textOf, toolResults } from '../fakes/anthropic.js'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person } from '../helpers/bridge-world.js'
import { PLUGIN_DIR } from '../helpers/claude.js'
import { e2eWorld, startedSession } from '../helpers/e2e.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

const REPLY_TOOL = 'mcp__plugin_switchboard_switchboard__reply'
const PLUGIN_CHANNEL = [
  '--plugin-dir',
  PLUGIN_DIR,
  '--channels',
  'plugin:switchboard@inline',
  '--replay-user-messages',
]

function channelBlock(request: MessagesRequest, marker: string): string | undefined {
  return textOf(request.messages)
    .match(/<channel [^>]*>[^<]*<\/channel>/g)
    ?.find((b) => b.includes(marker))
}

it.each(Object.keys(FAKES) as Platform[])(
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
