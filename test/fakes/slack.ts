// A fake Slack for the Slack bridge's tests: one HTTP server on 127.0.0.1 serving the Web API at
// /api/<method> and a Socket Mode WebSocket, which @slack/bolt's real App talks to. It delivers events
// and button presses in envelopes, redelivers what is not acked (as Slack does), holds the bot's
// messages, edits, reactions and files, and can be taken down or rate-limited.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import type { Button } from '../../src/sources/chat/platform.js'
import type {
  FakeAttachments,
  FakeFile,
  FakeMessage,
  FakePlatform,
  FakeThread,
  FakeUser,
} from './chat-platform.js'
import { pollFor } from './chat-platform.js'

const BOT_USER = 'U0BOT00001'
const BOT_ID = 'B0BOT00001'
const BOT_NAME = 'switchboard'
const TEAM = 'T0TEAM0001'
const APP_ID = 'A0APP00001'
/** Slack redelivers an envelope that is not acked within a few seconds. */
const REDELIVER_MS = 3_000
/** The calls `rateLimitNext` applies to: the ones that send, edit or react. */
const LIMITED = new Set(['chat.postMessage', 'chat.update', 'reactions.add'])
/** Ids Slack would know as channels; anything else is channel_not_found. */
const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/

type Json = Record<string, unknown>

interface Stored extends FakeMessage {
  blocks: Json[]
  botMessage: boolean
  reactions: Set<string>
}

interface Envelope {
  id: string
  type: 'events_api' | 'interactive'
  payload: Json
  attempt: number
  timer: NodeJS.Timeout | undefined
}

interface Press {
  pressId: string
  userId: string
  chatId: string
  answered: boolean
}

interface FileBlob {
  name: string
  mime: string
  content: Buffer
}

class ApiError extends Error {}

/** What only Slack does, beside what every fake platform does. */
export interface FakeSlack extends FakePlatform {
  /** Sends every socket Slack's `disconnect` envelope (`refresh_requested`), as before a server is recycled. */
  requestReconnect(): void
  /** Envelopes delivered (or waiting to be) that the client has not acked yet. */
  unacked(): number
}

export async function startFakeSlack(): Promise<FakeSlack> {
  const fake = new FakeSlackServer()
  await fake.listen()
  return fake
}

class FakeSlackServer implements FakeSlack {
  readonly platform = 'slack' as const
  readonly botId = BOT_USER
  readonly edits: FakePlatform['edits'] = []
  readonly reactions: FakePlatform['reactions'] = []
  /** Slack has no typing indicator for bots: nothing is ever recorded here. */
  readonly typing: string[] = []
  readonly pressAnswers: FakePlatform['pressAnswers'] = []
  // One pair of tokens per fake: hubs of tests running at once must not share a bot (src/hub/bridges/bot-lock.ts).
  private readonly botToken = `xoxb-test-${randomBytes(6).toString('hex')}`
  private readonly appToken = `xapp-test-${randomBytes(6).toString('hex')}`

  private readonly server: Server = createServer((req, res) => void this.handle(req, res))
  private readonly wss = new WebSocketServer({ noServer: true })
  private port = 0
  private down = false
  private rateLimit = { left: 0, seconds: 1 }
  private refuseMarkup = 0
  private counter = 100
  private readonly users = new Map<string, FakeUser>()
  private readonly dms = new Map<string, string>()
  private readonly channels = new Map<string, Stored[]>()
  private readonly botMessages: Stored[] = []
  private readonly files = new Map<string, FileBlob>()
  private readonly uploads = new Map<string, { name: string; content: Buffer | null }>()
  private readonly presses: Press[] = []
  private readonly tickets = new Set<string>()
  /** Sockets that were sent hello and are open, oldest first: envelopes go to the newest. */
  private readonly sockets: WebSocket[] = []
  private readonly pending = new Map<string, Envelope>()

  get credentials() {
    return { token: this.botToken, appToken: this.appToken, apiUrl: `${this.base}/api/` }
  }

  private get base(): string {
    return `http://127.0.0.1:${this.port}`
  }

  async listen(): Promise<void> {
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head))
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    const address = this.server.address()
    this.port = typeof address === 'object' && address ? address.port : 0
  }

  // ---- what a test does as the people on Slack ----

  async dm(user: FakeUser, text: string, options: FakeAttachments = {}): Promise<string> {
    this.users.set(user.id, user)
    const channel = this.dmChatOf(user.id)
    const attached = [options.photo, options.document].filter((file): file is FakeFile => Boolean(file))
    const files = attached.map((file) => this.hostFile(file))
    // An audio clip recorded in Slack: a file of subtype slack_audio, shown as audio.
    if (options.voice) {
      attached.push(options.voice)
      files.push({ ...this.hostFile(options.voice), subtype: 'slack_audio', media_display_type: 'audio' })
    }
    const message = this.store(channel, user.id, text, { files: attached })
    this.sendEvent({
      type: 'message',
      ...(files.length > 0 ? { subtype: 'file_share', files, upload: false } : {}),
      channel,
      channel_type: 'im',
      user: user.id,
      text,
      ts: message.messageId,
      event_ts: message.messageId,
      team: TEAM,
      client_msg_id: randomBytes(8).toString('hex'),
    })
    return message.messageId
  }

  async groupMessage(
    chatId: string,
    user: FakeUser,
    text: string,
    options: { mention?: boolean; thread?: string } = {},
  ) {
    this.users.set(user.id, user)
    const said = options.mention ? `<@${BOT_USER}> ${text}` : text
    const parent = options.thread === undefined ? undefined : this.find(chatId, options.thread)
    if (options.thread !== undefined && !parent) throw new Error(`fake Slack: no thread ${options.thread}`)
    const message = this.store(chatId, user.id, said, { replyTo: options.thread ?? null })
    const event = {
      channel: chatId,
      user: user.id,
      text: said,
      ts: message.messageId,
      team: TEAM,
      ...(parent ? { thread_ts: parent.messageId, parent_user_id: parent.userId } : {}),
    }
    this.sendEvent({
      type: 'message',
      ...event,
      channel_type: channelType(chatId),
      event_ts: message.messageId,
    })
    // Slack sends a mention twice: as the message and as an app_mention.
    if (options.mention) this.sendEvent({ type: 'app_mention', ...event, event_ts: message.messageId })
    return message.messageId
  }

  async press(user: FakeUser, chatId: string, messageId: string, data: string): Promise<string> {
    this.users.set(user.id, user)
    const message = this.find(chatId, messageId)
    if (!message) throw new Error(`fake Slack: no message ${messageId} in ${chatId}`)
    const found = findButton(message.blocks, data)
    if (!found) throw new Error(`fake Slack: message ${messageId} has no button with value ${data}`)
    const pressId = `${this.counter++}.${randomBytes(4).readUInt32BE()}.${randomBytes(16).toString('hex')}`
    this.presses.push({ pressId, userId: user.id, chatId, answered: false })
    const actionTs = this.nextTs()
    this.sendEnvelope('interactive', {
      type: 'block_actions',
      user: { id: user.id, username: user.name, name: user.name, team_id: TEAM },
      api_app_id: APP_ID,
      token: 'verification-token',
      container: { type: 'message', message_ts: messageId, channel_id: chatId, is_ephemeral: false },
      trigger_id: pressId,
      team: { id: TEAM, domain: 'fake' },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: chatId, name: chatId.startsWith('D') ? 'directmessage' : chatId.toLowerCase() },
      message: {
        type: 'message',
        user: message.userId,
        ts: messageId,
        bot_id: message.botMessage ? BOT_ID : undefined,
        text: message.text,
        blocks: message.blocks,
      },
      state: { values: {} },
      response_url: `${this.base}/actions/${pressId}`,
      actions: [
        {
          type: 'button',
          action_id: found.actionId,
          block_id: found.blockId,
          text: { type: 'plain_text', text: found.text, emoji: true },
          value: data,
          action_ts: actionTs,
        },
      ],
    })
    return pressId
  }

  dmChatOf(userId: string): string {
    let channel = this.dms.get(userId)
    if (!channel) {
      channel = `D${String(this.dms.size + 1).padStart(9, '0')}`
      this.dms.set(userId, channel)
    }
    return channel
  }

  /** Any channel id Slack would know is one the bot is in. */
  addGroup(_chatId: string): void {}

  // ---- what a test reads ----

  sent(): FakeMessage[] {
    return this.botMessages.map((m) => ({
      chatId: m.chatId,
      messageId: m.messageId,
      userId: m.userId,
      text: m.text,
      buttons: m.buttons.map((row) => row.map((b) => ({ ...b }))),
      replyTo: m.replyTo,
      files: m.files.map((f) => ({ ...f })),
      thread: m.replyTo,
    }))
  }

  /** A person's message in the channel, which replies go under: a thread of theirs. */
  openThread(chatId: string, user: FakeUser, title: string): Promise<string> {
    return this.groupMessage(chatId, user, title)
  }

  /** A Slack thread is the replies under a message: here, the bot's messages in a channel that have some. */
  threads(): FakeThread[] {
    return this.botMessages
      .filter((m) => !m.replyTo && !m.chatId.startsWith('D'))
      .filter((m) => this.channels.get(m.chatId)?.some((r) => r.replyTo === m.messageId))
      .map((m) => ({ chatId: m.chatId, thread: m.messageId, title: m.text, closed: false }))
  }

  receivers(): number {
    return this.sockets.filter((socket) => socket.readyState === socket.OPEN).length
  }

  setDown(down: boolean): void {
    this.down = down
    if (!down) return
    // An outage: connections drop without a goodbye; what was not acked comes again later.
    for (const socket of this.sockets.splice(0)) socket.terminate()
    this.server.closeIdleConnections()
  }

  unacked(): number {
    return this.pending.size
  }

  requestReconnect(): void {
    const frame = JSON.stringify({
      type: 'disconnect',
      reason: 'refresh_requested',
      debug_info: { host: 'fake-slack' },
    })
    for (const socket of this.sockets) socket.send(frame)
  }

  rateLimitNext(n: number, retryAfterSeconds: number): void {
    this.rateLimit = { left: n, seconds: retryAfterSeconds }
  }

  refuseMarkupNext(n: number): void {
    this.refuseMarkup = n
  }

  /** As Slack: a section holds at most 3000 characters, and a refusal the test asked for. */
  private checkBlocks(blocks: Json[]): void {
    if (this.refuseMarkup > 0) {
      this.refuseMarkup--
      throw new ApiError('invalid_blocks')
    }
    for (const block of blocks) {
      const text = (block.text as { text?: unknown } | undefined)?.text
      if (typeof text === 'string' && text.length > 3000) throw new ApiError('invalid_blocks')
    }
  }

  waitFor<T>(probe: () => T | undefined | false | null, what: string, timeoutMs?: number): Promise<T> {
    return pollFor('Slack', probe, what, timeoutMs)
  }

  async close(): Promise<void> {
    for (const envelope of this.pending.values()) clearTimeout(envelope.timer)
    this.pending.clear()
    for (const socket of this.sockets.splice(0)) socket.terminate()
    for (const socket of this.wss.clients) socket.terminate()
    this.wss.close()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  // ---- messages and files as Slack holds them ----

  private nextTs(): string {
    const n = this.counter++
    return `${1_700_000_000 + Math.floor(n / 1_000_000)}.${String(n % 1_000_000).padStart(6, '0')}`
  }

  private store(
    chatId: string,
    userId: string,
    text: string,
    extra: { blocks?: Json[]; replyTo?: string | null; files?: FakeFile[]; bot?: boolean } = {},
  ): Stored {
    const blocks = extra.blocks ?? []
    const message: Stored = {
      chatId,
      messageId: this.nextTs(),
      userId,
      text,
      buttons: buttonsOf(blocks),
      replyTo: extra.replyTo ?? null,
      files: (extra.files ?? []).map((f) => ({ name: f.name, size: f.content.length })),
      blocks,
      botMessage: extra.bot ?? false,
      reactions: new Set(),
    }
    const list = this.channels.get(chatId) ?? []
    list.push(message)
    this.channels.set(chatId, list)
    if (message.botMessage) this.botMessages.push(message)
    return message
  }

  /** A message as conversations.history and conversations.replies list it. */
  private asListed(m: Stored): Json {
    const replies = (this.channels.get(m.chatId) ?? []).filter((r) => r.replyTo === m.messageId)
    return {
      type: 'message',
      user: m.userId,
      ...(m.botMessage ? { bot_id: BOT_ID } : {}),
      text: m.text,
      ts: m.messageId,
      ...(m.replyTo ? { thread_ts: m.replyTo, parent_user_id: this.find(m.chatId, m.replyTo)?.userId } : {}),
      ...(replies.length > 0 ? { thread_ts: m.messageId, reply_count: replies.length } : {}),
    }
  }

  private find(chatId: string, ts: string): Stored | undefined {
    return this.channels.get(chatId)?.find((m) => m.messageId === ts)
  }

  private hostFile(file: FakeFile): Json {
    const id = `F${String(this.files.size + 1).padStart(9, '0')}`
    this.files.set(id, { name: file.name, mime: file.mime, content: file.content })
    const url = `${this.base}/files/${id}/${encodeURIComponent(file.name)}`
    return {
      id,
      name: file.name,
      title: file.name,
      mimetype: file.mime,
      filetype: file.name.split('.').pop() ?? 'binary',
      size: file.content.length,
      mode: 'hosted',
      url_private: url,
      url_private_download: `${url}?download=1`,
    }
  }

  private knownChannel(id: string): boolean {
    return CHANNEL_ID.test(id) || [...this.dms.values()].includes(id)
  }

  // ---- Socket Mode ----

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', this.base)
    const ticket = url.searchParams.get('ticket') ?? ''
    if (this.down || url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
      socket.end(
        `HTTP/1.1 ${this.down ? '503 Service Unavailable' : '401 Unauthorized'}\r\nConnection: close\r\n\r\n`,
      )
      return
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws))
  }

  private connected(ws: WebSocket): void {
    ws.on('error', () => {})
    ws.on('message', (data) => this.onSocketMessage(String(data)))
    ws.on('close', () => {
      const at = this.sockets.indexOf(ws)
      if (at >= 0) this.sockets.splice(at, 1)
    })
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.sockets.length + 1,
        debug_info: { host: 'fake-slack', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: APP_ID },
      }),
    )
    this.sockets.push(ws)
    // What waited for a connection (sent while down, or never acked) goes out now.
    for (const envelope of this.pending.values()) {
      if (!envelope.timer) this.deliver(envelope)
    }
  }

  private onSocketMessage(data: string): void {
    let message: { envelope_id?: unknown }
    try {
      message = JSON.parse(data) as { envelope_id?: unknown }
    } catch {
      return
    }
    if (typeof message.envelope_id !== 'string') return
    const envelope = this.pending.get(message.envelope_id)
    if (!envelope) return
    clearTimeout(envelope.timer)
    this.pending.delete(envelope.id)
  }

  private sendEvent(event: Json): void {
    this.sendEnvelope('events_api', {
      token: 'verification-token',
      team_id: TEAM,
      api_app_id: APP_ID,
      event,
      type: 'event_callback',
      event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: TEAM, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
    })
  }

  private sendEnvelope(type: Envelope['type'], payload: Json): void {
    const envelope: Envelope = {
      id: randomBytes(12).toString('hex'),
      type,
      payload,
      attempt: 0,
      timer: undefined,
    }
    this.pending.set(envelope.id, envelope)
    this.deliver(envelope)
  }

  /** To the newest connection; with none, the envelope waits for the next hello. */
  private deliver(envelope: Envelope): void {
    clearTimeout(envelope.timer)
    envelope.timer = undefined
    const socket = this.sockets.at(-1)
    if (!socket) return
    socket.send(
      JSON.stringify({
        envelope_id: envelope.id,
        type: envelope.type,
        payload: envelope.payload,
        accepts_response_payload: false,
        ...(envelope.type === 'events_api'
          ? { retry_attempt: envelope.attempt, retry_reason: envelope.attempt > 0 ? 'timeout' : '' }
          : {}),
      }),
    )
    envelope.timer = setTimeout(() => {
      envelope.timer = undefined
      envelope.attempt++
      this.deliver(envelope)
    }, REDELIVER_MS)
    envelope.timer.unref()
  }

  // ---- the Web API ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base)
    const raw = await readBody(req)
    if (this.down) return reply(res, 502, 'Bad Gateway', 'text/plain')
    try {
      if (url.pathname.startsWith('/api/')) return await this.api(url.pathname.slice(5), req, raw, res)
      if (url.pathname.startsWith('/upload/') && req.method === 'POST')
        return await this.upload(url, req, raw, res)
      if (url.pathname.startsWith('/files/') && req.method === 'GET') return this.serveFile(url, req, res)
      reply(res, 404, 'Not Found', 'text/plain')
    } catch (error) {
      reply(res, 500, String(error), 'text/plain')
    }
  }

  private async api(method: string, req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> {
    const args = await parseArgs(req, raw)
    const token = bearer(req) ?? (typeof args.token === 'string' ? args.token : null)
    if (method === 'apps.connections.open') {
      if (token !== this.appToken) return replyJson(res, { ok: false, error: 'invalid_auth' })
      const ticket = randomBytes(12).toString('hex')
      this.tickets.add(ticket)
      return replyJson(res, {
        ok: true,
        url: `ws://127.0.0.1:${this.port}/link/?ticket=${ticket}&app_id=${APP_ID}`,
      })
    }
    if (token !== this.botToken) return replyJson(res, { ok: false, error: 'invalid_auth' })
    if (LIMITED.has(method) && this.rateLimit.left > 0) {
      this.rateLimit.left--
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': String(this.rateLimit.seconds),
      })
      res.end(JSON.stringify({ ok: false, error: 'ratelimited' }))
      return
    }
    try {
      replyJson(res, { ok: true, ...this.call(method, args) })
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      replyJson(res, { ok: false, error: error.message })
    }
  }

  private call(method: string, args: Json): Json {
    const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : '')
    switch (method) {
      case 'auth.test':
        return {
          url: 'https://fake.slack.com/',
          team: 'Fake',
          user: BOT_NAME,
          team_id: TEAM,
          user_id: BOT_USER,
          bot_id: BOT_ID,
          is_enterprise_install: false,
        }
      case 'chat.postMessage': {
        const channel = text('channel')
        if (!this.knownChannel(channel)) throw new ApiError('channel_not_found')
        if (!text('text') && !args.blocks) throw new ApiError('no_text')
        const replyTo = text('thread_ts') || null
        if (replyTo && !this.find(channel, replyTo)) throw new ApiError('thread_not_found')
        const blocks = jsonArray(args.blocks)
        this.checkBlocks(blocks)
        if (text('text').length > 40_000) throw new ApiError('msg_too_long')
        const message = this.store(channel, BOT_USER, text('text'), { blocks, replyTo, bot: true })
        // Slack tells the app of its own messages too; bolt is expected to drop them.
        this.sendEvent({
          type: 'message',
          channel,
          channel_type: channelType(channel),
          user: BOT_USER,
          bot_id: BOT_ID,
          app_id: APP_ID,
          text: message.text,
          ts: message.messageId,
          event_ts: message.messageId,
          ...(replyTo ? { thread_ts: replyTo } : {}),
        })
        return {
          channel,
          ts: message.messageId,
          message: { type: 'message', text: message.text, ts: message.messageId },
        }
      }
      case 'chat.update': {
        const channel = text('channel')
        const message = this.find(channel, text('ts'))
        if (!message)
          throw new ApiError(this.knownChannel(channel) ? 'message_not_found' : 'channel_not_found')
        if (!message.botMessage) throw new ApiError('cant_update_message')
        this.checkBlocks(jsonArray(args.blocks))
        message.text = text('text')
        // As Slack: without `blocks` a message keeps the blocks (and buttons) it had.
        if (args.blocks !== undefined) {
          message.blocks = jsonArray(args.blocks)
          message.buttons = buttonsOf(message.blocks)
        }
        this.edits.push({
          chatId: channel,
          messageId: message.messageId,
          text: message.text,
          buttons: message.buttons.map((row) => row.map((b) => ({ ...b }))),
          at: Date.now(),
        })
        return { channel, ts: message.messageId, text: message.text }
      }
      case 'chat.postEphemeral': {
        const channel = text('channel')
        if (!this.knownChannel(channel)) throw new ApiError('channel_not_found')
        const press = this.presses.find(
          (p) => !p.answered && p.chatId === channel && p.userId === text('user'),
        )
        if (press) {
          press.answered = true
          this.pressAnswers.push({ pressId: press.pressId, notice: text('text') })
        }
        return { message_ts: this.nextTs() }
      }
      case 'reactions.add': {
        const channel = text('channel')
        const message = this.find(channel, text('timestamp'))
        if (!message)
          throw new ApiError(this.knownChannel(channel) ? 'message_not_found' : 'channel_not_found')
        const name = text('name')
        if (!name || name.includes(':') || /[^\x20-\x7e]/.test(name)) throw new ApiError('invalid_name')
        if (message.reactions.has(name)) throw new ApiError('already_reacted')
        message.reactions.add(name)
        this.reactions.push({ chatId: channel, messageId: message.messageId, emoji: name })
        return {}
      }
      case 'conversations.open': {
        const user = text('users')
        if (!/^[UW][A-Z0-9]+$/.test(user)) throw new ApiError('user_not_found')
        return { channel: { id: this.dmChatOf(user) } }
      }
      case 'conversations.history': {
        const channel = text('channel')
        if (!this.knownChannel(channel)) throw new ApiError('channel_not_found')
        const limit = Number(args.limit ?? 100) || 100
        // As Slack: a thread's replies are not in its channel's history, only their parent is.
        const topLevel = (this.channels.get(channel) ?? []).filter((m) => !m.replyTo)
        return {
          messages: [...topLevel]
            .reverse()
            .slice(0, limit)
            .map((m) => this.asListed(m)),
          has_more: topLevel.length > limit,
        }
      }
      case 'conversations.replies': {
        const channel = text('channel')
        if (!this.knownChannel(channel)) throw new ApiError('channel_not_found')
        // `ts` may name the parent or any reply: either way the whole thread, the parent first.
        const named = this.find(channel, text('ts'))
        const parent = named?.replyTo ? this.find(channel, named.replyTo) : named
        if (!parent) throw new ApiError('thread_not_found')
        const thread = [
          parent,
          ...(this.channels.get(channel) ?? []).filter((m) => m.replyTo === parent.messageId),
        ]
        const limit = Number(args.limit ?? 1000) || 1000
        // The cursor is opaque to the client: here, where the next page starts.
        const cursor = text('cursor')
        const from = cursor ? Number(/^at:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString())?.[1]) : 0
        if (!Number.isInteger(from) || from > thread.length) throw new ApiError('invalid_cursor')
        const more = from + limit < thread.length
        return {
          messages: thread.slice(from, from + limit).map((m) => this.asListed(m)),
          has_more: more,
          response_metadata: {
            next_cursor: more ? Buffer.from(`at:${from + limit}`).toString('base64') : '',
          },
        }
      }
      case 'users.info': {
        const id = text('user')
        const user = id === BOT_USER ? { id, name: BOT_NAME } : this.users.get(id)
        if (!user) throw new ApiError('user_not_found')
        return {
          user: {
            id,
            name: user.name,
            real_name: user.name,
            profile: { display_name: user.name, real_name: user.name },
          },
        }
      }
      case 'files.getUploadURLExternal': {
        const name = text('filename')
        const length = Number(args.length)
        if (!name || !Number.isInteger(length) || length < 0) throw new ApiError('invalid_arguments')
        const id = `F${String(this.files.size + this.uploads.size + 1).padStart(9, '0')}U`
        this.uploads.set(id, { name, content: null })
        return { upload_url: `${this.base}/upload/${id}`, file_id: id }
      }
      case 'files.completeUploadExternal': {
        const channel = text('channel_id')
        if (channel && !this.knownChannel(channel)) throw new ApiError('channel_not_found')
        const files = jsonArray(args.files) as { id?: string; title?: string }[]
        const done = files.map((f) => ({ file: f, upload: this.uploads.get(f.id ?? '') }))
        if (done.length === 0 || done.some((d) => !d.upload?.content)) throw new ApiError('file_not_found')
        if (channel) {
          const list = this.channels.get(channel) ?? []
          const last = list.at(-1)
          const target = last?.botMessage ? last : this.store(channel, BOT_USER, '', { bot: true })
          for (const { file, upload } of done) {
            target.files.push({
              name: file.title || upload?.name || 'file',
              size: upload?.content?.length ?? 0,
            })
          }
        }
        return { files: done.map(({ file, upload }) => ({ id: file.id, title: file.title ?? upload?.name })) }
      }
      default:
        throw new ApiError('unknown_method')
    }
  }

  /** The second upload step: the bytes, raw or as a multipart form (as @slack/web-api sends them). */
  private async upload(url: URL, req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> {
    const upload = this.uploads.get(url.pathname.slice('/upload/'.length))
    if (!upload) return reply(res, 404, 'no such upload', 'text/plain')
    let content = raw
    const type = req.headers['content-type'] ?? ''
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData()
      const file = [...form.values()].find((value) => typeof value !== 'string') as Blob | undefined
      if (!file) return reply(res, 400, 'no file part', 'text/plain')
      content = Buffer.from(await file.arrayBuffer())
    }
    upload.content = content
    reply(res, 200, `OK - ${content.length}`, 'text/plain')
  }

  private serveFile(url: URL, req: IncomingMessage, res: ServerResponse): void {
    const file = this.files.get(url.pathname.split('/')[2] ?? '')
    if (bearer(req) !== this.botToken) {
      reply(res, 401, 'not authed', 'text/plain')
    } else if (!file) {
      reply(res, 404, 'Not Found', 'text/plain')
    } else {
      res.writeHead(200, { 'content-type': file.mime, 'content-length': file.content.length })
      res.end(file.content)
    }
  }
}

function channelType(chatId: string): string {
  if (chatId.startsWith('D')) return 'im'
  return chatId.startsWith('G') ? 'group' : 'channel'
}

/** The buttons of a message, row by row, from its `actions` blocks. */
function buttonsOf(blocks: Json[]): Button[][] {
  return blocks
    .filter((block) => block.type === 'actions' && Array.isArray(block.elements))
    .map((block) =>
      (block.elements as Json[])
        .filter((element) => element.type === 'button')
        .map((element) => ({
          text: String((element.text as { text?: unknown } | undefined)?.text ?? ''),
          data: String(element.value ?? ''),
        })),
    )
}

function findButton(blocks: Json[], value: string) {
  for (const block of blocks) {
    if (block.type !== 'actions' || !Array.isArray(block.elements)) continue
    for (const element of block.elements as Json[]) {
      if (element.type === 'button' && element.value === value) {
        return {
          actionId: String(element.action_id ?? ''),
          blockId: String(block.block_id ?? ''),
          text: String((element.text as { text?: unknown } | undefined)?.text ?? ''),
        }
      }
    }
  }
  return null
}

/** A Web API argument that is a JSON array, sent as JSON or as a JSON string in a form. */
function jsonArray(value: unknown): Json[] {
  if (Array.isArray(value)) return value as Json[]
  if (typeof value !== 'string' || value === '') return []
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) ? (parsed as Json[]) : []
  } catch {
    throw new ApiError('invalid_arguments')
  }
}

async function parseArgs(req: IncomingMessage, raw: Buffer): Promise<Json> {
  const type = req.headers['content-type'] ?? ''
  if (type.startsWith('application/json'))
    return raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Json) : {}
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData()
    return Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))
  }
  return Object.fromEntries(new URLSearchParams(raw.toString('utf8')))
}

function bearer(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')
  return match?.[1] ?? null
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function replyJson(res: ServerResponse, body: Json): void {
  reply(res, 200, JSON.stringify(body), 'application/json; charset=utf-8')
}

function reply(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { 'content-type': type })
  res.end(body)
}
