// A fake Telegram Bot API on 127.0.0.1 for grammy to talk to: the routes a bridge uses, long polling
// with Telegram's offset and 409 rules, multipart uploads, file downloads, outages and 429s, and
// forum topics (a supergroup with topics on: a topic's id is the id of the message that made it).
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Button } from '../../src/sources/chat/platform.js'
import type { FakeAttachments, FakeMessage, FakePlatform, FakeThread, FakeUser } from './chat-platform.js'
import { pollFor } from './chat-platform.js'
import {
  CantParse,
  parseTelegramHtml,
  parseTelegramMarkdownV2,
  type TelegramEntity,
} from './telegram-markup.js'

const BOT = { id: 123456, is_bot: true, first_name: 'Switchboard Test', username: 'switchboard_test_bot' }
const MAX_BODY = 60 * 1024 * 1024
const LIMITED = new Set([
  'sendmessage',
  'sendphoto',
  'senddocument',
  'editmessagetext',
  'editmessagereplymarkup',
  'setmessagereaction',
])
// Telegram's reaction list (Bot API 7+); anything else is REACTION_INVALID.
const REACTIONS = new Set(
  '👍 👎 ❤ 🔥 🥰 👏 😁 🤔 🤯 😱 🤬 😢 🎉 🤩 🤮 💩 🙏 👌 🕊 🤡 🥱 🥴 😍 🐳 ❤‍🔥 🌚 🌭 💯 🤣 ⚡ 🍌 🏆 💔 🤨 😐 🍓 🍾 💋 🖕 😈 😴 😭 🤓 👻 👨‍💻 👀 🎃 🙈 😇 😨 🤝 ✍ 🤗 🫡 🎅 🎄 ☃ 💅 🤪 🗿 🆒 💘 🙉 🦄 😘 💊 🙊 😎 👾 🤷‍♂ 🤷 🤷‍♀ 😡'.split(
    ' ',
  ),
)

type Json = Record<string, unknown>
const HELD = Symbol('held')
type Body = { fields: Json; files: Map<string, { name: string; content: Buffer }> }

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Json,
  ) {
    super(description)
  }
}

interface Stored {
  chatId: string
  messageId: number
  chat: Json
  from: Json
  date: number
  text: string
  buttons: Button[][]
  replyTo: number | null
  files: { name: string; size: number }[]
  extra: Json
  /** What parse_mode made of the text: the text is what it shows, these its formatting. */
  entities: TelegramEntity[]
}

interface Waiter {
  res: ServerResponse
  offset: number
  limit: number
  timer: NodeJS.Timeout
}

/** The fake with what the Bot API was asked, for tests that check how a thing was sent. */
export interface FakeTelegram extends FakePlatform {
  /** Every Bot API method called with a valid token, in order, with its fields (file parts left out). */
  readonly calls: { method: string; fields: Record<string, unknown> }[]
  /** The formatting of a message as Telegram holds it (from parse_mode), on the text it shows. */
  entities(chatId: string, messageId: string): TelegramEntity[]
  /** The next `n` messages or edits with a parse_mode are refused as Telegram refuses bad markup. */
  refuseMarkupNext(n: number): void
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  // One token per fake: hubs of tests running at once must not share a bot (src/hub/bridges/bot-lock.ts).
  const TOKEN = `123456:TEST-${randomBytes(6).toString('hex')}`
  const updates: Json[] = []
  let nextUpdateId = 1
  const waiters = new Set<Waiter>()
  const chats = new Map<string, { chat: Json; nextId: number; messages: Map<number, Stored> }>()
  const botMessages: Stored[] = []
  const storedFiles = new Map<string, { path: string; content: Buffer }>()
  let nextFileId = 1
  const presses = new Set<string>()
  let nextPressId = 1
  let down = false
  let limited = { left: 0, seconds: 0 }
  let refuseMarkup = 0

  const calls: FakeTelegram['calls'] = []
  const edits: FakePlatform['edits'] = []
  const reactions: FakePlatform['reactions'] = []
  const typing: string[] = []
  const pressAnswers: FakePlatform['pressAnswers'] = []
  /** Forum topics by `<chat id>:<thread id>`. */
  const topics = new Map<string, FakeThread>()
  /** The keys of the topics people opened, not the bot. */
  const peopleTopics = new Set<string>()

  function topicOf(fields: Json): FakeThread {
    const thread = num(fields.message_thread_id)
    const topic = topics.get(`${String(fields.chat_id)}:${thread}`)
    if (!topic) throw new ApiError(400, 'Bad Request: message thread not found')
    return topic
  }

  function forum(chatId: string): Json {
    const entry = chats.get(chatId)
    if (!entry) throw new ApiError(400, 'Bad Request: chat not found')
    if (!entry.chat.is_forum) throw new ApiError(400, 'Bad Request: the chat is not a forum')
    return entry.chat
  }

  function chatOf(chatId: string, chat: Json) {
    let entry = chats.get(chatId)
    if (!entry) {
      entry = { chat, nextId: 1, messages: new Map() }
      chats.set(chatId, entry)
    }
    return entry
  }

  function store(chatId: string, from: Json, text: string, extra: Json = {}): Stored {
    const entry = chats.get(chatId)
    if (!entry) throw new ApiError(400, 'Bad Request: chat not found')
    const message: Stored = {
      chatId,
      messageId: entry.nextId++,
      chat: entry.chat,
      from,
      date: Math.floor(Date.now() / 1000),
      text,
      buttons: [],
      replyTo: null,
      files: [],
      extra,
      entities: [],
    }
    entry.messages.set(message.messageId, message)
    return message
  }

  function messageJson(m: Stored, withReply = true): Json {
    const json: Json = { message_id: m.messageId, date: m.date, chat: m.chat, from: m.from, ...m.extra }
    const textKey = m.extra.photo || m.extra.document || m.extra.voice ? 'caption' : 'text'
    if (m.text !== '') json[textKey] = m.text
    if (m.entities.length > 0) json[textKey === 'text' ? 'entities' : 'caption_entities'] = m.entities
    if (m.buttons.length > 0) {
      json.reply_markup = {
        inline_keyboard: m.buttons.map((row) => row.map((b) => ({ text: b.text, callback_data: b.data }))),
      }
    }
    const replied = m.replyTo === null ? undefined : chats.get(m.chatId)?.messages.get(m.replyTo)
    if (withReply && replied) json.reply_to_message = messageJson(replied, false)
    return json
  }

  function addFile(
    content: Buffer,
    folder: string,
    name: string,
  ): { file_id: string; file_unique_id: string } {
    const n = nextFileId++
    const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? ''
    const file_id = `FILE-${n}`
    storedFiles.set(file_id, { path: `${folder}/file_${n}${ext}`, content })
    return { file_id, file_unique_id: `U${n}` }
  }

  function pushUpdate(update: Json): void {
    updates.push({ update_id: nextUpdateId++, ...update })
    for (const waiter of [...waiters]) {
      const ready = pending(waiter.offset, waiter.limit)
      if (ready.length > 0) finishWaiter(waiter, 200, { ok: true, result: ready })
    }
  }

  function pending(offset: number, limit: number): Json[] {
    return updates.filter((u) => (u.update_id as number) >= offset).slice(0, limit)
  }

  function finishWaiter(waiter: Waiter, status: number, body: Json): void {
    waiters.delete(waiter)
    clearTimeout(waiter.timer)
    reply(waiter.res, status, body)
  }

  function personJson(user: FakeUser): Json {
    const from: Json = { id: Number(user.id), is_bot: false, first_name: user.name }
    if (/^\w+$/.test(user.name)) from.username = user.name
    return from
  }

  // --- The Bot API methods -------------------------------------------------------------------------

  async function getUpdates(body: Body, res: ServerResponse): Promise<unknown> {
    const offset = num(body.fields.offset) ?? 0
    const limit = num(body.fields.limit) ?? 100
    const timeout = num(body.fields.timeout) ?? 0
    // Telegram keeps one getUpdates per bot; a second one while another waits is a conflict. A
    // client that stops aborts its long poll and asks once more at once: give the abort time to
    // arrive, so that it is not taken for a second poller.
    if (waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, 50))
    if (waiters.size > 0) {
      throw new ApiError(
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      )
    }
    // An offset confirms every update before it: Telegram forgets them.
    if (offset > 0) {
      while (updates.length > 0 && (updates[0]?.update_id as number) < offset) updates.shift()
    } else if (offset < 0) {
      updates.splice(0, Math.max(0, updates.length + offset))
    }
    const from = offset < 0 ? ((updates[0]?.update_id as number | undefined) ?? 0) : offset
    const ready = pending(from, limit)
    if (ready.length > 0 || timeout <= 0) return ready
    const waiter: Waiter = {
      res,
      offset: from,
      limit,
      timer: setTimeout(() => finishWaiter(waiter, 200, { ok: true, result: [] }), timeout * 1000),
    }
    waiters.add(waiter)
    res.on('close', () => {
      if (!waiters.has(waiter)) return
      waiters.delete(waiter)
      clearTimeout(waiter.timer)
    })
    return HELD
  }

  function targetOf(fields: Json, needBot = true): Stored {
    const chatId = String(fields.chat_id)
    const message = chats.get(chatId)?.messages.get(num(fields.message_id) ?? -1)
    if (!message) throw new ApiError(400, 'Bad Request: message to edit not found')
    if (needBot && message.from.id !== BOT.id) throw new ApiError(400, "Bad Request: message can't be edited")
    return message
  }

  function buttonsOf(markup: unknown): Button[][] {
    const rows = (
      json(markup) as { inline_keyboard?: { text: string; callback_data?: string }[][] } | undefined
    )?.inline_keyboard
    return (rows ?? []).map((row) =>
      row.map((b) => {
        if (Buffer.byteLength(b.callback_data ?? '') > 64)
          throw new ApiError(400, 'Bad Request: BUTTON_DATA_INVALID')
        return { text: b.text, data: b.callback_data ?? '' }
      }),
    )
  }

  /** The text as parse_mode reads it: a 400 where Telegram cannot parse it; its limit is on what it shows. */
  function parsed(fields: Json, raw: string): { text: string; entities: TelegramEntity[] } {
    const mode = fields.parse_mode
    let result: { text: string; entities: TelegramEntity[] } = { text: raw, entities: [] }
    if (mode !== undefined) {
      if (refuseMarkup > 0) {
        refuseMarkup--
        throw new ApiError(
          400,
          'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0',
        )
      }
      try {
        if (mode === 'HTML') result = parseTelegramHtml(raw)
        else if (mode === 'MarkdownV2') result = parseTelegramMarkdownV2(raw)
        else throw new ApiError(400, `Bad Request: unsupported parse_mode "${String(mode)}"`)
      } catch (error) {
        if (error instanceof CantParse)
          throw new ApiError(400, `Bad Request: can't parse entities: ${error.message}`)
        throw error
      }
    }
    if (result.text.length > 4096) throw new ApiError(400, 'Bad Request: message is too long')
    return result
  }

  function send(fields: Json, raw: string, extra: Json, files: { name: string; size: number }[]): Json {
    const chatId = String(fields.chat_id)
    const { text, entities } = parsed(fields, raw)
    const buttons = buttonsOf(fields.reply_markup)
    const replyParameters = json(fields.reply_parameters) as
      | { message_id?: number; allow_sending_without_reply?: boolean }
      | undefined
    let replyTo: number | null = null
    if (replyParameters?.message_id !== undefined) {
      const exists = chats.get(chatId)?.messages.has(replyParameters.message_id)
      if (exists) replyTo = replyParameters.message_id
      else if (!replyParameters.allow_sending_without_reply) {
        throw new ApiError(400, 'Bad Request: message to be replied not found')
      }
    }
    const inTopic =
      fields.message_thread_id === undefined
        ? {}
        : { message_thread_id: Number(topicOf(fields).thread), is_topic_message: true }
    const message = store(chatId, BOT, text, { ...extra, ...inTopic })
    message.entities = entities
    message.buttons = buttons
    message.replyTo = replyTo
    message.files = files
    botMessages.push(message)
    return messageJson(message)
  }

  function upload(body: Body, field: 'photo' | 'document'): { name: string; content: Buffer } {
    const value = String(body.fields[field] ?? '')
    const attached = value.startsWith('attach://')
      ? body.files.get(value.slice('attach://'.length))
      : undefined
    if (attached) return attached
    const known = storedFiles.get(value)
    if (known) return { name: known.path.split('/').pop() ?? value, content: known.content }
    throw new ApiError(400, `Bad Request: there is no ${field} in the request`)
  }

  function sendFile(body: Body, field: 'photo' | 'document'): Json {
    const file = upload(body, field)
    const ids = addFile(file.content, field === 'photo' ? 'photos' : 'documents', file.name)
    const size = file.content.length
    const extra: Json =
      field === 'photo'
        ? { photo: [{ ...ids, width: 800, height: 600, file_size: size }] }
        : {
            document: {
              ...ids,
              file_name: file.name,
              mime_type: 'application/octet-stream',
              file_size: size,
            },
          }
    return send(body.fields, String(body.fields.caption ?? ''), extra, [{ name: file.name, size }])
  }

  /** The method's result, or HELD when the answer comes later (a long poll). */
  async function call(method: string, body: Body, res: ServerResponse): Promise<unknown> {
    const f = body.fields
    if (LIMITED.has(method) && limited.left > 0) {
      limited.left--
      const s = limited.seconds
      throw new ApiError(429, `Too Many Requests: retry after ${s}`, { retry_after: s })
    }
    switch (method) {
      case 'getme':
        return {
          ...BOT,
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        }
      case 'deletewebhook':
        return true
      case 'getupdates':
        return getUpdates(body, res)
      case 'sendmessage': {
        const text = String(f.text ?? '')
        if (text.trim() === '') throw new ApiError(400, 'Bad Request: message text is empty')
        return send(f, text, {}, [])
      }
      case 'sendphoto':
        return sendFile(body, 'photo')
      case 'senddocument':
        return sendFile(body, 'document')
      case 'editmessagetext':
      case 'editmessagereplymarkup': {
        const message = targetOf(f)
        const { text, entities } = method === 'editmessagetext' ? parsed(f, String(f.text ?? '')) : message
        const buttons = buttonsOf(f.reply_markup)
        const same = JSON.stringify(entities) === JSON.stringify(message.entities)
        if (text === message.text && same && JSON.stringify(buttons) === JSON.stringify(message.buttons)) {
          throw new ApiError(
            400,
            'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
          )
        }
        message.text = text
        message.entities = entities
        message.buttons = buttons
        edits.push({
          chatId: message.chatId,
          messageId: String(message.messageId),
          text,
          buttons,
          at: Date.now(),
        })
        return messageJson(message)
      }
      case 'setmessagereaction': {
        const message = targetOf(f, false)
        const given = (json(f.reaction) as { type: string; emoji?: string }[] | undefined) ?? []
        for (const r of given) {
          if (r.type !== 'emoji' || !REACTIONS.has(r.emoji ?? ''))
            throw new ApiError(400, 'Bad Request: REACTION_INVALID')
        }
        for (const r of given) {
          reactions.push({
            chatId: message.chatId,
            messageId: String(message.messageId),
            emoji: r.emoji ?? '',
          })
        }
        return true
      }
      case 'sendchataction': {
        const chatId = String(f.chat_id)
        if (!chats.has(chatId)) throw new ApiError(400, 'Bad Request: chat not found')
        if (f.action === 'typing') typing.push(chatId)
        return true
      }
      case 'createforumtopic': {
        const chat = forum(String(f.chat_id))
        const name = String(f.name ?? '')
        if (name.length < 1 || name.length > 128) throw new ApiError(400, 'Bad Request: TOPIC_NAME_INVALID')
        const made = store(String(chat.id), BOT, '', { forum_topic_created: { name, icon_color: 7322096 } })
        const thread = String(made.messageId)
        made.extra = { ...made.extra, message_thread_id: made.messageId, is_topic_message: true }
        topics.set(`${chat.id}:${thread}`, { chatId: String(chat.id), thread, title: name, closed: false })
        return { message_thread_id: made.messageId, name, icon_color: 7322096 }
      }
      case 'editforumtopic': {
        const topic = topicOf(f)
        if (typeof f.name === 'string') topic.title = f.name
        return true
      }
      case 'closeforumtopic':
      case 'reopenforumtopic': {
        const topic = topicOf(f)
        const closing = method === 'closeforumtopic'
        if (topic.closed === closing) throw new ApiError(400, 'Bad Request: TOPIC_NOT_MODIFIED')
        topic.closed = closing
        return true
      }
      case 'answercallbackquery': {
        const id = String(f.callback_query_id ?? '')
        if (!presses.delete(id)) {
          throw new ApiError(
            400,
            'Bad Request: query is too old and response timeout expired or query ID is invalid',
          )
        }
        pressAnswers.push({ pressId: id, notice: typeof f.text === 'string' ? f.text : null })
        return true
      }
      case 'getfile': {
        const id = String(f.file_id ?? '')
        const file = storedFiles.get(id)
        if (!file) throw new ApiError(400, 'Bad Request: invalid file_id')
        return {
          file_id: id,
          file_unique_id: `U${id}`,
          file_size: file.content.length,
          file_path: file.path,
        }
      }
      default:
        throw new ApiError(404, 'Not Found: method not found')
    }
  }

  // --- HTTP ----------------------------------------------------------------------------------------

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof ApiError) {
        const body: Json = { ok: false, error_code: error.code, description: error.description }
        if (error.parameters) body.parameters = error.parameters
        return reply(res, error.code, body)
      }
      reply(res, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` })
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake')
    const raw = await readBody(req)
    if (down) throw new ApiError(502, 'Bad Gateway')
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname)
    if (file && req.method === 'GET') {
      if (file[1] !== TOKEN) throw new ApiError(401, 'Unauthorized')
      const stored = [...storedFiles.values()].find((s) => s.path === decodeURIComponent(file[2] ?? ''))
      if (!stored) throw new ApiError(404, 'Not Found')
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': stored.content.length,
      })
      res.end(stored.content)
      return
    }
    const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname)
    if (!route) throw new ApiError(404, 'Not Found')
    if (route[1] !== TOKEN) throw new ApiError(401, 'Unauthorized')
    const body = parseBody(req.headers['content-type'] ?? '', raw)
    for (const [k, v] of url.searchParams) body.fields[k] ??= v
    calls.push({ method: route[2] ?? '', fields: body.fields })
    const result = await call((route[2] ?? '').toLowerCase(), body, res)
    if (result !== HELD) reply(res, 200, { ok: true, result })
  }

  /** A message's files as Telegram gives them: a photo in several sizes, a document, a voice note. */
  function attachmentsJson(options: FakeAttachments): Json {
    const extra: Json = {}
    if (options.photo) {
      const thumb = addFile(options.photo.content.subarray(0, 16), 'photos', 'thumb.jpg')
      const full = addFile(options.photo.content, 'photos', options.photo.name)
      const size = options.photo.content.length
      extra.photo = [
        { ...thumb, width: 90, height: 68, file_size: Math.min(16, size) },
        { ...full, width: 1280, height: 960, file_size: size },
      ]
    }
    if (options.document) {
      const ids = addFile(options.document.content, 'documents', options.document.name)
      extra.document = {
        ...ids,
        file_name: options.document.name,
        mime_type: options.document.mime,
        file_size: options.document.content.length,
      }
    }
    if (options.voice) {
      const ids = addFile(options.voice.content, 'voice', options.voice.name)
      extra.voice = {
        ...ids,
        duration: 3,
        mime_type: options.voice.mime,
        file_size: options.voice.content.length,
      }
    }
    return extra
  }

  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port

  return {
    platform: 'telegram',
    credentials: { token: TOKEN, apiUrl: `http://127.0.0.1:${port}` },
    botId: String(BOT.id),
    calls,
    edits,
    reactions,
    typing,
    pressAnswers,

    async dm(user: FakeUser, text: string, options: FakeAttachments = {}) {
      const from = personJson(user)
      chatOf(user.id, { id: Number(user.id), type: 'private', ...withoutBot(from) })
      const extra: Json = attachmentsJson(options)
      const message = store(user.id, from, text, extra)
      pushUpdate({ message: messageJson(message) })
      return String(message.messageId)
    },

    async groupMessage(
      chatId: string,
      user: FakeUser,
      text: string,
      options: { mention?: boolean; thread?: string } & FakeAttachments = {},
    ) {
      chatOf(chatId, { id: Number(chatId), type: 'supergroup', title: `Group ${chatId}` })
      const handle = `@${BOT.username}`
      const full = options.mention ? `${handle} ${text}` : text
      const extra: Json = attachmentsJson(options)
      // Under a file the words are its caption, and their entities the caption's.
      if (options.mention)
        extra[extra.photo || extra.document || extra.voice ? 'caption_entities' : 'entities'] = [
          { type: 'mention', offset: 0, length: handle.length },
        ]
      if (options.thread !== undefined) {
        const topic = topicOf({ chat_id: chatId, message_thread_id: options.thread })
        // Telegram's way: a message in a topic answers the message that made the topic.
        Object.assign(extra, {
          message_thread_id: Number(topic.thread),
          is_topic_message: true,
          reply_to_message: messageJson(
            chats.get(chatId)?.messages.get(Number(topic.thread)) as Stored,
            false,
          ),
        })
      }
      const message = store(chatId, personJson(user), full, extra)
      pushUpdate({ message: messageJson(message) })
      return String(message.messageId)
    },

    async press(user: FakeUser, chatId: string, messageId: string, data: string) {
      const message = chats.get(chatId)?.messages.get(Number(messageId))
      if (!message) throw new Error(`no message ${messageId} in chat ${chatId}`)
      const id = `PRESS-${nextPressId++}`
      presses.add(id)
      pushUpdate({
        callback_query: {
          id,
          from: personJson(user),
          chat_instance: `instance-${chatId}`,
          message: messageJson(message),
          data,
        },
      })
      return id
    },

    dmChatOf: (userId: string) => userId,

    addGroup(chatId: string) {
      chatOf(chatId, { id: Number(chatId), type: 'supergroup', title: `Group ${chatId}`, is_forum: true })
    },

    threads: () => [...topics.entries()].filter(([key]) => !peopleTopics.has(key)).map(([, t]) => ({ ...t })),

    async openThread(chatId: string, user: FakeUser, title: string) {
      forum(chatId)
      const made = store(chatId, personJson(user), '', {
        forum_topic_created: { name: title, icon_color: 7322096 },
      })
      made.extra = { ...made.extra, message_thread_id: made.messageId, is_topic_message: true }
      const thread = String(made.messageId)
      topics.set(`${chatId}:${thread}`, { chatId, thread, title, closed: false })
      peopleTopics.add(`${chatId}:${thread}`)
      // Telegram tells the bot of a topic a person made as a service message from them.
      pushUpdate({ message: messageJson(made) })
      return thread
    },

    entities(chatId: string, messageId: string) {
      return chats.get(chatId)?.messages.get(Number(messageId))?.entities ?? []
    },

    refuseMarkupNext(n: number) {
      refuseMarkup = n
    },

    sent(): FakeMessage[] {
      return botMessages.map((m) => ({
        chatId: m.chatId,
        messageId: String(m.messageId),
        userId: String(BOT.id),
        text: m.text,
        buttons: m.buttons,
        replyTo: m.replyTo === null ? null : String(m.replyTo),
        files: m.files,
        thread: m.extra.is_topic_message ? String(m.extra.message_thread_id) : null,
      }))
    },

    receivers: () => waiters.size,

    setDown(value: boolean) {
      down = value
      if (!value) return
      for (const waiter of [...waiters]) {
        finishWaiter(waiter, 502, { ok: false, error_code: 502, description: 'Bad Gateway' })
      }
    },

    rateLimitNext(n: number, retryAfterSeconds: number) {
      limited = { left: n, seconds: retryAfterSeconds }
    },

    waitFor<T>(probe: () => T | undefined | false | null, what: string, timeoutMs?: number): Promise<T> {
      return pollFor('Telegram', probe, what, timeoutMs)
    },

    async close() {
      for (const waiter of [...waiters]) finishWaiter(waiter, 200, { ok: true, result: [] })
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}

function withoutBot(from: Json): Json {
  const { is_bot: _, ...rest } = from
  return rest
}

function reply(res: ServerResponse, status: number, body: Json): void {
  if (res.writableEnded || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new ApiError(413, 'Request Entity Too Large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

function parseBody(contentType: string, raw: Buffer): Body {
  const files: Body['files'] = new Map()
  if (raw.length === 0) return { fields: {}, files }
  if (contentType.startsWith('application/json'))
    return { fields: JSON.parse(raw.toString('utf8')) as Json, files }
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    return { fields: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))), files }
  }
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (contentType.startsWith('multipart/form-data') && boundary) {
    return parseMultipart(raw, boundary[1] ?? boundary[2] ?? '')
  }
  throw new ApiError(400, `Bad Request: unsupported content type ${contentType}`)
}

/** multipart/form-data as grammy writes it (`content-disposition:form-data;name="x";filename=y`). */
function parseMultipart(raw: Buffer, boundary: string): Body {
  const fields: Json = {}
  const files: Body['files'] = new Map()
  const first = Buffer.from(`--${boundary}`)
  const between = Buffer.from(`\r\n--${boundary}`)
  let start = raw.indexOf(first)
  if (start === -1) throw new ApiError(400, 'Bad Request: malformed multipart body')
  start += first.length
  for (;;) {
    if (raw.subarray(start, start + 2).toString() === '--') break
    if (raw.subarray(start, start + 2).toString() === '\r\n') start += 2
    const end = raw.indexOf(between, start)
    if (end === -1) throw new ApiError(400, 'Bad Request: malformed multipart body')
    const part = raw.subarray(start, end)
    const headerEnd = part.indexOf('\r\n\r\n')
    const headers = part.subarray(0, headerEnd).toString('utf8')
    const content = part.subarray(headerEnd + 4)
    const name = /;\s*name=(?:"([^"]*)"|([^;\r\n]*))/i.exec(headers)
    const filename = /;\s*filename=(?:"([^"]*)"|([^;\r\n]*))/i.exec(headers)
    const key = name?.[1] ?? name?.[2] ?? ''
    if (filename) files.set(key, { name: filename[1] ?? filename[2] ?? '', content: Buffer.from(content) })
    else fields[key] = content.toString('utf8')
    start = end + between.length
  }
  return { fields, files }
}

/** Nested objects come as JSON strings in form and multipart bodies. */
function json(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return undefined
  }
}

function num(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}
