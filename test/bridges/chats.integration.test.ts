// Who may write to a chat bridge's bot, and where it goes, end to end short of Claude: a stranger
// pairs with a code the operator approves, a group is answered once added and when mentioned, a chat
// picks its session with /to, an operator who comes later gets the prompts already waiting, and the
// bot stops with its bridge (and a second hub may not take it).
// Each platform's hub (`switchboard serve`) has its bridge added by `switchboard bridge add`, the
// platform's real client library inside it and a fake platform server on 127.0.0.1; an MCP client of
// `switchboard channel` stands in for Claude Code (test/helpers/bridge-tests.ts).
import { describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import { BridgeTests } from '../helpers/bridge-tests.js'
import { botMessages, bridgeAddArgs, decisionStatus, pair, spawnHub } from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { TestHome, waitFor } from '../helpers/home.js'

describe.each(BRIDGE_PLATFORMS)('%s bridge', (platform) => {
  const t = new BridgeTests(platform)
  const channel = () => t.channel()

  describe('on a hub they share', () => {
    t.shareHub()

    it('answers a stranger with a pairing code, and lets them in once the operator approves it', async () => {
      const { fake, home, stranger } = t
      const claude = await channel()
      await fake.dm(stranger, 'let me in')
      const chat = fake.dmChatOf(stranger.id)
      const offer = await fake.waitFor(() => botMessages(fake, chat)[0], 'a pairing code')
      const code = /switchboard pair ([a-z0-9]{6})/.exec(offer.text)?.[1]
      expect(code).toBeDefined()
      expect(claude.events).toEqual([])
      const access = await home.cli('access', 'list')
      expect(access).toContain(`${platform}:${stranger.id}\tpending`)
      expect(access).toContain('mallory')

      await home.cli('pair', code as string)
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.startsWith('Paired')),
        '"Paired"',
        15_000,
      )
      await fake.dm(stranger, 'now?')
      const [event] = await claude.waitForEvents(1)
      expect(event?.content).toBe('now?')
      expect(claude.events.map((e) => e.content)).not.toContain('let me in')
    })

    it('answers in a group only once it is added, and only when mentioned', async () => {
      const { fake, home, ann } = t
      const claude = await channel()
      const group =
        platform === 'telegram' ? '-100200300' : platform === 'discord' ? '300000000000000001' : 'C0GROUP01'
      await fake.groupMessage(group, ann, 'before the group was added', { mention: true })
      await home.cli('bridge', 'group', 'add', platform, group)
      expect(await home.cli('bridge', 'list', '--json')).toContain(group)
      // The hub reads bridges.json again within a second or two; a mention that arrives proves it has.
      await waitFor(
        async () => {
          await fake.groupMessage(group, ann, 'probe', { mention: true })
          await new Promise((resolve) => setTimeout(resolve, 300))
          return claude.events.some((e) => e.content.includes('probe'))
        },
        20_000,
        'the hub to take the group',
      )
      await fake.groupMessage(group, ann, 'chatter among people', { mention: false })
      await fake.groupMessage(group, ann, 'question for claude', { mention: true })
      const event = await fake.waitFor(
        () => claude.events.find((e) => e.content.includes('question for claude')),
        'the mention',
      )
      const contents = claude.events.map((e) => e.content).join('\n')
      expect(contents).not.toContain('before the group was added')
      expect(contents).not.toContain('chatter among people')
      expect(event?.meta).toMatchObject({ topic: `chat:${platform}:${group}`, user_id: ann.id })
      await claude.callTool('reply', { chat_id: event?.meta?.chat_id, text: 'hello group' })
      await fake.waitFor(
        () => botMessages(fake, group).find((m) => m.text.includes('hello group')),
        'the reply in the group',
      )
    })

    it('lets a chat pick one session with /to, and lists them with /sessions', async () => {
      const { fake, home, ann } = t
      const work = await channel()
      const other = await ChannelClient.inFolder(home, 'other')
      t.opened.push(other)
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, '/sessions')
      const list = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Sessions taking')),
        '/sessions',
      )
      expect(list.text).toContain('work')
      expect(list.text).toContain('other')
      await fake.dm(ann, '/to other')
      await fake.waitFor(() => botMessages(fake, chat).find((m) => m.text.includes('now go to other')), '/to')
      await fake.dm(ann, 'only for other')
      await other.waitForEvents(1)
      expect(other.events[0]?.content).toBe('only for other')
      expect(work.events.map((e) => e.content)).not.toContain('only for other')
    })
  })

  // These need operators to be none but their own, or remove the bridge: each has a hub of its own.
  describe('on a hub of its own', () => {
    t.hubPerTest()

    it('sends a new operator the prompts that were already waiting', async () => {
      const { fake, home, ann, olga } = t
      const claude = await channel()
      await home.addSender('laptop', true) // the only operator when the prompts are raised
      const annChat = await pair(home, fake, ann)
      await claude.sendPermissionRequest({
        request_id: 'hjkmn',
        tool_name: 'Bash',
        description: 'build',
        input_preview: '{"command":"make"}',
      })
      await waitFor(async () => (await decisionStatus(home, 'hjkmn')) === 'open', 10_000, 'the prompt')
      const chat = await pair(home, fake, olga, true)
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the waiting prompt, for the new operator',
      )
      expect(prompt.text).toContain('$ make')
      await home.cli('access', 'allow', `${platform}:${ann.id}`, '--operator')
      await fake.waitFor(
        () => botMessages(fake, annChat).find((m) => m.text.includes('Permission: Bash')),
        'the waiting prompt, for the one made operator',
      )
      const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
      await fake.press(olga, chat, prompt.messageId, allow?.data as string)
      await fake.waitFor(() => claude.verdicts[0], 'the verdict')
      expect(claude.verdicts).toEqual([{ request_id: 'hjkmn', behavior: 'allow' }])
    })

    it('stops the bot when the bridge is removed, and refuses a second hub on the same bot', async () => {
      const { fake, home } = t
      const second = await TestHome.create()
      try {
        await second.cli(...bridgeAddArgs(fake))
        const otherHub = spawnHub(second)
        try {
          await second.waitForHub()
          let row: { state: string; lastError: string | null } | undefined
          await waitFor(
            async () => {
              ;[row] = JSON.parse(await second.cli('bridge', 'list', '--json'))
              return row?.lastError?.includes('served by another hub') === true
            },
            20_000,
            'the second hub to refuse the bot',
          )
          expect(row?.state).toBe('error')
        } finally {
          otherHub.kill('SIGTERM')
        }
      } finally {
        await second.cleanup()
      }
      expect(fake.receivers()).toBeGreaterThan(0)
      await home.cli('bridge', 'remove', platform)
      await fake.waitFor(() => fake.receivers() === 0, 'the bridge to stop', 20_000)
    })
  })
})
