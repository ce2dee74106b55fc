// Each chat bridge end to end short of Claude: the hub (`switchboard serve`) with a bridge added by
// `switchboard bridge add`, the platform's real client library inside it, a fake platform server on
// 127.0.0.1, and an MCP client of `switchboard channel` standing in for Claude Code.
import type { ChildProcess } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Platform } from '../../src/sources/chat/platform.js'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { botMessages, bridgeAddArgs, FAKES, LIMITS, pair, person, spawnHub } from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { TestHome } from '../helpers/home.js'

const PLATFORMS = Object.keys(FAKES) as Platform[]

describe.each(PLATFORMS)('%s bridge', (platform) => {
  let fake: FakePlatform
  let home: TestHome
  let hub: ChildProcess
  const opened: { close(): unknown }[] = []
  const ann = person(platform, 1, 'ann')
  const olga = person(platform, 2, 'olga')
  const stranger = person(platform, 3, 'mallory')

  beforeEach(async () => {
    fake = await FAKES[platform]()
    home = await TestHome.create()
    await home.cli(...bridgeAddArgs(fake))
    hub = spawnHub(home)
    await home.waitForHub()
    await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  })

  afterEach(async () => {
    for (const thing of opened.splice(0)) await thing.close()
    hub.kill('SIGTERM')
    await home.cleanup()
    await fake.close()
  })

  async function channel(): Promise<ChannelClient> {
    const client = await ChannelClient.start(home, ['--name', 'work'])
    opened.push(client)
    return client
  }

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
    await fake.waitFor(() => botMessages(fake, chat).find((m) => m.text.startsWith('Paired')), '"Paired"', 15_000)
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
    if (platform !== 'slack') expect(fake.typing).toContain(chat)
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
    const labels = prompt.buttons.flat().map((b) => b.text)
    expect(labels).toEqual(['See more', 'Allow', 'Deny'])
    const more = prompt.buttons.flat().find((b) => b.text === 'See more')
    await fake.press(olga, chat, prompt.messageId, more?.data as string)
    await fake.waitFor(() => fake.sent().find((m) => m.messageId === prompt.messageId && m.text.includes('ls -la')), 'the details')

    const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
    await fake.press(olga, chat, prompt.messageId, allow?.data as string)
    await fake.waitFor(() => claude.verdicts[0], 'the verdict')
    expect(claude.verdicts).toEqual([{ request_id: 'bqzmx', behavior: 'allow' }])
    const edited = await fake.waitFor(
      () => fake.sent().find((m) => m.messageId === prompt.messageId && m.text.includes('Allowed by')),
      'the prompt edited',
    )
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
    const edited = await fake.waitFor(
      () => fake.sent().find((m) => m.messageId === prompt.messageId && m.text.includes('Denied by laptop')),
      'the prompt edited',
    )
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
    expect(fake.pressAnswers.slice(before).map((a) => a.notice)).toEqual(['Not authorized', 'Not authorized'])
    expect(claude.verdicts).toEqual([])
    expect(botMessages(fake, chat).find((m) => m.messageId === prompt.messageId)?.buttons.flat().length).toBe(3)
  })

  it('keeps a reply while the platform is down and delivers it once when it is back', async () => {
    const claude = await channel()
    const chat = await pair(home, fake, ann)
    await fake.dm(ann, 'ping')
    const [event] = await claude.waitForEvents(1)
    fake.setDown(true)
    const result = await claude.callTool('reply', { chat_id: event?.meta?.chat_id, text: 'pong, through the outage' })
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
})
