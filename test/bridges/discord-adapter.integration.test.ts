// The Discord adapter with discord.js's real Client against the fake Discord (REST and gateway):
// messages, presses and files in; messages, buttons, edits, reactions and files out; refusals, outages.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type ButtonPress,
  type InboundMessage,
  type PlatformAdapter,
  type PlatformCredentials,
  PlatformError,
} from '../../src/sources/chat/platform.js'
import { createDiscordAdapter } from '../../src/sources/discord/adapter.js'
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord.js'

const alice = { id: '100000000000000001', name: 'alice' }
const bob = { id: '100000000000000002', name: 'bob' }
const GROUP = '1200000000000000777'
const log = pino({ level: 'silent' })

let fake: FakeDiscord
let folder: string
let adapters: PlatformAdapter[]

beforeEach(async () => {
  fake = await startFakeDiscord()
  folder = await mkdtemp(join(tmpdir(), 'switchboard-discord-'))
  adapters = []
})

afterEach(async () => {
  for (const adapter of adapters) await adapter.stop()
  await fake.close()
  await rm(folder, { recursive: true, force: true })
})

interface Seen {
  messages: InboundMessage[]
  presses: ButtonPress[]
  failures: Error[]
  connected: number
}

function adapterFor(credentials: PlatformCredentials = fake.credentials) {
  const adapter = createDiscordAdapter(credentials, log)
  adapters.push(adapter)
  const seen: Seen = { messages: [], presses: [], failures: [], connected: 0 }
  const handlers = {
    message: (m: InboundMessage) => seen.messages.push(m),
    press: (p: ButtonPress) => seen.presses.push(p),
    connected: () => seen.connected++,
    failed: (e: Error) => seen.failures.push(e),
  }
  return { adapter, seen, start: () => adapter.start(handlers) }
}

async function started() {
  const bot = adapterFor()
  await bot.start()
  return bot
}

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PlatformError)
  return error as PlatformError
}

describe('Discord adapter: receiving', () => {
  it('start resolves with the bot identity once the gateway is ready', async () => {
    const bot = adapterFor()
    expect(await bot.start()).toEqual({ id: fake.botId, name: 'switchboard_test_bot' })
    expect(bot.seen.connected).toBe(1)
    expect(fake.receivers()).toBe(1)
    expect(bot.adapter.platform).toBe('discord')
    expect(bot.adapter.textLimit).toBe(2000)
  })

  it('a DM arrives as an InboundMessage', async () => {
    const { seen } = await started()
    const id = await fake.dm(alice, 'hello bot')
    const message = await fake.waitFor(() => seen.messages[0], 'the DM')
    expect(message).toEqual({
      chatId: fake.dmChatOf(alice.id),
      chatType: 'dm',
      messageId: id,
      userId: alice.id,
      userName: 'alice',
      text: 'hello bot',
      ts: expect.any(String),
      mentioned: false,
      attachments: [],
    })
    expect(new Date(message.ts).toISOString()).toBe(message.ts)
  })

  it('an image and a file arrive as attachments that download writes to disk', async () => {
    const { adapter, seen } = await started()
    const png = Buffer.from('\x89PNG fake image bytes')
    const pdf = Buffer.from('%PDF-1.4 fake')
    await fake.dm(alice, 'a cat', { photo: { name: 'cat.png', mime: 'image/png', content: png } })
    await fake.dm(alice, '', {
      document: { name: 'q3 <report>;.pdf', mime: 'application/pdf', content: pdf },
    })
    const [withPhoto, withDocument] = await fake.waitFor(
      () => seen.messages.length === 2 && seen.messages,
      'both',
    )

    expect(withPhoto?.text).toBe('a cat')
    expect(withPhoto?.attachments).toHaveLength(1)
    const photo = withPhoto?.attachments[0]
    expect(photo).toMatchObject({ kind: 'photo', name: 'cat.png', mime: 'image/png', size: png.length })
    if (!photo) throw new Error('no photo')
    const photoPath = await adapter.download(photo, folder)
    expect(await readFile(photoPath)).toEqual(png)
    expect(photoPath.startsWith(folder)).toBe(true)

    const document = withDocument?.attachments[0]
    expect(document).toMatchObject({
      kind: 'file',
      name: 'q3 <report>;.pdf',
      mime: 'application/pdf',
      size: pdf.length,
    })
    if (!document) throw new Error('no document')
    const docPath = await adapter.download(document, folder)
    expect(await readFile(docPath)).toEqual(pdf)
    expect(basename(docPath)).toMatch(/q3 _report__\.pdf$/)
    // The same file twice gets two names, never an overwrite.
    expect(await adapter.download(document, folder)).not.toBe(docPath)
  })

  it('a guild message is mentioned only when it names the bot', async () => {
    const { seen } = await started()
    await fake.groupMessage(GROUP, bob, 'just chatting')
    await fake.groupMessage(GROUP, bob, 'can you help?', { mention: true })
    const [plain, named] = await fake.waitFor(
      () => seen.messages.length === 2 && seen.messages,
      'two messages',
    )
    expect(plain).toMatchObject({
      chatId: GROUP,
      chatType: 'group',
      userId: bob.id,
      userName: 'bob',
      text: 'just chatting',
      mentioned: false,
    })
    expect(named).toMatchObject({ chatId: GROUP, chatType: 'group', mentioned: true })
    expect(named?.text).toContain('can you help?')
  })

  it('the bot’s own messages do not come back as inbound', async () => {
    const { adapter, seen } = await started()
    await fake.dm(alice, 'first')
    await fake.waitFor(() => seen.messages[0], 'the DM')
    await adapter.send(fake.dmChatOf(alice.id), { text: 'from the bot' })
    await fake.dm(alice, 'second')
    await fake.waitFor(() => seen.messages[1], 'the second DM')
    expect(seen.messages.map((m) => m.text)).toEqual(['first', 'second'])
  })

  it('a button press arrives as a ButtonPress and answerPress shows the notice', async () => {
    const { adapter, seen } = await started()
    await fake.dm(alice, 'hi')
    await fake.waitFor(() => seen.messages[0], 'the DM')
    const chat = fake.dmChatOf(alice.id)
    const messageId = await adapter.send(chat, {
      text: 'Allow?',
      buttons: [
        [
          { text: 'Allow', data: 'perm:allow:abcde' },
          { text: 'Deny', data: 'perm:deny:abcde' },
        ],
      ],
    })
    const pressId = await fake.press(alice, chat, messageId, 'perm:allow:abcde')
    const press = await fake.waitFor(() => seen.presses[0], 'the press')
    expect(press).toEqual({
      pressId,
      chatId: chat,
      chatType: 'dm',
      messageId,
      userId: alice.id,
      userName: 'alice',
      data: 'perm:allow:abcde',
    })
    await adapter.answerPress(press, 'Allowed')
    expect(fake.pressAnswers).toEqual([{ pressId, notice: 'Allowed' }])

    // Without a notice the press is acknowledged silently; a press is answered once.
    const second = await fake.press(alice, chat, messageId, 'perm:deny:abcde')
    const quiet = await fake.waitFor(() => seen.presses[1], 'the second press')
    await adapter.answerPress(quiet)
    expect(fake.pressAnswers[1]).toEqual({ pressId: second, notice: null })
    expect((await rejection(adapter.answerPress(quiet, 'again'))).options.permanent).toBe(true)
  })

  it('a press in a guild channel is a group press', async () => {
    const { adapter, seen } = await started()
    await fake.groupMessage(GROUP, bob, 'hello', { mention: true })
    await fake.waitFor(() => seen.messages[0], 'the message')
    const messageId = await adapter.send(GROUP, { text: 'Pick', buttons: [[{ text: 'A', data: 'a' }]] })
    await fake.press(bob, GROUP, messageId, 'a')
    const press = await fake.waitFor(() => seen.presses[0], 'the press')
    expect(press).toMatchObject({ chatId: GROUP, chatType: 'group', messageId, userId: bob.id, data: 'a' })
  })
})

describe('Discord adapter: sending', () => {
  async function withChat() {
    const bot = await started()
    const inbound = await fake.dm(alice, 'hi')
    await fake.waitFor(() => bot.seen.messages[0], 'the DM')
    return { ...bot, chat: fake.dmChatOf(alice.id), inbound }
  }

  it('sends text with buttons as a reply', async () => {
    const { adapter, chat, inbound } = await withChat()
    const buttons = [
      [
        { text: 'Yes', data: 'y' },
        { text: 'No', data: 'n' },
      ],
      [{ text: 'More', data: 'm' }],
    ]
    const id = await adapter.send(chat, { text: 'Pick one', buttons, replyTo: inbound })
    expect(id).toMatch(/^\d+$/)
    expect(fake.sent()).toEqual([
      {
        chatId: chat,
        messageId: id,
        userId: fake.botId,
        text: 'Pick one',
        buttons,
        replyTo: inbound,
        files: [],
        thread: null,
      },
    ])
  })

  it('a row of more than five buttons becomes several rows', async () => {
    const { adapter, chat } = await withChat()
    const seven = Array.from({ length: 7 }, (_, i) => ({ text: `B${i}`, data: `b${i}` }))
    await adapter.send(chat, { text: 'Many', buttons: [seven] })
    expect(fake.sent()[0]?.buttons).toEqual([seven.slice(0, 5), seven.slice(5)])
  })

  it('a reply to a message that is gone still goes out', async () => {
    const { adapter, chat } = await withChat()
    await adapter.send(chat, { text: 'anyway', replyTo: '1234567890123456789' })
    expect(fake.sent()[0]).toMatchObject({ text: 'anyway', replyTo: null })
  })

  it('sends files on the same message as the text', async () => {
    const { adapter, chat } = await withChat()
    const png = { name: 'chart.png', bytes: Buffer.alloc(2048, 7) }
    const txt = { name: 'notes.txt', bytes: Buffer.from('some notes\n') }
    const id = await adapter.send(chat, { text: 'Here they are', files: [png, txt] })
    expect(fake.sent()).toEqual([
      expect.objectContaining({
        messageId: id,
        text: 'Here they are',
        files: [
          { name: 'chart.png', size: 2048 },
          { name: 'notes.txt', size: 11 },
        ],
      }),
    ])
    const eleven = Array.from({ length: 11 }, () => txt)
    const tooMany = await rejection(adapter.send(chat, { text: 'x', files: eleven }))
    expect(tooMany.options.permanent).toBe(true)
  })

  it('edit replaces the text and removes the buttons', async () => {
    const { adapter, chat, inbound } = await withChat()
    const id = await adapter.send(chat, { text: 'Allow?', buttons: [[{ text: 'Allow', data: 'a' }]] })
    await adapter.edit(chat, id, 'Allowed', [])
    expect(fake.sent()[0]).toMatchObject({ messageId: id, text: 'Allowed', buttons: [] })
    expect(fake.edits).toEqual([
      { chatId: chat, messageId: id, text: 'Allowed', buttons: [], at: expect.any(Number) },
    ])
    await adapter.edit(chat, id, 'Pick again', [[{ text: 'Again', data: 'g' }]])
    expect(fake.sent()[0]?.buttons).toEqual([[{ text: 'Again', data: 'g' }]])
    // Someone else's message: Discord refuses, and asking again cannot help.
    expect((await rejection(adapter.edit(chat, inbound, 'no'))).options.permanent).toBe(true)
  })

  it('reacts, shows typing, opens a DM, reads history', async () => {
    const { adapter, chat, inbound } = await withChat()
    await adapter.react(chat, inbound, '👍')
    await adapter.react(chat, inbound, '❤️')
    expect(fake.reactions).toEqual([
      { chatId: chat, messageId: inbound, emoji: '👍' },
      { chatId: chat, messageId: inbound, emoji: '❤️' },
    ])
    await adapter.typing(chat)
    expect(fake.typing).toEqual([chat])
    expect(await adapter.dmChat(alice.id)).toBe(chat)

    await adapter.send(chat, { text: 'answer' })
    await fake.dm(alice, 'thanks')
    const history = await adapter.history?.(chat, 2)
    expect(history?.map((m) => [m.user, m.text])).toEqual([
      ['switchboard_test_bot', 'answer'],
      ['alice', 'thanks'],
    ])
    expect(Number.isNaN(Date.parse(history?.[0]?.ts ?? ''))).toBe(false)
  })

  it('a 429 rejects with retryAfterMs; a refusal is permanent', async () => {
    const { adapter, chat, inbound } = await withChat()
    fake.rateLimitNext(3, 7)
    const limited = await rejection(adapter.send(chat, { text: 'too fast' }))
    expect(limited.options.retryAfterMs).toBe(7000)
    expect(limited.options.permanent).toBeFalsy()
    expect((await rejection(adapter.edit(chat, inbound, 'x'))).options.retryAfterMs).toBe(7000)
    expect((await rejection(adapter.react(chat, inbound, '👍'))).options.retryAfterMs).toBe(7000)
    await adapter.send(chat, { text: 'later' })
    expect(fake.sent().map((m) => m.text)).toEqual(['later'])
    const unknown = await rejection(adapter.send('1999999999999999999', { text: 'nobody' }))
    expect(unknown.options.permanent).toBe(true)
    expect(unknown.message).toMatch(/Unknown Channel/)
  })
})

describe('Discord adapter: failures', () => {
  it('while Discord is down sends fail for a while; the gateway comes back by itself', async () => {
    const { adapter, seen } = await started()
    const chat = fake.dmChatOf(alice.id)
    fake.setDown(true)
    const refused = await rejection(adapter.send(chat, { text: 'anyone?' }))
    expect(refused.options.permanent).toBeFalsy()
    await fake.waitFor(() => seen.failures.length > 0, 'the outage reported')
    expect(fake.receivers()).toBe(0)
    // Written during the outage: delivered once the gateway is back.
    await fake.dm(alice, 'during')
    fake.setDown(false)
    await fake.waitFor(() => seen.connected === 2, 'connected again', 15_000)
    await fake.dm(alice, 'back again')
    await fake.waitFor(() => seen.messages.length === 2, 'the DMs after the outage')
    expect(seen.messages.map((m) => m.text)).toEqual(['during', 'back again'])
    expect(seen.failures).toHaveLength(1)
    await adapter.send(chat, { text: 'here' })
    expect(fake.sent().map((m) => m.text)).toEqual(['here'])
  })

  it('a refused token rejects start with a clear message', async () => {
    const bot = adapterFor({ ...fake.credentials, token: 'WRONG-token' })
    const error = await rejection(bot.start())
    expect(error.message).toMatch(/^Discord refused the bot token/)
    expect(error.options.permanent).toBe(true)
    expect(fake.receivers()).toBe(0)
  })

  it('start fails while Discord is down, not permanently', async () => {
    fake.setDown(true)
    const error = await rejection(adapterFor().start())
    expect(error.options.permanent).toBeFalsy()
  })

  it('stop() leaves no receivers; a client stopped during an outage never reconnects', async () => {
    const first = await started()
    await first.adapter.stop()
    await fake.waitFor(() => fake.receivers() === 0, 'no gateway socket')

    const stopped = await started()
    const other = await started()
    const [stoppedSession, otherSession] = fake.sessionIds().slice(-2)
    fake.setDown(true)
    await fake.waitFor(
      () => stopped.seen.failures.length > 0 && other.seen.failures.length > 0,
      'the outage reported to both',
    )
    await stopped.adapter.stop()
    const mark = fake.gatewayAttempts.length
    const since = (session: string | undefined) =>
      fake.gatewayAttempts.slice(mark).filter((a) => a.session === session).length
    // discord.js retries every half second: while the other client tries four times, a stopped one
    // that still reconnected would have tried too (one attempt may have been on its way at stop()).
    await fake.waitFor(() => since(otherSession) >= 4, 'the other client retrying')
    expect(since(stoppedSession)).toBeLessThanOrEqual(1)

    fake.setDown(false)
    await fake.waitFor(() => other.seen.connected === 2, 'the other client back', 15_000)
    await fake.dm(alice, 'only the other')
    await fake.waitFor(() => other.seen.messages[0], 'the DM')
    expect(fake.receivers()).toBe(1)
    expect(stopped.seen.messages).toEqual([])
  })
})
