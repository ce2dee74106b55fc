// Claude's markdown on each platform, end to end short of Claude: the hub with a bridge, the real
// client library (grammy, discord.js, Bolt) against the fake platform, which reads markup as the
// platform does (the Telegram fake answers 400 "can't parse entities" as Telegram would).
import type { ChildProcess } from 'node:child_process'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS, type BridgePlatform } from '../../src/core/bridges.js'
import type { FakeMessage, FakePlatform, FakeUser } from '../fakes/chat-platform.js'
import { discordProblem, slackProblem } from '../fakes/markup-rules.js'
import type { FakeTelegram } from '../fakes/telegram.js'
import {
  botMessages,
  editOf,
  LIMITS,
  pair,
  person,
  startBridgedHub,
  stopBridgedHub,
} from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { type TestHome, waitFor } from '../helpers/home.js'

const REPLY = [
  '## Fixed',
  'The **build** was _red_ because of `a < b && c`: see [the log](https://ci.example/run?id=1&x=2) 🎉',
  '- snake_case_name stays, and so do 2 * 3 and a lone [ and `',
  '```ts',
  'if (a && b) throw new Error("<x>")',
  '```',
].join('\n')

/** What a person sees of the reply on each platform, as its markup there. */
const EXPECTED: Record<BridgePlatform, string> = {
  telegram: '', // checked by entities below
  discord: [
    '[work]',
    '**Fixed**',
    'The **build** was *red* because of `a < b && c`: see [the log](<https://ci.example/run?id=1&x=2>) 🎉',
    '- snake\\_case\\_name stays, and so do 2 \\* 3 and a lone [ and \\`',
    '```ts',
    'if (a && b) throw new Error("<x>")',
    '```',
  ].join('\n'),
  slack: [
    '[work]',
    '*Fixed*',
    'The *build* was _red_ because of `a &lt; b &amp;&amp; c`: see <https://ci.example/run?id=1&amp;x=2|the log> 🎉',
    '• snake_case_name stays, and so do 2 * 3 and a lone [ and ˋ',
    '```',
    'if (a &amp;&amp; b) throw new Error("&lt;x&gt;")',
    '```',
  ].join('\n'),
}

describe.each(BRIDGE_PLATFORMS)('%s formatting', (platform) => {
  let fake: FakePlatform
  let home: TestHome
  let hub: ChildProcess
  const opened: { close(): unknown }[] = []

  // One hub for the file's tests, which cannot meet: each has people of its own (so chats of its own)
  // and ends with its channel closed and its prompt closed.
  beforeAll(async () => {
    ;({ fake, home, hub } = await startBridgedHub(platform))
  })

  afterAll(async () => {
    await stopBridgedHub({ fake, home, hub }, opened)
  })

  let met = 0
  let ann: FakeUser
  let olga: FakeUser
  beforeEach(() => {
    ann = person(platform, ++met, 'ann')
    olga = person(platform, ++met, 'olga')
  })

  afterEach(async () => {
    for (const thing of opened.splice(0)) await thing.close()
    await waitFor(
      async () => (await home.api('decisions')).decisions.length === 0,
      10_000,
      'the test’s prompt to be withdrawn',
    )
  })

  async function channel(): Promise<ChannelClient> {
    const client = await ChannelClient.inFolder(home, 'work')
    opened.push(client)
    return client
  }

  async function reply(text: string, first?: () => void): Promise<{ chat: string; sent: FakeMessage[] }> {
    const claude = await channel()
    const chat = await pair(home, fake, ann)
    await fake.dm(ann, 'what broke?')
    const [event] = await claude.waitForEvents(1)
    first?.()
    const before = botMessages(fake, chat).length
    const result = await claude.callTool('reply', { chat_id: event?.meta?.chat_id, text })
    expect(result.isError).toBeFalsy()
    const sent = await fake.waitFor(() => {
      const now = botMessages(fake, chat).slice(before)
      return now.length > 0 && now
    }, 'the reply')
    return { chat, sent }
  }

  it('shows a reply’s markdown as the platform renders it: code, links, _ * [ ` and emoji', async () => {
    const { sent } = await reply(REPLY)
    expect(sent).toHaveLength(1)
    const [message] = sent as [FakeMessage]
    if (platform !== 'telegram') {
      expect(message.text).toBe(EXPECTED[platform])
      return
    }
    expect(message.text).toBe(
      [
        '[work]',
        'Fixed',
        'The build was red because of a < b && c: see the log 🎉',
        '• snake_case_name stays, and so do 2 * 3 and a lone [ and `',
        'if (a && b) throw new Error("<x>")',
      ].join('\n'),
    )
    const entities = (fake as FakeTelegram).entities(message.chatId, message.messageId)
    const of = (type: string) =>
      entities.filter((e) => e.type === type).map((e) => message.text.slice(e.offset, e.offset + e.length))
    expect(of('bold')).toEqual(['Fixed', 'build'])
    expect(of('italic')).toEqual(['red'])
    expect(of('code')).toEqual(['a < b && c'])
    expect(of('pre')).toEqual(['if (a && b) throw new Error("<x>")'])
    expect(entities.find((e) => e.type === 'pre')?.language).toBe('ts')
    expect(entities.find((e) => e.type === 'text_link')?.url).toBe('https://ci.example/run?id=1&x=2')
  })

  it('cuts a long code block into messages that each close and reopen it', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `const line_${i} = "<${'x'.repeat(20)}>" && *p`)
    const { chat } = await reply(`Here it is:\n\`\`\`js\n${lines.join('\n')}\n\`\`\`\nThat is all.`)
    const sent = await fake.waitFor(() => {
      const all = botMessages(fake, chat)
      return (
        all.some((m) => m.text.includes('That is all.')) && all.filter((m) => !m.text.startsWith('Paired'))
      )
    }, 'every part of the reply')
    const parts = sent.slice(sent.findIndex((m) => m.text.includes('Here it is')))
    expect(parts.length).toBeGreaterThan(1)
    for (const part of parts) {
      if (platform === 'discord') expect(discordProblem(part.text, LIMITS.discord)).toBeNull()
      if (platform === 'slack') expect(slackProblem(part.text, LIMITS.slack)).toBeNull()
      if (platform === 'telegram' && /line_\d+/.test(part.text)) {
        const pre = (fake as FakeTelegram)
          .entities(part.chatId, part.messageId)
          .filter((e) => e.type === 'pre')
        expect(pre.length).toBe(1)
      }
    }
    // Every line of the code arrived once, in order.
    const shown = parts.flatMap((p) => p.text.split('\n')).filter((l) => /line_\d+/.test(l))
    expect(shown.map((l) => /line_(\d+)/.exec(l)?.[1])).toEqual(lines.map((_, i) => String(i)))
  })

  // Skipped for Discord: it takes any markdown and refuses no message for its formatting, so there is
  // no refusal to fall back from (its fake refuses none either).
  it.skipIf(platform === 'discord')(
    'sends the same words as plain text when the platform refuses the markup',
    async () => {
      const { sent } = await reply(REPLY, () => fake.refuseMarkupNext?.(1))
      expect(sent).toHaveLength(1)
      const [message] = sent as [FakeMessage]
      expect(message.text).toContain('see the log (https://ci.example/run?id=1&x=2)')
      expect(message.text).toContain('```ts\nif (a && b) throw new Error("<x>")\n```')
      if (platform === 'telegram')
        expect((fake as FakeTelegram).entities(message.chatId, message.messageId)).toEqual([])
    },
  )

  it('puts a Bash prompt’s command in a code block, and says after a press who allowed it', async () => {
    const claude = await channel()
    const chat = await pair(home, fake, olga, true)
    await claude.sendPermissionRequest({
      request_id: 'bqzmx',
      tool_name: 'Bash',
      description: 'Clean the build',
      input_preview: JSON.stringify({ command: 'rm -rf build/*_old && echo <done>' }),
    })
    const prompt = await fake.waitFor(
      () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
      'the prompt',
    )
    const command = '$ rm -rf build/*_old && echo <done>'
    if (platform === 'telegram') {
      const pre = (fake as FakeTelegram).entities(chat, prompt.messageId).find((e) => e.type === 'pre')
      expect(prompt.text.slice(pre?.offset, (pre?.offset ?? 0) + (pre?.length ?? 0))).toBe(command)
    }
    if (platform === 'discord') expect(prompt.text).toContain(`\`\`\`sh\n${command}\n\`\`\``)
    if (platform === 'slack')
      expect(prompt.text).toContain('```\n$ rm -rf build/*_old &amp;&amp; echo &lt;done&gt;\n```')
    expect(prompt.text).not.toContain('{"command"')

    const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
    await fake.press(olga, chat, prompt.messageId, allow?.data as string)
    const edited = await editOf(fake, chat, prompt.messageId, 'Allowed by', 'the prompt edited')
    expect(edited.text).toContain('olga')
    expect(edited.buttons).toEqual([])
    // Still the command in a code block, under it the verdict.
    if (platform === 'telegram')
      expect((fake as FakeTelegram).entities(chat, prompt.messageId).some((e) => e.type === 'pre')).toBe(true)
    else expect(edited.text).toContain('```')
  })
})
