// The Telegram adapter with grammy's real Bot against the fake Bot API: messages, presses and files
// in; messages, buttons, edits, reactions and files out; refusals, outages and a second poller.
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
import { createTelegramAdapter } from '../../src/sources/telegram/adapter.js'
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.js'

const alice = { id: '1001', name: 'alice' }
const bob = { id: '1002', name: 'bob' }
const GROUP = '-100777'
const log = pino({ level: 'silent' })

let fake: FakeTelegram
let folder: string
let adapters: PlatformAdapter[]

beforeEach(async () => {
  fake = await startFakeTelegram()
  folder = await mkdtemp(join(tmpdir(), 'switchboard-telegram-'))
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
  const adapter = createTelegramAdapter(credentials, log)
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

describe('Telegram adapter: receiving', () => {
  it('start resolves with the bot identity once polling works', async () => {
    const bot = adapterFor()
    expect(await bot.start()).toEqual({ id: fake.botId, name: 'switchboard_test_bot' })
    expect(bot.seen.connected).toBe(1)
    await fake.waitFor(() => fake.receivers() === 1, 'a long poll')
    expect(bot.adapter.platform).toBe('telegram')
    expect(bot.adapter.textLimit).toBe(4096)
    expect(bot.adapter.history).toBeUndefined()
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

  it('a photo and a document arrive as attachments that download writes to disk', async () => {
    const { adapter, seen } = await started()
    const photo = Buffer.from('fake jpeg bytes, larger than the thumbnail')
    const pdf = Buffer.from('%PDF-1.4 fake')
    await fake.dm(alice, 'a cat', { photo: { name: 'cat.jpg', mime: 'image/jpeg', content: photo } })
    await fake.dm(alice, '', {
      document: { name: 'q3 <report>;.pdf', mime: 'application/pdf', content: pdf },
    })
    const [withPhoto, withDocument] = await fake.waitFor(
      () => seen.messages.length === 2 && seen.messages,
      'both',
    )

    expect(withPhoto?.text).toBe('a cat')
    const photoAttachment = withPhoto?.attachments[0]
    expect(withPhoto?.attachments).toHaveLength(1)
    expect(photoAttachment).toMatchObject({ kind: 'photo', name: null, size: photo.length })
    if (!photoAttachment) throw new Error('no photo')
    const photoPath = await adapter.download(photoAttachment, folder)
    expect(await readFile(photoPath)).toEqual(photo)
    expect(photoPath.startsWith(folder)).toBe(true)

    const docAttachment = withDocument?.attachments[0]
    expect(docAttachment).toMatchObject({
      kind: 'document',
      name: 'q3 <report>;.pdf',
      mime: 'application/pdf',
      size: pdf.length,
    })
    if (!docAttachment) throw new Error('no document')
    const docPath = await adapter.download(docAttachment, folder)
    expect(await readFile(docPath)).toEqual(pdf)
    expect(basename(docPath)).toMatch(/q3 _report__\.pdf$/)
    // The same file twice gets two names, never an overwrite.
    expect(await adapter.download(docAttachment, folder)).not.toBe(docPath)
  })

  it('a group message is mentioned only when it names the bot', async () => {
    const { seen } = await started()
    await fake.groupMessage(GROUP, bob, 'just chatting')
    await fake.groupMessage(GROUP, bob, 'can you help?', { mention: true })
    const [plain, named] = await fake.waitFor(
      () => seen.messages.length === 2 && seen.messages,
      'two messages',
    )
    expect(plain).toMatchObject({ chatId: GROUP, chatType: 'group', userId: bob.id, mentioned: false })
    expect(named).toMatchObject({ chatId: GROUP, chatType: 'group', mentioned: true })
    expect(named?.text).toContain('can you help?')
  })

  it('a button press arrives as a ButtonPress and answerPress shows the notice', async () => {
    const { adapter, seen } = await started()
    await fake.dm(alice, 'hi')
    await fake.waitFor(() => seen.messages[0], 'the DM')
    const chat = fake.dmChatOf(alice.id)
    const messageId = await adapter.send(chat, {
      text: 'Allow?',
      buttons: [[{ text: 'Allow', data: 'perm:allow:abcde' }]],
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
  })
})

describe('Telegram adapter: sending', () => {
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

  it('sends files after the text: images as photos, the rest as documents', async () => {
    const { adapter, chat } = await withChat()
    const png = { name: 'chart.png', bytes: Buffer.alloc(2048, 7) }
    const txt = { name: 'notes.txt', bytes: Buffer.from('some notes\n') }
    const id = await adapter.send(chat, { text: 'Here they are', files: [png, txt] })
    const sent = fake.sent()
    expect(sent.map((m) => [m.text, m.files])).toEqual([
      ['Here they are', []],
      ['', [{ name: 'chart.png', size: 2048 }]],
      ['', [{ name: 'notes.txt', size: 11 }]],
    ])
    expect(sent[0]?.messageId).toBe(id)
    const uploads = fake.calls.filter((c) => c.method === 'sendPhoto' || c.method === 'sendDocument')
    expect(uploads.map((c) => c.method)).toEqual(['sendPhoto', 'sendDocument'])
  })

  it('edit replaces the text and removes the buttons', async () => {
    const { adapter, chat } = await withChat()
    const id = await adapter.send(chat, { text: 'Allow?', buttons: [[{ text: 'Allow', data: 'a' }]] })
    await adapter.edit(chat, id, 'Allowed', [])
    expect(fake.sent()[0]).toMatchObject({ messageId: id, text: 'Allowed', buttons: [] })
    expect(fake.edits).toEqual([
      { chatId: chat, messageId: id, text: 'Allowed', buttons: [], at: expect.any(Number) },
    ])
    const edit = fake.calls.find((c) => c.method === 'editMessageText')
    expect(edit?.fields.reply_markup).toEqual({ inline_keyboard: [] })
    // Telegram refuses an edit into the same content; the message already is what was asked.
    await adapter.edit(chat, id, 'Allowed')
    expect(fake.edits).toHaveLength(1)
  })

  it('reacts, shows typing', async () => {
    const { adapter, chat, inbound } = await withChat()
    await adapter.react(chat, inbound, '👍')
    await adapter.react(chat, inbound, '❤️')
    expect(fake.reactions).toEqual([
      { chatId: chat, messageId: inbound, emoji: '👍' },
      { chatId: chat, messageId: inbound, emoji: '❤' },
    ])
    const refused = await rejection(adapter.react(chat, inbound, '🦖'))
    expect(refused.options.permanent).toBe(true)
    await adapter.typing(chat)
    expect(fake.typing).toEqual([chat])
    expect(await adapter.dmChat(alice.id)).toBe(alice.id)
  })

  it('a 429 rejects with retryAfterMs; a refusal is permanent', async () => {
    const { adapter, chat } = await withChat()
    fake.rateLimitNext(1, 7)
    const limited = await rejection(adapter.send(chat, { text: 'too fast' }))
    expect(limited.options.retryAfterMs).toBe(7000)
    expect(limited.options.permanent).toBeFalsy()
    await adapter.send(chat, { text: 'later' })
    expect(fake.sent().map((m) => m.text)).toEqual(['later'])
    const unknown = await rejection(adapter.send('424242', { text: 'nobody' }))
    expect(unknown.options.permanent).toBe(true)
  })
})

describe('Telegram adapter: failures', () => {
  it('while the platform is down sends fail for a while; polling recovers afterwards', async () => {
    const { adapter, seen } = await started()
    await fake.waitFor(() => fake.receivers() === 1, 'a long poll')
    fake.setDown(true)
    const refused = await rejection(adapter.send(fake.dmChatOf(alice.id), { text: 'anyone?' }))
    expect(refused.options.permanent).toBeFalsy()
    await fake.waitFor(() => seen.failures.length > 0, 'the outage reported')
    fake.setDown(false)
    await fake.dm(alice, 'back again')
    const message = await fake.waitFor(() => seen.messages[0], 'the DM after the outage')
    expect(message.text).toBe('back again')
    await fake.waitFor(() => seen.connected === 2, 'connected again')
  })

  it('start waits through an outage, and stop() ends a start that is still waiting', async () => {
    fake.setDown(true)
    const first = adapterFor()
    const starting = first.start()
    await fake.waitFor(() => first.seen.failures.length > 0, 'the outage reported')
    fake.setDown(false)
    expect(await starting).toMatchObject({ id: fake.botId })

    fake.setDown(true)
    const second = adapterFor()
    const waiting = second.start()
    await fake.waitFor(() => second.seen.failures.length > 0, 'the outage reported')
    await second.adapter.stop()
    expect((await rejection(waiting)).message).toMatch(/stopped/)
  })

  it('a refused token rejects start with a clear message', async () => {
    const bot = adapterFor({ ...fake.credentials, token: '123456:WRONG' })
    const error = await rejection(bot.start())
    expect(error.message).toMatch(/refused the bot token \(401/)
    expect(error.options.permanent).toBe(true)
  })

  it('a second adapter on the same bot is refused with 409; the first keeps receiving', async () => {
    const first = await started()
    await fake.waitFor(() => fake.receivers() === 1, 'the first long poll')
    const second = adapterFor()
    const error = await rejection(second.start())
    expect(error.message).toBe('another program is receiving updates for this bot (Telegram 409 Conflict)')
    await fake.dm(alice, 'still there?')
    const message = await fake.waitFor(() => first.seen.messages[0], 'the DM')
    expect(message.text).toBe('still there?')
    expect(second.seen.messages).toEqual([])
  })

  it('another poller taking over later is reported as failed with the 409 message', async () => {
    const { seen } = await started()
    await fake.waitFor(() => fake.receivers() === 1, 'a long poll')
    // An outage ends the adapter's long poll; grammy waits seconds before it polls again, and the
    // other program's long poll is waiting by then.
    fake.setDown(true)
    await fake.waitFor(() => seen.failures.length === 1, 'the outage reported')
    fake.setDown(false)
    const other = new AbortController()
    const url = `${fake.credentials.apiUrl}/bot${fake.credentials.token}/getUpdates`
    const otherPoll = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeout: 30 }),
      signal: other.signal,
    }).catch(() => undefined)
    try {
      await fake.waitFor(() => fake.receivers() === 1, 'the other long poll')
      const failure = await fake.waitFor(() => seen.failures[1], 'the conflict reported')
      expect(failure.message).toBe(
        'another program is receiving updates for this bot (Telegram 409 Conflict)',
      )
    } finally {
      other.abort()
      await otherPoll
    }
  })

  it('stop() leaves no receivers, also while the platform is down', async () => {
    const first = await started()
    await fake.waitFor(() => fake.receivers() === 1, 'a long poll')
    await first.adapter.stop()
    await fake.waitFor(() => fake.receivers() === 0, 'no long poll')

    const second = await started()
    await fake.waitFor(() => fake.receivers() === 1, 'a long poll')
    fake.setDown(true)
    await second.adapter.stop()
    expect(fake.receivers()).toBe(0)
  })
})
