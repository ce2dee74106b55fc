// The spine end to end: a real hub, `switchboard channel` as a stdio child of an MCP SDK Client,
// webhooks and senders over HTTP.
import { execFileSync, spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import { ChannelClient } from './helpers/channel-client.js'
import { alive, CLI, waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import { SseReader } from './helpers/sse.js'

const world = homePerTest()

async function channel(args: string[] = []): Promise<ChannelClient> {
  const c = await ChannelClient.start(world.home, args)
  world.opened.push(c)
  return c
}

async function stream(token: string): Promise<SseReader> {
  const s = await SseReader.open(world.home.url, token)
  world.opened.push(s)
  return s
}

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${world.home.url}${path}`, { method: 'POST', body, headers })
}

function say(token: string, text: string) {
  return post('/messages', text, { authorization: `Bearer ${token}`, 'content-type': 'text/plain' })
}

function hubProcesses(): number {
  try {
    return execFileSync('pgrep', ['-f', `serve --home ${world.home.dir}`])
      .toString()
      .trim()
      .split('\n').length
  } catch {
    return 0
  }
}

describe('webhooks into a session', () => {
  it('delivers a webhook as a channel notification with content and meta', async () => {
    const secret = await world.home.addSource('ci')
    const c = await channel(['--name', 'work'])
    const res = await post(
      '/hooks/ci?branch=main',
      JSON.stringify({ text: 'build failed', job: 'test', 'run-id': 42 }),
      {
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
      },
    )
    expect(res.status).toBe(202)
    const { id } = (await res.json()) as { id: string }
    const [event] = await c.waitForEvents(1)
    expect(event?.content).toBe('build failed')
    expect(event?.meta).toMatchObject({
      origin: 'ci',
      topic: 'ci',
      event_id: id,
      job: 'test',
      run_id: '42',
      branch: 'main',
    })
  })

  it('accepts a GitHub-style signature and de-duplicates retries by delivery id', async () => {
    await world.home.cli('source', 'add', 'github', '--delivery-header', 'X-GitHub-Delivery')
    const secret = /secret: (\S+)/.exec(await world.home.cli('source', 'list'))?.[1]
    expect(secret).toBeUndefined() // list never prints secrets
    const c = await channel()
    const { openSqliteStore: open } = await import('../src/store/sqlite/index.js')
    const store = open(join(world.home.dir, 'switchboard.db'))
    const key = (await store.getSource('github'))?.secret ?? ''
    await store.close()
    const body = JSON.stringify({ action: 'opened', number: 7 })
    const signature = `sha256=${createHmac('sha256', key).update(body).digest('hex')}`
    const headers = {
      'content-type': 'application/json',
      'x-hub-signature-256': signature,
      'x-github-delivery': 'abc-1',
      'x-github-event': 'pull_request',
    }
    const first = await post('/hooks/github', body, headers)
    const retry = await post('/hooks/github', body, headers)
    expect(first.status).toBe(202)
    expect(retry.status).toBe(200)
    const a = (await first.json()) as { id: string }
    const b = (await retry.json()) as { id: string; duplicate: boolean }
    expect(b).toEqual({ id: a.id, duplicate: true })
    await post('/hooks/github', JSON.stringify({ action: 'closed' }), {
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', key)
        .update(JSON.stringify({ action: 'closed' }))
        .digest('hex')}`,
    })
    const events = await c.waitForEvents(2)
    expect(events.map((e) => e.meta?.action)).toEqual(['opened', 'closed'])
    expect(events[0]?.meta).toMatchObject({ github_event: 'pull_request', number: '7' })
  })

  it('refuses bad secrets, bad signatures, unknown sources, malformed and oversized bodies, and delivers none', async () => {
    const secret = await world.home.addSource('alerts')
    const c = await channel()
    const cases: [Promise<Response>, number, RegExp][] = [
      [post('/hooks/alerts', 'x', { authorization: 'Bearer wrong' }), 401, /wrong source secret/],
      [post('/hooks/alerts', 'x'), 401, /missing Authorization/],
      [post('/hooks/alerts', 'x', { 'x-hub-signature-256': 'sha256=00' }), 401, /does not match/],
      [post('/hooks/nope', 'x', { authorization: `Bearer ${secret}` }), 404, /unknown source "nope"/],
      [
        post('/hooks/alerts', '{"broken', {
          authorization: `Bearer ${secret}`,
          'content-type': 'application/json',
        }),
        400,
        /not valid JSON/,
      ],
      [post('/hooks/alerts', 'x'.repeat(70_000), { authorization: `Bearer ${secret}` }), 413, /limit/],
    ]
    for (const [request, status, reason] of cases) {
      const res = await request
      expect(res.status).toBe(status)
      expect(((await res.json()) as { error: string }).error).toMatch(reason)
    }
    await post('/hooks/alerts', 'the only good one', { authorization: `Bearer ${secret}` })
    await c.waitForEvents(1)
    await new Promise((r) => setTimeout(r, 200))
    expect(c.events.map((e) => e.content)).toEqual(['the only good one'])
  })
})

describe('senders and replies', () => {
  it('routes a reply back to the sender of that chat, and lists delivered events in the inbox', async () => {
    const token = await world.home.addSender('alice')
    const c = await channel()
    const events = await stream(token)
    const res = await say(token, 'hello claude')
    expect(res.status).toBe(202)
    const [event] = await c.waitForEvents(1)
    expect(event?.content).toBe('hello claude')
    expect(event?.meta?.sender).toBe('alice')
    const chatId = event?.meta?.chat_id ?? ''
    const result = await c.callTool('reply', { chat_id: chatId, text: 'hello alice' })
    expect(result.isError).toBeFalsy()
    const reply = await events.waitFor('reply')
    expect(reply.data).toMatchObject({ chat_id: chatId, text: 'hello alice' })

    const unknownChat = await c.callTool('reply', { chat_id: 'chat_nope', text: 'x' })
    expect(unknownChat.isError).toBe(true)
    const inbox = await c.callTool('inbox', { limit: 5 })
    const listed = JSON.parse((inbox.content as { text: string }[])[0]?.text ?? '[]')
    expect(listed).toEqual([expect.objectContaining({ content: 'hello claude', chat_id: chatId })])
  })

  it('answers a bad argument in one line that names it', async () => {
    const c = await channel()
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['reply', { text: 'x' }, /^reply: chat_id: chat_id is required/],
      [
        'reply',
        { chat_id: 'c', text: 'x', files: ['rel/path'] },
        /^reply: files\.0: files are absolute paths$/,
      ],
      ['react', { chat_id: 'c', message_id: 'm' }, /^react: emoji: emoji is required$/],
      ['send', { to: 'bad name!', text: 'x' }, /^send: to: subscriber name may hold/],
      ['join', {}, /^join: room: /],
      ['inbox', { limit: 0 }, /^inbox: limit: /],
    ]
    for (const [tool, args, message] of cases) {
      const answer = await c.callTool(tool, args)
      const text = (answer.content as { text: string }[])[0]?.text ?? ''
      expect({ isError: answer.isError, text }, `${tool} ${JSON.stringify(args)}`).toEqual({
        isError: true,
        text: expect.stringMatching(message),
      })
    }
  })

  it('keeps a reply for a sender who was away and streams it when they come back', async () => {
    const token = await world.home.addSender('bob')
    const c = await channel()
    await say(token, 'ping')
    const [event] = await c.waitForEvents(1)
    await c.callTool('reply', { chat_id: event?.meta?.chat_id ?? '', text: 'pong' })
    const later = await stream(token)
    expect((await later.waitFor('reply')).data).toMatchObject({ text: 'pong' })
  })

  it('lets nothing from unknown, pending or blocked senders reach the session', async () => {
    const good = await world.home.addSender('carol')
    const blocked = await world.home.addSender('mallory')
    await world.home.cli('access', 'block', 'mallory')
    const c = await channel()
    const pairing = (await (await post('/pair', '')).json()) as { token: string }
    const refused: [Response, number, RegExp][] = [
      [await say('sbs_not_a_token', 'hi'), 401, /unknown sender token/],
      [await post('/messages', 'hi'), 401, /missing sender token/],
      [await say(blocked, 'hi'), 403, /blocked/],
      [await say(pairing.token, 'hi'), 403, /pairing pending/],
    ]
    for (const [res, status, reason] of refused) {
      expect(res.status).toBe(status)
      expect(((await res.json()) as { error: string }).error).toMatch(reason)
    }
    expect((await SseReader.connect(world.home.url, blocked)).status).toBe(403)
    await say(good, 'only me')
    await c.waitForEvents(1)
    await new Promise((r) => setTimeout(r, 200))
    expect(c.events.map((e) => e.content)).toEqual(['only me'])
  })

  it('pairs a device: its messages arrive once the CLI approves the code', async () => {
    const c = await channel()
    const res = await post('/pair', '')
    expect(res.status).toBe(201)
    const { code, token } = (await res.json()) as { code: string; token: string }
    expect((await say(token, 'before')).status).toBe(403)
    const out = await world.home.cli('pair', code, '--name', 'phone')
    expect(out).toMatch(/"phone" may now send/)
    expect((await say(token, 'after')).status).toBe(202)
    const [event] = await c.waitForEvents(1)
    expect(event).toMatchObject({ content: 'after', meta: expect.objectContaining({ sender: 'phone' }) })
    expect((await world.home.cliFails('pair', code)).stderr).toMatch(/no pending pairing request/)
  })

  it('holds at most three pending pairing requests', async () => {
    await channel()
    for (let i = 0; i < 3; i++) expect((await post('/pair', '')).status).toBe(201)
    const fourth = await post('/pair', '')
    expect(fourth.status).toBe(429)
    expect(((await fourth.json()) as { error: string }).error).toMatch(/at most 3/)
  })
})

describe('permission relay', () => {
  const request = {
    request_id: 'abcde',
    tool_name: 'Bash',
    description: 'Create a marker file',
    input_preview: '{"command":"touch marker"}',
  }

  it('declares the relay from the start, with no operator yet and before the hub answered', async () => {
    const first = await channel(['--name', 'a'])
    expect(first.capabilities()?.experimental).toEqual({
      'claude/channel': {},
      'claude/channel/permission': {},
    })
    expect(first.client.getInstructions()).toMatch(/reply tool with the chat_id/)
    // A prompt relayed while nobody may answer it waits: a sender who is no operator cannot.
    const chatter = await world.home.addSender('dave')
    await first.sendPermissionRequest(request)
    await waitFor(
      async () => JSON.parse(await world.home.cli('status', '--json')).openDecisions === 1,
      10_000,
      'the prompt',
    )
    const refused = await fetch(`${world.home.url}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${chatter}` },
      body: 'yes abcde',
    })
    expect(refused.status).toBe(403)
    expect(first.verdicts).toEqual([])
  })

  it('shows the prompt to operators and turns "yes <id>" into an allow verdict; the first answer wins', async () => {
    const operator = await world.home.addSender('ops', true)
    const chatter = await world.home.addSender('dave')
    const c = await channel(['--name', 'work'])
    const ops = await stream(operator)
    await c.sendPermissionRequest(request)
    const prompt = await ops.waitFor('permission')
    expect(prompt.data).toMatchObject({ id: 'abcde', tool_name: 'Bash', session: 'work' })
    expect((prompt.data as { text: string }).text).toMatch(/Create a marker file.*yes abcde/)

    const notOperator = await say(chatter, 'yes abcde')
    expect(notOperator.status).toBe(403)
    const wrongId = await say(operator, 'yes zzzzz')
    expect(wrongId.status).toBe(404)
    expect(((await wrongId.json()) as { error: string }).error).toMatch(/no open permission request "zzzzz"/)

    const yes = await say(operator, '  YES abcde ')
    expect(yes.status).toBe(200)
    await waitFor(() => c.verdicts.length === 1, 5_000, 'the verdict')
    expect(c.verdicts).toEqual([{ request_id: 'abcde', behavior: 'allow' }])

    const late = await say(operator, 'no abcde')
    expect(late.status).toBe(404)
    await new Promise((r) => setTimeout(r, 200))
    expect(c.verdicts).toHaveLength(1)
    expect(c.events).toHaveLength(0) // verdicts are never forwarded as chat

    const store = openSqliteStore(join(world.home.dir, 'switchboard.db'))
    const decisions = await store.listDecisions({ kind: 'permission' })
    await store.close()
    expect(decisions).toEqual([
      expect.objectContaining({
        code: 'abcde',
        status: 'answered',
        answeredBy: 'ops',
        answer: { behavior: 'allow' },
      }),
    ])
  })

  it('turns "no <id>" into a deny verdict', async () => {
    const operator = await world.home.addSender('ops', true)
    const c = await channel()
    const ops = await stream(operator)
    await c.sendPermissionRequest({ ...request, request_id: 'qwert' })
    await ops.waitFor('permission')
    expect((await say(operator, 'n qwert')).status).toBe(200)
    await waitFor(() => c.verdicts.length === 1, 5_000, 'the verdict')
    expect(c.verdicts).toEqual([{ request_id: 'qwert', behavior: 'deny' }])
  })
})

describe('durability and process lifetime', () => {
  it('delivers every queued event in order, none twice, after the hub is killed and restarted', async () => {
    const secret = await world.home.addSource('ci')
    const c = await channel(['--name', 'durable'])
    await post('/hooks/ci', 'warm-up', { authorization: `Bearer ${secret}` })
    await c.waitForEvents(1)

    const channelPid = c.pid ?? 0
    process.kill(channelPid, 'SIGSTOP') // the channel stops reading: what the hub sends stays unacknowledged
    const ids: string[] = []
    try {
      for (let i = 1; i <= 20; i++) {
        const res = await post('/hooks/ci', `queued ${i}`, { authorization: `Bearer ${secret}` })
        expect(res.status).toBe(202)
        ids.push(((await res.json()) as { id: string }).id)
      }
      await world.home.stopHub('SIGKILL')
      // The same hub again: its home's settings too (the tests' routing takes every event; started
      // without them, an event of the unbound source would wait for a project, as it should).
      const hub = spawn(process.execPath, [CLI, 'serve'], {
        env: world.home.env,
        detached: true,
        stdio: 'ignore',
      })
      hub.unref()
      await world.home.waitForHub(10_000)
    } finally {
      process.kill(channelPid, 'SIGCONT')
    }
    await c.waitForEvents(21, 15_000)
    // Posted once the channel is back on the new hub (the 21 may have come from the old one's
    // connection, read after SIGCONT), so the event goes the way every later one will.
    await waitFor(
      async () =>
        (await world.home.api('channels')).channels.some((ch) => ch.name === 'durable' && ch.connected),
      15_000,
      'the channel connected to the new hub',
    )
    expect((await post('/hooks/ci', 'after restart', { authorization: `Bearer ${secret}` })).status).toBe(202)
    await c.waitForEvents(22, 15_000)
    await new Promise((r) => setTimeout(r, 300))
    const got = c.events.map((e) => e.meta?.event_id)
    expect(c.events.map((e) => e.content)).toEqual([
      'warm-up',
      ...ids.map((_, i) => `queued ${i + 1}`),
      'after restart',
    ])
    expect(new Set(got).size).toBe(got.length)
  })

  it('keeps events that arrive before any session subscribes, and hands them to the session that comes', async () => {
    const secret = await world.home.addSource('ci')
    const first = await channel(['--name', 'only-github', '--topics', 'github'])
    await post('/hooks/ci', 'waiting for someone', { authorization: `Bearer ${secret}` })
    await new Promise((r) => setTimeout(r, 200))
    expect(first.events).toHaveLength(0)
    const second = await channel(['--name', 'ci-watcher', '--topics', 'ci'])
    const [event] = await second.waitForEvents(1)
    expect(event?.content).toBe('waiting for someone')
  })

  it('keeps its secrets readable by their owner only', async () => {
    await world.home.addSource('ci')
    await channel()
    const mode = (name: string) => statSync(join(world.home.dir, name)).mode & 0o777
    expect(mode('admin-token')).toBe(0o600)
    expect(mode('switchboard.db')).toBe(0o600)
    expect(mode(`hub-${world.home.port}.sock`)).toBe(0o600)
  })

  it('starts one hub when two channels start at once, and leaves no channel process behind', async () => {
    const secret = await world.home.addSource('ci')
    const both = await Promise.all([channel(), channel()])
    await waitFor(() => hubProcesses() === 1, 5_000, 'one hub process')
    await post('/hooks/ci', 'to everyone', { authorization: `Bearer ${secret}` })
    for (const c of both) expect((await c.waitForEvents(1))[0]?.content).toBe('to everyone')
    await new Promise((r) => setTimeout(r, 500))
    expect(hubProcesses()).toBe(1)

    const pids = both.map((c) => c.pid ?? 0)
    for (const c of both) await c.close()
    await waitFor(() => pids.every((p) => !alive(p)), 5_000, 'channels to exit')
  })

  it('lists a channel its session has not set up yet without a rung, and with one once it has', async () => {
    const channelsNow = async () => {
      const token = readFileSync(join(world.home.dir, 'admin-token'), 'utf8').trim()
      const res = await fetch(`${world.home.url}/api/channels`, {
        headers: { authorization: `Bearer ${token}` },
      })
      return ((await res.json()) as { channels: { name: string; connected: boolean; rung: string | null }[] })
        .channels
    }
    // A channel whose MCP client has not initialized it (a session still starting): Claude Code would
    // drop what it wrote, and a test that sends its first line now would race that.
    const starting = spawn(process.execPath, [CLI, 'channel', '--name', 'starting'], {
      env: world.home.env,
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    world.opened.push({ close: () => void starting.kill() })
    await world.home.waitForHub()
    await waitFor(
      async () => (await channelsNow()).some((c) => c.name === 'starting' && c.connected),
      10_000,
      'the starting channel to connect',
    )
    await channel(['--name', 'ready'])
    await waitFor(
      async () => (await channelsNow()).some((c) => c.name === 'ready' && c.rung === 'channel'),
      10_000,
      'the rung of the initialized channel',
    )
    expect((await channelsNow()).find((c) => c.name === 'starting')).toMatchObject({
      connected: true,
      rung: null,
    })
  })
})

describe('clients without channels', () => {
  it('get notifications/message with an actionable line, and read the event through inbox', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js')
    const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js')
    const secret = await world.home.addSource('alerts')
    const client = new Client({ name: 'visual-studio-code', version: '1.0.0' })
    const lines: string[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      lines.push(String(params.data))
    })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'channel', '--name', 'editor'],
      env: world.home.env as Record<string, string>,
      stderr: 'ignore',
    })
    await client.connect(transport)
    world.opened.push(client)
    expect(client.getServerCapabilities()?.logging).toEqual({})
    await world.home.waitForHub() // the channel answered its client before its hub did
    const res = await post('/hooks/alerts', 'disk full on db-1', { authorization: `Bearer ${secret}` })
    const { id } = (await res.json()) as { id: string }
    await waitFor(() => lines.length === 1, 10_000, 'the log message')
    expect(lines[0]).toMatch(new RegExp(`New event ${id} from alerts .*call the inbox tool`))
    const inbox = await client.callTool({ name: 'inbox', arguments: {} })
    expect(JSON.parse((inbox.content as { text: string }[])[0]?.text ?? '[]')).toEqual([
      expect.objectContaining({ event_id: id, content: 'disk full on db-1', origin: 'alerts' }),
    ])
  })
})
