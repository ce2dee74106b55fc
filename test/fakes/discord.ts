// A fake Discord on 127.0.0.1 for discord.js to talk to: one HTTP server with the REST routes a bridge
// uses under /api/v10, the gateway WebSocket (hello, heartbeats, identify, resume with replay), a guild
// with text channels and their threads, DM channels, button interactions, attachment downloads,
// outages and 429s.
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'
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

// discord.js strips a leading "Bot" from a token, so a fake token must not start with it.
const BOT_ID = '1100000000000000001'
const BOT_NAME = 'switchboard_test_bot'
const GUILD_ID = '1100000000000000002'
const OWNER_ID = '1100000000000000003'
const HEARTBEAT_MS = 41_250
const MAX_BODY = 60 * 1024 * 1024
const DISCORD_EPOCH = 1_420_070_400_000n
/** Gateway opcodes (discord-api-types' GatewayOpcodes). */
const OP = { dispatch: 0, heartbeat: 1, identify: 2, resume: 6, invalidSession: 9, hello: 10, ack: 11 }
const DM = 1
const GUILD_TEXT = 0
const PUBLIC_THREAD = 11
/** The message flag a voice message carries (MessageFlags.IsVoiceMessage). */
const IS_VOICE_MESSAGE = 1 << 13

type Json = Record<string, unknown>

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Json = {},
  ) {
    super(message)
  }
}

interface Stored {
  id: string
  channelId: string
  author: Json
  content: string
  timestamp: string
  editedAt: string | null
  components: Json[]
  replyTo: string | null
  mentions: Json[]
  attachments: Json[]
  files: { name: string; size: number }[]
  /** The message's flags: IS_VOICE_MESSAGE (1 << 13) on a voice message. */
  flags: number
}

interface Channel {
  id: string
  type: typeof DM | typeof GUILD_TEXT | typeof PUBLIC_THREAD
  recipient: string | null
  name: string
  messages: Map<string, Stored>
  /** A thread's: the text channel it is in, whether it is archived, and who opened it (the bot when unset). */
  parent?: string
  archived?: boolean
  owner?: string
}

interface Session {
  id: string
  seq: number
  log: Json[]
  conn: Conn | null
}

interface Conn {
  ws: WebSocket
  session: Session | null
}

/** What only the Discord fake tells: the gateway sessions and every attempt to open a gateway socket. */
export interface FakeDiscord extends FakePlatform {
  /** Session ids in the order the bot identified. */
  sessionIds(): string[]
  /** Each WebSocket upgrade: the session it came to resume (null for a new one), and whether it was refused. */
  readonly gatewayAttempts: { session: string | null; refused: boolean }[]
}

export async function startFakeDiscord(): Promise<FakeDiscord> {
  // One token per fake: hubs of tests running at once must not share a bot (src/hub/bridges/bot-lock.ts).
  const TOKEN = `TEST-discord-token.${randomBytes(6).toString('hex')}.switchboard`
  let lastStamp = 0n
  let increment = 0n
  /** Real snowflakes: discord.js reads a message's time from its id. */
  function snowflake(): string {
    const stamp = BigInt(Date.now()) - DISCORD_EPOCH
    increment = stamp === lastStamp ? increment + 1n : 0n
    lastStamp = stamp
    return String((stamp << 22n) | (increment & 0xfffn))
  }

  const users = new Map<string, Json>()
  const channels = new Map<string, Channel>()
  const dmOf = new Map<string, string>()
  const botMessages: Stored[] = []
  const files = new Map<string, { content: Buffer; mime: string }>()
  const presses = new Map<string, { token: string; answered: boolean }>()
  const sessions = new Map<string, Session>()
  const conns = new Set<Conn>()
  const gatewayAttempts: FakeDiscord['gatewayAttempts'] = []
  /** Events that found no open gateway session: the next session to come up gets them. */
  const undelivered: { t: string; d: Json }[] = []
  let down = false
  let limited = { left: 0, seconds: 0 }
  let port = 0

  const edits: FakePlatform['edits'] = []
  const reactions: FakePlatform['reactions'] = []
  const typing: string[] = []
  const pressAnswers: FakePlatform['pressAnswers'] = []

  const botUser: Json = {
    id: BOT_ID,
    username: BOT_NAME,
    discriminator: '0',
    global_name: null,
    avatar: null,
    bot: true,
    flags: 0,
  }
  users.set(BOT_ID, botUser)

  function person(user: FakeUser): Json {
    if (!/^\d{15,21}$/.test(user.id)) throw new Error(`a Discord user id is a snowflake, not ${user.id}`)
    const json: Json = {
      id: user.id,
      username: user.name.toLowerCase().replace(/[^a-z0-9_.]/g, '_'),
      discriminator: '0',
      global_name: user.name,
      avatar: null,
    }
    users.set(user.id, json)
    return json
  }

  function userJson(id: string): Json {
    return users.get(id) ?? { id, username: `user${id}`, discriminator: '0', global_name: null, avatar: null }
  }

  function dmChannel(userId: string): Channel {
    let id = dmOf.get(userId)
    if (!id) {
      id = snowflake()
      dmOf.set(userId, id)
      channels.set(id, { id, type: DM, recipient: userId, name: '', messages: new Map() })
    }
    return channels.get(id) as Channel
  }

  /** A text channel of the guild, made (and announced) the first time it is named. */
  function textChannel(chatId: string): Channel {
    let channel = channels.get(chatId)
    if (channel && channel.type !== GUILD_TEXT) throw new Error(`${chatId} is no text channel`)
    if (!channel) {
      channel = { id: chatId, type: GUILD_TEXT, recipient: null, name: `chat-${chatId}`, messages: new Map() }
      channels.set(chatId, channel)
      dispatch('CHANNEL_CREATE', channelJson(channel))
    }
    return channel
  }

  function channelJson(channel: Channel): Json {
    const last = [...channel.messages.keys()].pop() ?? null
    if (channel.type === DM) {
      return {
        id: channel.id,
        type: DM,
        last_message_id: last,
        flags: 0,
        recipients: [userJson(channel.recipient ?? '')],
      }
    }
    if (channel.type === PUBLIC_THREAD) {
      return {
        id: channel.id,
        type: PUBLIC_THREAD,
        guild_id: GUILD_ID,
        parent_id: channel.parent,
        owner_id: channel.owner ?? BOT_ID,
        name: channel.name,
        last_message_id: last,
        rate_limit_per_user: 0,
        message_count: channel.messages.size,
        member_count: 1,
        flags: 0,
        thread_metadata: {
          archived: channel.archived === true,
          auto_archive_duration: 10080,
          archive_timestamp: new Date().toISOString(),
          locked: false,
        },
      }
    }
    return {
      id: channel.id,
      type: GUILD_TEXT,
      guild_id: GUILD_ID,
      name: channel.name,
      position: 0,
      permission_overwrites: [],
      topic: null,
      nsfw: false,
      last_message_id: last,
      rate_limit_per_user: 0,
      parent_id: null,
      flags: 0,
    }
  }

  function guildJson(): Json {
    const joined = new Date().toISOString()
    return {
      id: GUILD_ID,
      name: 'Switchboard Test',
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: OWNER_ID,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: [
        {
          id: GUILD_ID,
          name: '@everyone',
          color: 0,
          hoist: false,
          position: 0,
          permissions: '1071698660929',
          managed: false,
          mentionable: false,
          flags: 0,
        },
      ],
      emojis: [],
      stickers: [],
      features: [],
      mfa_level: 0,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      joined_at: joined,
      large: false,
      unavailable: false,
      member_count: 1,
      voice_states: [],
      members: [{ user: botUser, roles: [], joined_at: joined, deaf: false, mute: false, flags: 0 }],
      channels: [...channels.values()].filter((c) => c.type === GUILD_TEXT).map(channelJson),
      threads: [...channels.values()].filter((c) => c.type === PUBLIC_THREAD).map(channelJson),
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: 'en-US',
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
    }
  }

  function messageJson(m: Stored, withReply = true): Json {
    const channel = channels.get(m.channelId) as Channel
    const json: Json = {
      id: m.id,
      channel_id: m.channelId,
      author: m.author,
      content: m.content,
      timestamp: m.timestamp,
      edited_timestamp: m.editedAt,
      tts: false,
      mention_everyone: false,
      mentions: m.mentions,
      mention_roles: [],
      attachments: m.attachments,
      embeds: [],
      pinned: false,
      type: m.replyTo ? 19 : 0,
      flags: m.flags,
      components: m.components,
    }
    if (channel.type !== DM) json.guild_id = GUILD_ID
    if (m.replyTo) {
      json.message_reference = { type: 0, message_id: m.replyTo, channel_id: m.channelId }
      const replied = channel.messages.get(m.replyTo)
      if (withReply) json.referenced_message = replied ? messageJson(replied, false) : null
    }
    return json
  }

  /** MESSAGE_CREATE as the gateway sends it: a DM's must say channel_type 1 or discord.js drops it. */
  function dispatchMessage(m: Stored): void {
    const channel = channels.get(m.channelId) as Channel
    const d: Json = { ...messageJson(m), channel_type: channel.type }
    if (channel.type !== DM) {
      d.member = { roles: [], joined_at: m.timestamp, deaf: false, mute: false, flags: 0 }
    }
    dispatch('MESSAGE_CREATE', d)
  }

  function store(channel: Channel, author: Json, content: string, extra: Partial<Stored> = {}): Stored {
    const message: Stored = {
      id: snowflake(),
      channelId: channel.id,
      author,
      content,
      timestamp: new Date().toISOString(),
      editedAt: null,
      components: [],
      replyTo: null,
      mentions: [],
      attachments: [],
      files: [],
      flags: 0,
      ...extra,
    }
    channel.messages.set(message.id, message)
    return message
  }

  function addFile(channelId: string, name: string, mime: string, content: Buffer): Json {
    const id = snowflake()
    const path = `/attachments/${channelId}/${id}/${encodeURIComponent(name)}`
    files.set(path, { content, mime })
    const hex = () => randomBytes(4).toString('hex')
    const json: Json = {
      id,
      filename: name,
      size: content.length,
      url: `http://127.0.0.1:${port}${path}?ex=${hex()}&is=${hex()}&hm=${hex()}&`,
      proxy_url: `http://127.0.0.1:${port}${path}`,
      content_type: mime,
    }
    if (mime.startsWith('image/')) Object.assign(json, { width: 800, height: 600 })
    return json
  }

  // --- The gateway ---------------------------------------------------------------------------------

  function live(): Conn[] {
    return [...conns].filter((c) => c.session !== null && c.ws.readyState === WebSocket.OPEN)
  }

  function send(session: Session, t: string, d: Json): void {
    const payload = { op: OP.dispatch, t, s: ++session.seq, d }
    session.log.push(payload)
    if (session.conn?.ws.readyState === WebSocket.OPEN) session.conn.ws.send(JSON.stringify(payload))
  }

  function dispatch(t: string, d: Json): void {
    const open = live()
    if (open.length === 0) {
      undelivered.push({ t, d })
      return
    }
    for (const conn of open) send(conn.session as Session, t, d)
  }

  function flush(session: Session): void {
    for (const event of undelivered.splice(0)) send(session, event.t, event.d)
  }

  function attach(conn: Conn, session: Session): void {
    if (session.conn && session.conn !== conn) session.conn.session = null
    session.conn = conn
    conn.session = session
  }

  function onGateway(conn: Conn, raw: string): void {
    let payload: { op?: number; d?: Json | null }
    try {
      payload = JSON.parse(raw) as typeof payload
    } catch {
      conn.ws.close(4002, 'Error while decoding payload.')
      return
    }
    const d = payload.d ?? {}
    if (payload.op === OP.heartbeat) conn.ws.send(JSON.stringify({ op: OP.ack, d: null }))
    else if (payload.op === OP.identify) identify(conn, d)
    else if (payload.op === OP.resume) resume(conn, d)
  }

  function identify(conn: Conn, d: Json): void {
    if (conn.session) {
      conn.ws.close(4005, 'Already authenticated.')
      return
    }
    if (d.token !== TOKEN) {
      conn.ws.close(4004, 'Authentication failed.')
      return
    }
    const session: Session = { id: randomBytes(16).toString('hex'), seq: 0, log: [], conn: null }
    sessions.set(session.id, session)
    attach(conn, session)
    send(session, 'READY', {
      v: 10,
      user: botUser,
      guilds: [{ id: GUILD_ID, unavailable: true }],
      session_id: session.id,
      // A URL per session, as Discord gives: the fake can tell whose reconnect it sees.
      resume_gateway_url: `ws://127.0.0.1:${port}/resume/${session.id}`,
      application: { id: BOT_ID, flags: 0 },
      private_channels: [],
      relationships: [],
      presences: [],
      shard: [0, 1],
    })
    send(session, 'GUILD_CREATE', guildJson())
    flush(session)
  }

  /** Replays what the session missed since `seq`, as Discord does, then says RESUMED. */
  function resume(conn: Conn, d: Json): void {
    if (d.token !== TOKEN) {
      conn.ws.close(4004, 'Authentication failed.')
      return
    }
    const session = sessions.get(String(d.session_id))
    if (!session) {
      conn.ws.send(JSON.stringify({ op: OP.invalidSession, d: false }))
      return
    }
    attach(conn, session)
    const seq = Number(d.seq ?? 0)
    for (const event of session.log) {
      if ((event.s as number) > seq) conn.ws.send(JSON.stringify(event))
    }
    send(session, 'RESUMED', {})
    flush(session)
  }

  const wss = new WebSocketServer({ noServer: true })
  wss.on('connection', (ws) => {
    const conn: Conn = { ws, session: null }
    conns.add(conn)
    ws.on('message', (data) => onGateway(conn, String(data)))
    ws.on('close', () => {
      conns.delete(conn)
      if (conn.session?.conn === conn) conn.session.conn = null
    })
    ws.on('error', () => {})
    ws.send(JSON.stringify({ op: OP.hello, d: { heartbeat_interval: HEARTBEAT_MS }, s: null, t: null }))
  })

  // --- REST ----------------------------------------------------------------------------------------

  function channelOf(id: string): Channel {
    const channel = channels.get(id)
    if (!channel) throw new ApiError(404, 10003, 'Unknown Channel')
    return channel
  }

  function messageOf(channel: Channel, id: string): Stored {
    const message = channel.messages.get(id)
    if (!message) throw new ApiError(404, 10008, 'Unknown Message')
    return message
  }

  function invalid(what: string): ApiError {
    return new ApiError(400, 50035, `Invalid Form Body: ${what}`)
  }

  function checkComponents(value: unknown): Json[] {
    if (!Array.isArray(value)) throw invalid('components must be a list')
    if (value.length > 5) throw invalid('components: at most 5 action rows')
    for (const row of value as Json[]) {
      const buttons = row.components
      if (row.type !== 1 || !Array.isArray(buttons) || buttons.length === 0 || buttons.length > 5)
        throw invalid('components: an action row holds 1 to 5 buttons')
      for (const b of buttons as Json[]) {
        const id = String(b.custom_id ?? '')
        const label = String(b.label ?? '')
        if (b.type !== 2 || id === '' || id.length > 100 || label.length > 80)
          throw invalid('components: a button needs a custom_id (≤ 100) and a label (≤ 80)')
      }
    }
    return value as Json[]
  }

  async function readPayload(req: IncomingMessage, raw: Buffer) {
    const type = req.headers['content-type'] ?? ''
    if (!type.startsWith('multipart/form-data')) {
      return { body: raw.length ? (JSON.parse(raw.toString('utf8')) as Json) : {}, uploads: [] }
    }
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: raw,
    }).formData()
    const body = JSON.parse(String(form.get('payload_json') ?? '{}')) as Json
    const uploads: { name: string; mime: string; content: Buffer }[] = []
    for (const [key, value] of form) {
      if (!/^files\[\d+\]$/.test(key) || typeof value === 'string') continue
      uploads.push({
        name: value.name,
        mime: value.type || 'application/octet-stream',
        content: Buffer.from(await value.arrayBuffer()),
      })
    }
    return { body, uploads }
  }

  function rateLimited(): void {
    if (limited.left <= 0) return
    limited.left--
    const s = limited.seconds
    throw new ApiError(
      429,
      0,
      'You are being rate limited.',
      { 'retry-after': String(s), 'x-ratelimit-scope': 'user' },
      { retry_after: s, global: false },
    )
  }

  async function createMessage(channel: Channel, req: IncomingMessage, raw: Buffer): Promise<Json> {
    const { body, uploads } = await readPayload(req, raw)
    const content = String(body.content ?? '')
    if (content.length > 2000) throw invalid('content: must be 2000 or fewer in length')
    const components = body.components === undefined ? [] : checkComponents(body.components)
    if (uploads.length > 10) throw invalid('files: at most 10')
    if (content.trim() === '' && uploads.length === 0 && components.length === 0)
      throw new ApiError(400, 50006, 'Cannot send an empty message')
    const reference = body.message_reference as
      | { message_id?: string; fail_if_not_exists?: boolean }
      | undefined
    let replyTo: string | null = null
    if (reference?.message_id) {
      if (channel.messages.has(reference.message_id)) replyTo = reference.message_id
      else if (reference.fail_if_not_exists !== false) throw invalid('message_reference: Unknown message')
    }
    if (channel.archived) {
      channel.archived = false
      dispatch('THREAD_UPDATE', channelJson(channel))
    }
    const message = store(channel, botUser, content, {
      components,
      replyTo,
      attachments: uploads.map((u) => addFile(channel.id, u.name, u.mime, u.content)),
      files: uploads.map((u) => ({ name: u.name, size: u.content.length })),
    })
    botMessages.push(message)
    dispatchMessage(message)
    return messageJson(message)
  }

  async function editMessage(channel: Channel, id: string, req: IncomingMessage, raw: Buffer): Promise<Json> {
    const message = messageOf(channel, id)
    if (message.author.id !== BOT_ID)
      throw new ApiError(403, 50005, 'Cannot edit a message authored by another user')
    const { body } = await readPayload(req, raw)
    if (body.content !== undefined && body.content !== null) {
      if (String(body.content).length > 2000) throw invalid('content: must be 2000 or fewer in length')
      message.content = String(body.content)
    }
    if (body.components !== undefined && body.components !== null)
      message.components = checkComponents(body.components)
    message.editedAt = new Date().toISOString()
    edits.push({
      chatId: channel.id,
      messageId: id,
      text: message.content,
      buttons: buttonsOf(message.components),
      at: Date.now(),
    })
    return messageJson(message)
  }

  function interactionCallback(id: string, token: string, body: Json): void {
    const press = presses.get(id)
    if (!press || press.token !== token) throw new ApiError(404, 10062, 'Unknown interaction')
    if (press.answered) throw new ApiError(400, 40060, 'Interaction has already been acknowledged.')
    press.answered = true
    const data = (body.data ?? {}) as Json
    pressAnswers.push({ pressId: id, notice: body.type === 4 ? String(data.content ?? '') : null })
  }

  async function route(req: IncomingMessage, raw: Buffer, path: string, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET'
    const ok = (body: unknown) => reply(res, 200, body)
    const callback = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path)
    if (callback && method === 'POST') {
      // Interaction callbacks are authorised by the interaction's token, not the bot's.
      interactionCallback(callback[1] ?? '', callback[2] ?? '', (await readPayload(req, raw)).body)
      return reply(res, 204)
    }
    if (req.headers.authorization !== `Bot ${TOKEN}`) throw new ApiError(401, 0, '401: Unauthorized')
    if (method === 'GET' && path === '/gateway/bot') {
      return ok({
        url: `ws://127.0.0.1:${port}`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
      })
    }
    if (method === 'GET' && path === '/users/@me') return ok(botUser)
    if (method === 'POST' && path === '/users/@me/channels') {
      const { body } = await readPayload(req, raw)
      const recipient = String(body.recipient_id ?? '')
      if (!users.has(recipient) || recipient === BOT_ID) throw new ApiError(404, 10013, 'Unknown User')
      return ok(channelJson(dmChannel(recipient)))
    }
    const parts =
      /^\/channels\/(\d+)(?:\/(messages|typing|threads)(?:\/(\d+)(?:\/reactions\/([^/]+)\/@me)?)?)?$/.exec(
        path,
      )
    if (!parts) throw new ApiError(404, 0, '404: Not Found')
    const [, channelId = '', kind, messageId, emoji] = parts
    const channel = channelOf(channelId)
    if (!kind && method === 'GET') return ok(channelJson(channel))
    if (kind === 'threads' && method === 'POST' && !messageId) {
      if (channel.type !== GUILD_TEXT)
        throw new ApiError(400, 50024, 'Cannot execute action on this channel type')
      const { body } = await readPayload(req, raw)
      const name = String(body.name ?? '')
      if (name.length < 1 || name.length > 100) throw invalid('name: must be between 1 and 100 in length')
      const thread: Channel = {
        id: snowflake(),
        type: PUBLIC_THREAD,
        recipient: null,
        name,
        messages: new Map(),
        parent: channel.id,
        archived: false,
      }
      channels.set(thread.id, thread)
      dispatch('THREAD_CREATE', { ...channelJson(thread), newly_created: true })
      return reply(res, 201, channelJson(thread))
    }
    if (!kind && method === 'PATCH' && channel.type === PUBLIC_THREAD) {
      const { body } = await readPayload(req, raw)
      if (typeof body.archived === 'boolean') channel.archived = body.archived
      if (typeof body.name === 'string') channel.name = body.name
      dispatch('THREAD_UPDATE', channelJson(channel))
      return ok(channelJson(channel))
    }
    if (kind === 'typing' && method === 'POST' && !messageId) {
      typing.push(channel.id)
      return reply(res, 204)
    }
    if (kind !== 'messages') throw new ApiError(405, 0, '405: Method Not Allowed')
    if (!messageId && method === 'POST') {
      rateLimited()
      return ok(await createMessage(channel, req, raw))
    }
    if (!messageId && method === 'GET') {
      const url = new URL(req.url ?? '/', 'http://fake')
      const limit = Number(url.searchParams.get('limit') ?? 50)
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('limit: between 1 and 100')
      const newestFirst = [...channel.messages.values()].reverse().slice(0, limit)
      return ok(newestFirst.map((m) => messageJson(m)))
    }
    if (messageId && emoji !== undefined && method === 'PUT') {
      rateLimited()
      const message = messageOf(channel, messageId)
      const name = decodeURIComponent(emoji)
      if (!/^(\p{Extended_Pictographic}|\p{Regional_Indicator}|\w+:\d+$)/u.test(name))
        throw new ApiError(400, 10014, 'Unknown Emoji')
      reactions.push({ chatId: channel.id, messageId: message.id, emoji: name })
      return reply(res, 204)
    }
    if (messageId && emoji === undefined && method === 'GET')
      return ok(messageJson(messageOf(channel, messageId)))
    if (messageId && emoji === undefined && method === 'PATCH') {
      rateLimited()
      return ok(await editMessage(channel, messageId, req, raw))
    }
    throw new ApiError(405, 0, '405: Method Not Allowed')
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake')
    const raw = await readBody(req)
    if (down) {
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end('error code: 502')
      return
    }
    const file = files.get(url.pathname)
    if (file && req.method === 'GET') {
      res.writeHead(200, { 'content-type': file.mime, 'content-length': file.content.length })
      res.end(file.content)
      return
    }
    const api = /^\/api\/v10(\/.*)$/.exec(url.pathname)
    if (!api) throw new ApiError(404, 0, '404: Not Found')
    await route(req, raw, api[1] ?? '', res)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof ApiError) {
        return reply(
          res,
          error.status,
          { message: error.message, code: error.code, ...error.extra },
          error.headers,
        )
      }
      reply(res, 500, { message: `500: Internal Server Error (${String(error)})`, code: 0 })
    })
  })
  server.on('upgrade', (req, socket, head) => {
    const session = /^\/resume\/([0-9a-f]+)/.exec(req.url ?? '')?.[1] ?? null
    gatewayAttempts.push({ session, refused: down })
    // Down: the socket is refused as a load balancer would, with no WebSocket behind it.
    if (down) {
      socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as AddressInfo).port

  return {
    platform: 'discord',
    credentials: { token: TOKEN, apiUrl: `http://127.0.0.1:${port}/api` },
    botId: BOT_ID,
    edits,
    reactions,
    typing,
    pressAnswers,
    gatewayAttempts,
    sessionIds: () => [...sessions.keys()],

    async dm(user: FakeUser, text: string, options: FakeAttachments = {}) {
      const author = person(user)
      const channel = dmChannel(user.id)
      const attachments = [options.photo, options.document]
        .filter((f): f is FakeFile => f !== undefined)
        .map((f) => addFile(channel.id, f.name, f.mime, f.content))
      // A voice message, as Discord's apps send one: the message flagged IS_VOICE_MESSAGE, its one
      // attachment an Ogg named voice-message.ogg with a duration and a waveform.
      if (options.voice) {
        const file = addFile(channel.id, 'voice-message.ogg', options.voice.mime, options.voice.content)
        attachments.push({ ...file, duration_secs: 2.5, waveform: randomBytes(32).toString('base64') })
      }
      const flags = options.voice ? IS_VOICE_MESSAGE : 0
      const message = store(channel, author, text, { attachments, flags })
      dispatchMessage(message)
      return message.id
    },

    async groupMessage(
      chatId: string,
      user: FakeUser,
      text: string,
      options: { mention?: boolean; thread?: string } = {},
    ) {
      if (!/^\d{15,21}$/.test(chatId)) throw new Error(`a Discord channel id is a snowflake, not ${chatId}`)
      const author = person(user)
      let channel: Channel = textChannel(chatId)
      if (options.thread !== undefined) {
        const thread = channels.get(options.thread)
        if (thread?.parent !== chatId) throw new Error(`${options.thread} is no thread of ${chatId}`)
        channel = thread
      }
      const content = options.mention ? `<@${BOT_ID}> ${text}` : text
      const message = store(channel, author, content, { mentions: options.mention ? [botUser] : [] })
      dispatchMessage(message)
      return message.id
    },

    async press(user: FakeUser, chatId: string, messageId: string, data: string) {
      const author = person(user)
      const channel = channels.get(chatId)
      const message = channel?.messages.get(messageId)
      if (!channel || !message) throw new Error(`no message ${messageId} in channel ${chatId}`)
      if (!buttonsOf(message.components).some((row) => row.some((b) => b.data === data)))
        throw new Error(`message ${messageId} has no button ${data}`)
      const id = snowflake()
      const token = `aW50ZXJhY3Rpb246${randomBytes(24).toString('hex')}`
      presses.set(id, { token, answered: false })
      const d: Json = {
        id,
        application_id: BOT_ID,
        type: 3,
        token,
        version: 1,
        channel_id: chatId,
        channel: channelJson(channel),
        message: messageJson(message),
        data: { custom_id: data, component_type: 2 },
        app_permissions: '0',
        entitlements: [],
        authorizing_integration_owners: {},
        locale: 'en-US',
        attachment_size_limit: 10_485_760,
      }
      if (channel.type === DM) Object.assign(d, { user: author, context: 1 })
      else {
        Object.assign(d, {
          guild_id: GUILD_ID,
          guild: { id: GUILD_ID, locale: 'en-US', features: [] },
          guild_locale: 'en-US',
          member: {
            user: author,
            roles: [],
            permissions: '1071698660929',
            joined_at: new Date().toISOString(),
            deaf: false,
            mute: false,
            flags: 0,
          },
          context: 0,
        })
      }
      dispatch('INTERACTION_CREATE', d)
      return id
    },

    dmChatOf: (userId: string) => dmChannel(userId).id,

    addGroup(chatId: string) {
      textChannel(chatId)
    },

    async openThread(chatId: string, user: FakeUser, title: string) {
      const parent = textChannel(chatId)
      const thread: Channel = {
        id: snowflake(),
        type: PUBLIC_THREAD,
        recipient: null,
        name: title,
        messages: new Map(),
        parent: parent.id,
        archived: false,
        owner: person(user).id as string,
      }
      channels.set(thread.id, thread)
      dispatch('THREAD_CREATE', { ...channelJson(thread), newly_created: true })
      return thread.id
    },

    threads: (): FakeThread[] =>
      [...channels.values()]
        .filter((c) => c.type === PUBLIC_THREAD && c.owner === undefined)
        .map((c) => ({ chatId: c.parent ?? '', thread: c.id, title: c.name, closed: c.archived === true })),

    sent(): FakeMessage[] {
      return botMessages.map((m) => ({
        chatId: m.channelId,
        messageId: m.id,
        userId: BOT_ID,
        text: m.content,
        buttons: buttonsOf(m.components),
        replyTo: m.replyTo,
        files: m.files,
        thread: channels.get(m.channelId)?.type === PUBLIC_THREAD ? m.channelId : null,
      }))
    },

    receivers: () => live().length,

    setDown(value: boolean) {
      down = value
      if (!value) return
      // An outage: sockets drop without a goodbye; discord.js resumes its session once it is back.
      for (const conn of conns) conn.ws.terminate()
      server.closeIdleConnections()
    },

    rateLimitNext(n: number, retryAfterSeconds: number) {
      limited = { left: n, seconds: retryAfterSeconds }
    },

    waitFor<T>(probe: () => T | undefined | false | null, what: string, timeoutMs?: number): Promise<T> {
      return pollFor('Discord', probe, what, timeoutMs)
    },

    async close() {
      for (const conn of conns) conn.ws.terminate()
      wss.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}

function buttonsOf(components: Json[]): Button[][] {
  return components.map((row) =>
    ((row.components ?? []) as Json[]).map((b) => ({
      text: String(b.label ?? ''),
      data: String(b.custom_id ?? ''),
    })),
  )
}

function reply(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.writableEnded || res.destroyed) return
  if (body === undefined) {
    res.writeHead(status, headers)
    res.end()
    return
  }
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new ApiError(413, 40005, 'Request entity too large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
