// The Slack adapter with @slack/bolt's real App (Socket Mode) against the fake Slack: messages,
// mentions, files and presses in; messages, buttons, threads, edits, reactions and files out;
// refused tokens, rate limits and an outage the socket comes back from.
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
import { createSlackAdapter } from '../../src/sources/slack/adapter.js'
import { type FakeSlack, startFakeSlack } from '../fakes/slack.js'

const alice = { id: 'U0ALICE001', name: 'alice' }
const bob = { id: 'U0BOB00001', name: 'bob' }
const CHANNEL = 'C0GENERAL1'
const log = pino({ level: 'silent' })

let fake: FakeSlack
let folder: string
let adapters: PlatformAdapter[]

beforeEach(async () => {
  fake = await startFakeSlack()
  folder = await mkdtemp(join(tmpdir(), 'switchboard-slack-'))
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
  const adapter = createSlackAdapter(credentials, log)
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

describe('Slack adapter: receiving', () => {
  it('start resolves with the bot identity once the socket said hello', async () => {
    const bot = adapterFor()
    expect(await bot.start()).toEqual({ id: fake.botId, name: 'switchboard' })
    expect(fake.receivers()).toBe(1)
    expect(bot.seen.connected).toBe(1)
    expect(bot.adapter.platform).toBe('slack')
    expect(bot.adapter.textLimit).toBe(4000)
  })

  it('a DM arrives as an InboundMessage with the Slack ts as its id', async () => {
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
      ts: new Date(Math.floor(Number(id) * 1000)).toISOString(),
      mentioned: false,
      attachments: [],
    })
    expect(id).toMatch(/^\d{10}\.\d{6}$/)
  })

  it('an image and a file arrive as attachments that download writes to disk', async () => {
    const { adapter, seen } = await started()
    const png = Buffer.from('fake png bytes')
    const pdf = Buffer.from('%PDF-1.4 fake')
    await fake.dm(alice, 'a cat', { photo: { name: 'cat.png', mime: 'image/png', content: png } })
    await fake.dm(alice, '', {
      document: { name: 'q3 <report>;.pdf', mime: 'application/pdf', content: pdf },
    })
    const [withImage, withFile] = await fake.waitFor(
      () => seen.messages.length === 2 && seen.messages,
      'both',
    )

    expect(withImage?.text).toBe('a cat')
    expect(withImage?.attachments).toEqual([
      { kind: 'photo', ref: expect.any(String), name: 'cat.png', mime: 'image/png', size: png.length },
    ])
    const image = withImage?.attachments[0]
    if (!image) throw new Error('no image')
    const imagePath = await adapter.download(image, folder)
    expect(await readFile(imagePath)).toEqual(png)
    expect(imagePath.startsWith(folder)).toBe(true)

    const file = withFile?.attachments[0]
    expect(file).toMatchObject({
      kind: 'file',
      name: 'q3 <report>;.pdf',
      mime: 'application/pdf',
      size: pdf.length,
    })
    if (!file) throw new Error('no file')
    const filePath = await adapter.download(file, folder)
    expect(await readFile(filePath)).toEqual(pdf)
    expect(basename(filePath)).toBe('q3 _report__.pdf')
    // The same file twice gets two names, never an overwrite.
    expect(await adapter.download(file, folder)).not.toBe(filePath)
  })

  it('download sends the bot token only to Slack', async () => {
    const { adapter } = await started()
    const elsewhere = {
      kind: 'file' as const,
      ref: 'http://127.0.0.1:9/steal',
      name: 'x',
      mime: null,
      size: 1,
    }
    expect((await rejection(adapter.download(elsewhere, folder))).options.permanent).toBe(true)
  })

  it('a channel message is mentioned only when it names the bot, and a mention arrives once', async () => {
    const { seen } = await started()
    await fake.groupMessage(CHANNEL, bob, 'just chatting')
    const namedId = await fake.groupMessage(CHANNEL, bob, 'can you help?', { mention: true })
    await fake.groupMessage(CHANNEL, bob, 'thanks')
    const [plain, named, last] = await fake.waitFor(() => seen.messages.length >= 3 && seen.messages, 'three')
    expect(plain).toMatchObject({ chatId: CHANNEL, chatType: 'group', userId: bob.id, mentioned: false })
    expect(named).toMatchObject({ chatId: CHANNEL, chatType: 'group', messageId: namedId, mentioned: true })
    expect(named?.text).toContain('can you help?')
    expect(last).toMatchObject({ text: 'thanks', mentioned: false })
    // Slack sent the mention as `message` and as `app_mention`: the hub hears it once.
    expect(seen.messages.filter((m) => m.messageId === namedId)).toHaveLength(1)
  })

  it('a button press arrives as a ButtonPress and answerPress shows the notice', async () => {
    const { adapter, seen } = await started()
    const chat = await adapter.dmChat(alice.id)
    expect(chat).toBe(fake.dmChatOf(alice.id))
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

    // Without a notice there is nothing to show: Slack took the press when it was acked.
    const second = await fake.press(bob, chat, messageId, 'perm:allow:abcde')
    const again = await fake.waitFor(() => seen.presses[1], 'the second press')
    expect(again.pressId).toBe(second)
    await adapter.answerPress(again)
    expect(fake.pressAnswers).toHaveLength(1)
    // Every envelope (events and presses) was acked, so Slack will not send them again.
    await fake.waitFor(() => fake.unacked() === 0, 'every envelope acked')
  })

  it("the bot's own messages are not heard back", async () => {
    const { adapter, seen } = await started()
    const chat = fake.dmChatOf(alice.id)
    await adapter.send(chat, { text: 'from the bot' })
    await fake.dm(alice, 'from alice')
    await fake.waitFor(() => seen.messages.find((m) => m.text === 'from alice'), 'the DM')
    expect(seen.messages.map((m) => m.text)).toEqual(['from alice'])
  })
})

describe('Slack adapter: sending', () => {
  it('sends text with rows of buttons, and a reply in a thread', async () => {
    const { adapter } = await started()
    const chat = fake.dmChatOf(alice.id)
    const buttons = [
      [
        { text: 'Allow', data: 'perm:allow:abcde' },
        { text: 'Deny', data: 'perm:deny:abcde' },
      ],
      [{ text: 'See more', data: 'perm:more:abcde' }],
    ]
    const first = await adapter.send(chat, { text: '🔐 Permission: Bash', buttons })
    const second = await adapter.send(chat, { text: 'in the thread', replyTo: first })
    expect(fake.sent()).toEqual([
      {
        chatId: chat,
        messageId: first,
        userId: fake.botId,
        text: '🔐 Permission: Bash',
        buttons,
        replyTo: null,
        files: [],

        thread: null,
      },
      {
        chatId: chat,
        messageId: second,
        userId: fake.botId,
        text: 'in the thread',
        buttons: [],
        replyTo: first,
        files: [],

        thread: first,
      },
    ])
  })

  it('uploads files after the text, in three steps', async () => {
    const { adapter } = await started()
    const report = { name: 'report.txt', bytes: Buffer.from('all good\n') }
    const image = { name: 'chart.png', bytes: Buffer.alloc(2048, 7) }
    const id = await adapter.send(CHANNEL, { text: 'here you go', files: [report, image] })
    expect(fake.sent()).toEqual([
      expect.objectContaining({
        messageId: id,
        text: 'here you go',
        files: [
          { name: 'report.txt', size: 9 },
          { name: 'chart.png', size: 2048 },
        ],
      }),
    ])
  })

  it('edit replaces the text and removes the buttons', async () => {
    const { adapter } = await started()
    const chat = fake.dmChatOf(alice.id)
    const id = await adapter.send(chat, { text: 'Allow?', buttons: [[{ text: 'Allow', data: 'a' }]] })
    await adapter.edit(chat, id, 'Allowed by alice', [])
    expect(fake.sent()[0]).toMatchObject({ messageId: id, text: 'Allowed by alice', buttons: [] })
    expect(fake.edits).toEqual([
      { chatId: chat, messageId: id, text: 'Allowed by alice', buttons: [], at: expect.any(Number) },
    ])
    await adapter.edit(chat, id, 'Ask again?', [[{ text: 'Again', data: 'b' }]])
    expect(fake.sent()[0]?.buttons).toEqual([[{ text: 'Again', data: 'b' }]])
  })

  it('react names the emoji as Slack does, and a second same reaction is no failure', async () => {
    const { adapter, seen } = await started()
    const id = await fake.dm(alice, 'react to me')
    await fake.waitFor(() => seen.messages[0], 'the DM')
    const chat = fake.dmChatOf(alice.id)
    await adapter.react(chat, id, '👍')
    await adapter.react(chat, id, '✅')
    await adapter.react(chat, id, ':eyes:')
    await adapter.react(chat, id, '👍')
    expect(fake.reactions).toEqual([
      { chatId: chat, messageId: id, emoji: 'thumbsup' },
      { chatId: chat, messageId: id, emoji: 'white_check_mark' },
      { chatId: chat, messageId: id, emoji: 'eyes' },
    ])
  })

  it('typing makes no call: Slack has no typing indicator for bots', async () => {
    const { adapter } = await started()
    await adapter.typing(fake.dmChatOf(alice.id))
    expect(fake.typing).toEqual([])
  })

  it('history gives the latest messages, oldest first', async () => {
    const { adapter, seen } = await started()
    const chat = fake.dmChatOf(alice.id)
    const one = await fake.dm(alice, 'one')
    await fake.waitFor(() => seen.messages[0], 'the DM')
    const two = await adapter.send(chat, { text: 'two' })
    const three = await fake.dm(alice, 'three')
    const history = await adapter.history?.(chat, 2)
    expect(history).toEqual([
      { messageId: two, user: 'switchboard', text: 'two', ts: expect.any(String) },
      { messageId: three, user: 'alice', text: 'three', ts: expect.any(String) },
    ])
    expect((await adapter.history?.(chat, 10))?.map((m) => m.messageId)).toEqual([one, two, three])
  })
})

describe('Slack adapter: failures', () => {
  it('a 429 rejects with the retry-after, and the next call goes through', async () => {
    const { adapter } = await started()
    const chat = fake.dmChatOf(alice.id)
    fake.rateLimitNext(1, 7)
    const error = await rejection(adapter.send(chat, { text: 'too fast' }))
    expect(error.options).toEqual({ retryAfterMs: 7000 })
    await adapter.send(chat, { text: 'later' })
    expect(fake.sent().map((m) => m.text)).toEqual(['later'])
  })

  it('a chat Slack does not know is a permanent failure', async () => {
    const { adapter } = await started()
    const error = await rejection(adapter.send('nope', { text: 'hello?' }))
    expect(error.options.permanent).toBe(true)
    expect(error.message).toContain('channel_not_found')
  })

  it('an outage fails calls for now, and the socket comes back with what was sent meanwhile', async () => {
    const { adapter, seen } = await started()
    const chat = fake.dmChatOf(alice.id)
    fake.setDown(true)
    await fake.waitFor(() => seen.failures.length > 0, 'the drop reported')
    const error = await rejection(adapter.send(chat, { text: 'anyone?' }))
    expect(error.options.permanent).toBeFalsy()
    expect(error.options.retryAfterMs).toBeUndefined()
    const whileDown = await fake.dm(alice, 'sent while down')

    fake.setDown(false)
    await fake.waitFor(() => seen.connected >= 2 && fake.receivers() === 1, 'the reconnect', 20_000)
    await fake.waitFor(() => seen.messages.find((m) => m.messageId === whileDown), 'the DM sent while down')
    const after = await fake.dm(alice, 'back again')
    await fake.waitFor(() => seen.messages.find((m) => m.messageId === after), 'the DM after')
    await adapter.send(chat, { text: 'here' })
    expect(fake.sent().map((m) => m.text)).toEqual(['here'])
  })

  it("Slack's request to reconnect is followed at once and is no failure", async () => {
    const { seen } = await started()
    fake.requestReconnect()
    await fake.waitFor(() => seen.connected >= 2 && fake.receivers() === 1, 'the new socket')
    const id = await fake.dm(alice, 'still there?')
    await fake.waitFor(() => seen.messages.find((m) => m.messageId === id), 'the DM')
    expect(seen.failures).toEqual([])
  })

  it('a refused bot token rejects start with a clear message', async () => {
    const bot = adapterFor({ ...fake.credentials, token: 'xoxb-wrong' })
    const error = await rejection(bot.start())
    expect(error.message).toMatch(/^Slack refused the bot token \(invalid_auth\)/)
    expect(error.options.permanent).toBe(true)
    expect(fake.receivers()).toBe(0)
  })

  it('a refused app-level token rejects start with a clear message', async () => {
    const bot = adapterFor({ ...fake.credentials, appToken: 'xapp-wrong' })
    const error = await rejection(bot.start())
    expect(error.message).toMatch(/^Slack refused the app-level token \(invalid_auth\)/)
    expect(fake.receivers()).toBe(0)
  })

  it('stop closes the socket', async () => {
    const { adapter } = await started()
    expect(fake.receivers()).toBe(1)
    await adapter.stop()
    await fake.waitFor(() => fake.receivers() === 0, 'the socket closed')
  })

  it('stop during start leaves no socket open', async () => {
    const bot = adapterFor()
    const starting = bot.start()
    await bot.adapter.stop()
    await rejection(starting)
    expect(fake.receivers()).toBe(0)
  })
})

describe('Slack adapter: a thread’s history', () => {
  it('reads a thread’s latest messages under its parent, and the channel without them', async () => {
    const { adapter } = await started()
    const parent = await adapter.threads?.open(CHANNEL, 'app · fix the tests')
    if (!parent) throw new Error('no thread opened')
    const outside = await adapter.send(CHANNEL, { text: 'for the whole channel' })
    // More replies than one page of conversations.replies holds: the latest are on its last page.
    const sent = await Promise.all(
      Array.from({ length: 205 }, (_, i) => adapter.send(CHANNEL, { text: `step ${i}`, thread: parent })),
    )
    // Sent at once, they are in the thread in the order Slack took them: by their ts.
    const replies = [...sent].sort((a, b) => Number(a) - Number(b))
    const texts = (ids: string[]) => ids.map((id) => `step ${sent.indexOf(id)}`)

    const latest = await adapter.history?.(CHANNEL, 3, parent)
    expect(latest?.map((m) => m.messageId)).toEqual(replies.slice(-3))
    expect(latest?.map((m) => m.text)).toEqual(texts(replies.slice(-3)))
    const whole = await adapter.history?.(CHANNEL, 999, parent)
    expect(whole?.map((m) => m.messageId)).toEqual([parent, ...replies])

    expect((await adapter.history?.(CHANNEL, 10))?.map((m) => m.messageId)).toEqual([parent, outside])
  })
})
