// Each chat bridge end to end short of Claude: the hub (`switchboard serve`) with a bridge added by
// `switchboard bridge add`, the platform's real client library inside it, a fake platform server on
// 127.0.0.1, and an MCP client of `switchboard channel` standing in for Claude Code.
import type { ChildProcess } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { FakePlatform, FakeUser } from '../fakes/chat-platform.js'
import {
  botMessages,
  bridgeAddArgs,
  editOf,
  LIMITS,
  pair,
  person,
  spawnHub,
  startBridgedHub,
  stopBridgedHub,
} from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { TestHome, waitFor } from '../helpers/home.js'

describe.each(BRIDGE_PLATFORMS)('%s bridge', (platform) => {
  let fake: FakePlatform
  let home: TestHome
  let hub: ChildProcess
  const opened: { close(): unknown }[] = []
  // New people for each test: the tests on the shared hub must not meet someone paired by another.
  let met = 0
  let ann: FakeUser
  let olga: FakeUser
  let stranger: FakeUser
  beforeEach(() => {
    ann = person(platform, ++met, 'ann')
    olga = person(platform, ++met, 'olga')
    stranger = person(platform, ++met, 'mallory')
  })

  async function channel(): Promise<ChannelClient> {
    const client = await ChannelClient.inFolder(home, 'work')
    opened.push(client)
    return client
  }

  // One hub for the tests that leave it as they found it: each has its own people, prompts and
  // channels, and ends with its prompts closed, so none sees another's (and the order does not matter).
  describe('on a hub they share', () => {
    beforeAll(async () => {
      ;({ fake, home, hub } = await startBridgedHub(platform))
    })

    afterEach(async () => {
      for (const thing of opened.splice(0)) await thing.close()
      await waitFor(
        async () => (await home.api('decisions')).decisions.length === 0,
        10_000,
        'the test’s prompts to be withdrawn',
      )
    })

    afterAll(async () => {
      await stopBridgedHub({ fake, home, hub }, opened)
    })

    it('answers a stranger with a pairing code, and lets them in once the operator approves it', async () => {
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

    it('hands a DM to the channel with the meta the official plugins give', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      const messageId = await fake.dm(ann, 'deploy is red, look?')
      const [event] = await claude.waitForEvents(1)
      expect(event?.content).toBe('deploy is red, look?')
      expect(event?.meta).toMatchObject({
        origin: platform,
        topic: `chat:${platform}:${chat}`,
        sender: `${platform}:${ann.id}`,
        message_id: messageId,
        user: 'ann',
        user_id: ann.id,
      })
      expect(event?.meta?.chat_id).toMatch(/^chat_/)
      expect(Number.isNaN(Date.parse(event?.meta?.ts ?? ''))).toBe(false)
      // Shown while Claude works; it may reach the platform after the message reached Claude.
      if (platform !== 'slack') await fake.waitFor(() => fake.typing.includes(chat), 'the typing indicator')
    })

    it('sends Claude’s reply as the platform’s message, cut at its limit', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, 'write me a long one')
      const [event] = await claude.waitForEvents(1)
      const paragraph = `${'word '.repeat(300).trim()}\n\n`
      const text = paragraph.repeat(Math.ceil((LIMITS[platform] * 2.5) / paragraph.length)).trim()
      const before = botMessages(fake, chat).length
      const result = await claude.callTool('reply', { chat_id: event?.meta?.chat_id, text })
      expect(result.isError).toBeFalsy()
      expect(JSON.stringify(result.content)).toContain('sent')
      const chunks = botMessages(fake, chat).slice(before)
      expect(chunks.length).toBeGreaterThanOrEqual(3)
      for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(LIMITS[platform])
      expect(chunks[0]?.text.startsWith('[work] ')).toBe(true)
      const words = (s: string) => s.replace('[work] ', '').split(/\s+/).filter(Boolean)
      expect(chunks.flatMap((c) => words(c.text))).toEqual(words(text))
    })

    it('puts a permission prompt to an operator with buttons, and a press answers it', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      await claude.sendPermissionRequest({
        request_id: 'bqzmx',
        tool_name: 'Bash',
        description: 'List the files',
        input_preview: '{"command":"ls -la"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      // As the dashboard shows it: the command, not the JSON it came in.
      expect(prompt.text).toContain('$ ls -la')
      expect(prompt.text).not.toContain('{"command"')
      const labels = prompt.buttons.flat().map((b) => b.text)
      expect(labels).toEqual(['See more', 'Allow', 'Deny'])
      const more = prompt.buttons.flat().find((b) => b.text === 'See more')
      await fake.press(olga, chat, prompt.messageId, more?.data as string)
      // The details replace the prompt, its See more gone (the prompt showed the command already). Only
      // then Allow: the edit a press of See more makes and the one an answer makes are not in order.
      await fake.waitFor(
        () =>
          fake
            .sent()
            .find(
              (m) =>
                m.chatId === chat &&
                m.messageId === prompt.messageId &&
                m.text.includes('ls -la') &&
                !m.buttons.flat().some((b) => b.text === 'See more'),
            ),
        'the details',
      )

      const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
      await fake.press(olga, chat, prompt.messageId, allow?.data as string)
      await fake.waitFor(() => claude.verdicts[0], 'the verdict')
      expect(claude.verdicts).toEqual([{ request_id: 'bqzmx', behavior: 'allow' }])
      const edited = await editOf(fake, chat, prompt.messageId, 'Allowed by', 'the prompt edited')
      expect(edited.text).toContain('olga')
      expect(edited.buttons).toEqual([])
    })

    it('edits the prompt on the phone when it is answered somewhere else', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      const token = await home.addSender('laptop', true)
      await claude.sendPermissionRequest({
        request_id: 'kxvwp',
        tool_name: 'Write',
        description: 'Write a file',
        input_preview: '{"file_path":"/tmp/x"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Write')),
        'the prompt',
      )
      const answered = await fetch(`${home.url}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: 'no kxvwp',
      })
      expect(answered.status).toBe(200)
      await fake.waitFor(() => claude.verdicts[0], 'the verdict')
      expect(claude.verdicts).toEqual([{ request_id: 'kxvwp', behavior: 'deny' }])
      const edited = await editOf(fake, chat, prompt.messageId, 'Denied by laptop', 'the prompt edited')
      expect(edited.buttons).toEqual([])
    })

    it('confirms a typed "yes <id>", and says why one cannot be taken', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      const annChat = await pair(home, fake, ann) // allowed, not an operator
      await claude.sendPermissionRequest({
        request_id: 'dqzmx',
        tool_name: 'Bash',
        description: 'List the files',
        input_preview: '{"command":"ls"}',
      })
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      await fake.dm(ann, 'yes dqzmx')
      await fake.waitFor(
        () => botMessages(fake, annChat).find((m) => m.text.includes('Only operators')),
        'the refusal',
      )
      await fake.dm(olga, 'yes dqzmx')
      await fake.waitFor(() => claude.verdicts[0], 'the verdict')
      expect(claude.verdicts).toEqual([{ request_id: 'dqzmx', behavior: 'allow' }])
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Allowed dqzmx')),
        'the confirmation',
      )
      await fake.dm(olga, 'no dqzmx')
      const again = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('dqzmx') && /already/i.test(m.text)),
        'why the second answer was not taken',
      )
      expect(again.text).toContain('olga')
      expect(claude.verdicts).toHaveLength(1)
    })

    it('clears a prompt’s buttons when its session goes away unanswered', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      await claude.sendPermissionRequest({
        request_id: 'wvxyz',
        tool_name: 'Bash',
        description: 'sleep',
        input_preview: '{"command":"sleep 1"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      await claude.close()
      const edited = await editOf(fake, chat, prompt.messageId, 'No longer open', 'the prompt closed')
      expect(edited.buttons).toEqual([])
    })

    it('refuses a stranger’s button press', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      await pair(home, fake, ann) // allowed, not an operator
      await claude.sendPermissionRequest({
        request_id: 'mnpqr',
        tool_name: 'Bash',
        description: 'rm',
        input_preview: '{"command":"rm -rf build"}',
      })
      const prompt = await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
        'the prompt',
      )
      const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')?.data as string
      const before = fake.pressAnswers.length
      await fake.press(stranger, chat, prompt.messageId, allow)
      await fake.press(ann, chat, prompt.messageId, allow)
      await fake.waitFor(() => fake.pressAnswers.length >= before + 2, 'both presses answered')
      expect(fake.pressAnswers.slice(before).map((a) => a.notice)).toEqual([
        'Not authorized',
        'Not authorized',
      ])
      expect(claude.verdicts).toEqual([])
      expect(
        botMessages(fake, chat)
          .find((m) => m.messageId === prompt.messageId)
          ?.buttons.flat().length,
      ).toBe(3)
    })

    it('waits out a rate limit (429, retry_after) and then delivers the reply once', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, 'ping')
      const [event] = await claude.waitForEvents(1)
      fake.rateLimitNext(1, 1)
      const result = await claude.callTool('reply', {
        chat_id: event?.meta?.chat_id,
        text: 'after the limit',
      })
      expect(JSON.stringify(result.content)).toContain('queued')
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('after the limit')),
        'the reply',
        20_000,
      )
      expect(botMessages(fake, chat).filter((m) => m.text.includes('after the limit'))).toHaveLength(1)
    })

    it('gives a photo’s path and a file’s id in meta, and download_attachment fetches the file', async () => {
      const claude = await channel()
      await pair(home, fake, ann)
      const photo = { name: 'graph.png', mime: 'image/png', content: Buffer.from('png bytes of the graph') }
      await fake.dm(ann, 'see this', { photo })
      const [withPhoto] = await claude.waitForEvents(1)
      expect(withPhoto?.content).toBe('see this')
      const imagePath = withPhoto?.meta?.image_path as string
      expect(imagePath.startsWith(join(home.dir, 'inbox', platform))).toBe(true)
      expect(readFileSync(imagePath)).toEqual(photo.content)

      const log = { name: 'build<1>;.log', mime: 'text/plain', content: Buffer.from('error: it broke\n') }
      await fake.dm(ann, 'and the log', { document: log })
      const events = await claude.waitForEvents(2)
      const meta = events[1]?.meta ?? {}
      expect(meta).toMatchObject({ attachment_name: expect.stringContaining('build') })
      expect(meta.image_path).toBeUndefined()
      const result = await claude.callTool('download_attachment', {
        chat_id: meta.chat_id,
        file_id: meta.attachment_file_id,
      })
      expect(result.isError).toBeFalsy()
      const path = (result.content as { text: string }[])[0]?.text as string
      expect(readFileSync(path)).toEqual(log.content)
      expect(basename(path)).not.toMatch(/[<>;]/)
    })

    it('brings a photo and a PDF into the inbox of the session the chat goes to, each named with its type and size', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, '/to work')
      await fake.waitFor(() => botMessages(fake, chat).find((m) => m.text.includes('now go to work')), '/to')
      const photo = { name: 'graph.png', mime: 'image/png', content: Buffer.from('png bytes of the graph') }
      const pdf = { name: 'report.pdf', mime: 'application/pdf', content: Buffer.from('%PDF-1.4 the report') }
      await fake.dm(ann, 'the graph', { photo })
      await fake.dm(ann, 'and the report', { document: pdf })
      const [withPhoto, withPdf] = await claude.waitForEvents(2)
      const inbox = join(home.dir, 'inbox', 'work')
      const named = (meta: Record<string, string> | undefined) => {
        const [, path, type, size] = /^(.+) \(([^,]+), (\d+) bytes\)$/.exec(meta?.files ?? '') ?? []
        return { path: path as string, type, size: Number(size) }
      }
      const image = named(withPhoto?.meta)
      expect(image.path.startsWith(inbox)).toBe(true)
      expect(readFileSync(image.path)).toEqual(photo.content)
      expect(image.size).toBe(photo.content.length)
      expect(image.type).toMatch(/^image\//)
      const report = named(withPdf?.meta)
      expect(report).toMatchObject({ type: 'application/pdf', size: pdf.content.length })
      expect(report.path.startsWith(inbox)).toBe(true)
      expect(readFileSync(report.path)).toEqual(pdf.content)
    })

    it('refuses a file over the limit or of a type not taken, telling the sender the limit', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      const config = join(home.dir, 'config.json')
      writeFileSync(config, JSON.stringify({ chatFileLimitMb: 1 }))
      try {
        const big = { name: 'dump.pdf', mime: 'application/pdf', content: Buffer.alloc(1024 * 1024 + 1) }
        await fake.dm(ann, 'the dump', { document: big })
        const said = await fake.waitFor(
          () => botMessages(fake, chat).find((m) => m.text.includes('dump.pdf')),
          'the refusal',
        )
        expect(said.text).toContain('over the 1 MB limit for files (chatFileLimitMb)')
        const exe = { name: 'tool.exe', mime: 'application/x-msdownload', content: Buffer.from('MZ') }
        await fake.dm(ann, 'run this', { document: exe })
        const refused = await fake.waitFor(
          () => botMessages(fake, chat).find((m) => m.text.includes('tool.exe')),
          'the refusal of a type',
        )
        expect(refused.text).toMatch(
          /application\/x-msdownload, which is not taken \(chatFileTypes: image\/\*/,
        )
        // The words still reach the session, saying what was refused; no file does.
        const events = await claude.waitForEvents(2)
        expect(events.map((e) => e.content)).toEqual(['the dump', 'run this'])
        expect(events.every((e) => e.meta?.files === undefined)).toBe(true)
        expect(events[0]?.meta?.files_refused).toContain('dump.pdf')
      } finally {
        rmSync(config)
      }
    })

    it('answers in a group only once it is added, and only when mentioned', async () => {
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
      const work = await channel()
      const other = await ChannelClient.inFolder(home, 'other')
      opened.push(other)
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

  // These leave the platform or the hub changed (an outage, a rate limit of a minute, the bridge
  // removed), or need operators to be none but their own: each has a hub of its own.
  describe('on a hub of its own', () => {
    beforeEach(async () => {
      ;({ fake, home, hub } = await startBridgedHub(platform))
    })

    afterEach(async () => {
      await stopBridgedHub({ fake, home, hub }, opened)
    })

    it('says a pressed prompt was answered elsewhere, or ended, rather than anything else', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, olga, true)
      const token = await home.addSender('laptop', true)
      for (const id of ['kxvwp', 'wvxyz'])
        await claude.sendPermissionRequest({
          request_id: id,
          tool_name: 'Bash',
          description: 'sleep',
          input_preview: '{"command":"sleep 1"}',
        })
      const prompts = await fake.waitFor(() => {
        const shown = botMessages(fake, chat).filter((m) => m.text.includes('Permission: Bash'))
        return shown.length === 2 && shown
      }, 'both prompts')
      const allowOf = (code: string) => {
        const prompt = prompts.find((m) => m.text.includes(code))
        const data = prompt?.buttons.flat().find((b) => b.text === 'Allow')?.data as string
        return { prompt: prompt?.messageId as string, data }
      }
      // The platform holds back the edits that would take the buttons away, so they can still be pressed.
      fake.rateLimitNext(10, 60)
      const answered = await fetch(`${home.url}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: 'no kxvwp',
      })
      expect(answered.status).toBe(200)
      const before = fake.pressAnswers.length
      const first = allowOf('kxvwp')
      await fake.press(olga, chat, first.prompt, first.data)
      await fake.waitFor(() => fake.pressAnswers.length > before, 'the press answered')
      expect(fake.pressAnswers.at(-1)?.notice).toMatch(/already answered.*laptop/i)

      await claude.close() // its open prompt is withdrawn
      await waitFor(
        async () => (await decisionStatus(home, 'wvxyz')) === 'cancelled',
        10_000,
        'the withdrawal',
      )
      const second = allowOf('wvxyz')
      await fake.press(olga, chat, second.prompt, second.data)
      await fake.waitFor(() => fake.pressAnswers.length > before + 1, 'the press answered')
      expect(fake.pressAnswers.at(-1)?.notice).toMatch(/no longer open/i)
    })

    it('sends a new operator the prompts that were already waiting', async () => {
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

    it('keeps a reply while the platform is down and delivers it once when it is back', async () => {
      const claude = await channel()
      const chat = await pair(home, fake, ann)
      await fake.dm(ann, 'ping')
      const [event] = await claude.waitForEvents(1)
      fake.setDown(true)
      const result = await claude.callTool('reply', {
        chat_id: event?.meta?.chat_id,
        text: 'pong, through the outage',
      })
      expect(result.isError).toBeFalsy()
      expect(JSON.stringify(result.content)).toContain('queued')
      fake.setDown(false)
      await fake.waitFor(
        () => botMessages(fake, chat).find((m) => m.text.includes('pong, through the outage')),
        'the reply after the outage',
        40_000,
      )
      const copies = botMessages(fake, chat).filter((m) => m.text.includes('pong, through the outage'))
      expect(copies).toHaveLength(1)
    })

    it('stops the bot when the bridge is removed, and refuses a second hub on the same bot', async () => {
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

/** A decision's status as the store has it, by its code. */
async function decisionStatus(home: TestHome, code: string): Promise<string | undefined> {
  const store = openSqliteStore(join(home.dir, 'switchboard.db'))
  try {
    return (await store.listDecisions({})).find((d) => d.code === code)?.status
  } finally {
    await store.close()
  }
}
