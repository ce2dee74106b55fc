// Several hubs on one Postgres database: whatever hub an event, an answer or a reply comes in on,
// it reaches the subscriber or sender connected to another, once and in order; a channel given
// several hubs moves when its hub is killed; status and doctor show the hubs.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import pg from 'pg'
import { expect, it } from 'vitest'
import { ChannelClient } from '../helpers/channel-client.js'
import { CLI, waitFor } from '../helpers/home.js'
import { clusterPerTest } from '../helpers/hub-cluster.js'
import { SseReader } from '../helpers/sse.js'

const world = clusterPerTest(3)

const post = (url: string, secret: string, body: string) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body }).then((r) => r.status)

it('delivers what was published on one hub to a channel connected to another, in order, once', async () => {
  const [a, b, c] = [world.cluster.hub(0), world.cluster.hub(1), world.cluster.hub(2)]
  await world.cluster.startAll()
  // Set up on one home; every hub sees it, since they share the database.
  const secret = await a.home.addSource('ci')
  const channel = await ChannelClient.start(a.home, ['--name', 'watcher', '--topics', 'ci'])
  world.opened.push(channel)
  await waitFor(
    async () => (await a.home.cli('status', '--json')).includes('"watcher"'),
    10_000,
    'the channel',
  )

  for (let i = 0; i < 60; i++) {
    const via = [b, c, a][i % 3]
    expect(await post(`${via?.url}/hooks/ci`, secret, `build ${i}`)).toBe(202)
  }
  await waitFor(() => channel.events.length >= 60, 15_000, '60 events')
  expect(channel.events.map((e) => e.content)).toEqual(Array.from({ length: 60 }, (_, i) => `build ${i}`))
  // Each hub knows the others, and which of them delivers to the channel.
  const status = JSON.parse(await b.home.cli('status', '--json')) as {
    database: string
    hubs: { address: string; self: boolean; subscribers: number }[]
  }
  expect(status.database).toBe('postgres')
  expect(status.hubs.map((h) => h.address).sort()).toEqual([a.address, b.address, c.address].sort())
  expect(status.hubs.find((h) => h.self)?.address).toBe(b.address)
  expect(status.hubs.find((h) => h.address === a.address)?.subscribers).toBe(1)
  // A secret rotated through one hub is refused by the others too, which had read the old one.
  const rotated = /secret: (\S+)/.exec(await a.home.cli('source', 'rotate', 'ci'))?.[1] as string
  for (const other of [b, c])
    await waitFor(
      async () => (await post(`${other.url}/hooks/ci`, secret, 'stale')) === 401,
      10_000,
      'a refusal',
    )
  expect(await post(`${b.url}/hooks/ci`, rotated, 'build 60')).toBe(202)
})

// Three hubs, a kill and a lease to wait out: 7 s quiet, over 30 s with the machine's cores shared (seen in CI).
it('moves a channel given several hubs to another when its hub is killed, losing and repeating nothing', {
  timeout: 120_000,
}, async () => {
  const [a, b, c] = [world.cluster.hub(0), world.cluster.hub(1), world.cluster.hub(2)]
  await world.cluster.startAll()
  const secret = await b.home.addSource('load')
  const channel = await ChannelClient.start(a.home, ['--name', 'watcher', '--topics', 'load'], {
    SWITCHBOARD_HUBS: world.cluster.hubsList([0, 1, 2]),
  })
  world.opened.push(channel)
  await waitFor(
    async () => (await a.home.cli('status', '--json')).includes('"watcher"'),
    10_000,
    'the channel',
  )

  // Two publishers at once, one on each surviving hub, each waiting for its 202 before its next
  // event: each one's order is the order Claude must see, and their commits interleave.
  const perPublisher = 150
  const total = perPublisher * 2
  let killed = false
  channel.onEvent = () => {
    if (!killed && channel.events.length === 100) {
      killed = true
      void a.kill()
    }
  }
  const publish = async (via: typeof b, who: string) => {
    for (let i = 0; i < perPublisher; i++)
      expect(await post(`${via.url}/hooks/load`, secret, `${who} ${i}`)).toBe(202)
  }
  await Promise.all([publish(b, 'x'), publish(c, 'y')])
  await waitFor(() => channel.events.length >= total, 20_000, `${total} events`)
  expect(killed).toBe(true)
  const seen = channel.events.map((e) => e.content)
  expect(seen).toHaveLength(total)
  for (const who of ['x', 'y'])
    expect(seen.filter((c) => c.startsWith(`${who} `))).toEqual(
      Array.from({ length: perPublisher }, (_, i) => `${who} ${i}`),
    )
  // Now on a surviving hub.
  const status = JSON.parse(await b.home.cli('status', '--json')) as { connected: { name: string }[] }
  const onC = JSON.parse(await c.home.cli('status', '--json')) as { connected: { name: string }[] }
  expect([...status.connected, ...onC.connected].map((s) => s.name)).toContain('watcher')
})

it('relays a permission answered on another hub to the channel that asked', async () => {
  const [a, b] = [world.cluster.hub(0), world.cluster.hub(1)]
  await Promise.all([a.start(), b.start()])
  await a.home.addSender('ops', true) // a prompt needs an operator to put it to
  const channel = await ChannelClient.start(a.home, ['--name', 'builder'])
  world.opened.push(channel)
  await waitFor(
    async () => (await a.home.cli('status', '--json')).includes('"builder"'),
    10_000,
    'the channel',
  )
  await channel.sendPermissionRequest({
    request_id: 'qwert',
    tool_name: 'Bash',
    description: 'list files',
    input_preview: '{"command":"ls"}',
  })
  // Answered at the terminal of a machine whose hub is b, once the prompt is stored.
  await waitFor(
    () =>
      b.home.cli('answer', 'qwert', 'yes').then(
        () => true,
        () => false,
      ),
    10_000,
    'the prompt answered on b',
  )
  await waitFor(() => channel.verdicts.length > 0, 10_000, 'the verdict')
  expect(channel.verdicts).toEqual([{ request_id: 'qwert', behavior: 'allow' }])
})

it('gives a second channel of the same name on another hub a name of its own, as one hub does', async () => {
  const [a, b] = [world.cluster.hub(0), world.cluster.hub(1)]
  await Promise.all([a.start(), b.start()])
  const first = await ChannelClient.start(a.home, ['--name', 'app'])
  world.opened.push(first)
  await waitFor(async () => (await a.home.cli('status', '--json')).includes('"app"'), 10_000, 'the first')
  const second = await ChannelClient.start(b.home, ['--name', 'app'])
  world.opened.push(second)
  await waitFor(async () => (await b.home.cli('status', '--json')).includes('"app-2"'), 10_000, 'the second')
  // Neither pushed the other out.
  await new Promise((resolve) => setTimeout(resolve, 500))
  const connected = async (h: typeof a) =>
    (JSON.parse(await h.home.cli('status', '--json')) as { connected: { name: string }[] }).connected.map(
      (c) => c.name,
    )
  expect([await connected(a), await connected(b)]).toEqual([['app'], ['app-2']])
})

it('brings Claude’s reply to the sender’s stream on another hub', async () => {
  const [a, b] = [world.cluster.hub(0), world.cluster.hub(1)]
  await Promise.all([a.start(), b.start()])
  const token = await a.home.addSender('alice')
  const channel = await ChannelClient.start(a.home, ['--name', 'assistant'])
  world.opened.push(channel)
  await waitFor(
    async () => (await a.home.cli('status', '--json')).includes('"assistant"'),
    10_000,
    'the channel',
  )
  // Alice talks to hub b only; the session's channel is on hub a.
  const replies = await SseReader.open(b.url, token)
  try {
    const sent = await fetch(`${b.url}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: 'hello claude',
    })
    expect(sent.status).toBe(202)
    const [event] = await channel.waitForEvents(1)
    const chatId = event?.meta?.chat_id ?? ''
    expect((await channel.callTool('reply', { chat_id: chatId, text: 'hello alice' })).isError).toBeFalsy()
    const reply = await replies.waitFor('reply')
    expect(reply.data).toMatchObject({ chat_id: chatId, text: 'hello alice' })
  } finally {
    await replies.close()
  }
})

it('has doctor name the database and the hubs alive on it, or say it cannot reach it, and write nothing to it', async () => {
  const [a, b] = [world.cluster.hub(0), world.cluster.hub(1)]
  const doctor = async (env: Record<string, string> = {}) => {
    const run = promisify(execFile)
    const out = await run(process.execPath, [CLI, 'doctor', '--json'], {
      env: { ...a.home.env, ...env },
    }).catch((err: { stdout: string }) => err)
    const report = JSON.parse(out.stdout) as { checks: { name: string; verdict: string; detail: string }[] }
    return report.checks.find((c) => c.name === 'database')
  }
  // Before any hub: reached, no hub alive, and the database is left as it was (doctor does not
  // open the store, which would make its tables).
  expect(await doctor()).toMatchObject({ verdict: 'ok', detail: expect.stringContaining('0 hubs alive') })
  const db = new pg.Client({ connectionString: world.cluster.databaseUrl })
  await db.connect()
  const tables = await db
    .query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'")
    .finally(() => db.end())
  expect(tables.rows[0]?.n).toBe(0)
  await Promise.all([a.start(), b.start()])
  const found = await doctor()
  expect(found?.verdict).toBe('ok')
  expect(found?.detail).toContain('2 hubs alive')
  expect(found?.detail).toContain(a.address)
  const down = await doctor({ SWITCHBOARD_DATABASE_URL: 'postgres://127.0.0.1:1/nowhere' })
  expect(down).toMatchObject({ verdict: 'problem' })
  expect(down?.detail).toContain('ECONNREFUSED')
})
