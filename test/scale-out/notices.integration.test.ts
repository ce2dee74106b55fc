// What a Postgres role with no rights on any table can do with NOTIFY on the hubs' channel: wake
// them, nothing more. It forges a lease seizure, a reply stored for a sender, and payloads no hub
// sends; every hub lives on, no channel is dropped, no lease changes hands, nothing is shown twice.
import pg from 'pg'
import { expect, it } from 'vitest'
import { ChannelClient } from '../helpers/channel-client.js'
import { alive, waitFor } from '../helpers/home.js'
import { clusterPerTest } from '../helpers/hub-cluster.js'
import { SseReader } from '../helpers/sse.js'

const world = clusterPerTest(2)

/** The database as its owner sees it (the hubs' own role). */
async function owner<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: world.cluster.databaseUrl })
  await db.connect()
  try {
    return await work(db)
  } finally {
    await db.end()
  }
}

/** A role that may connect and NOTIFY, and read or write no table. */
async function mallory(): Promise<pg.Client> {
  await owner(async (db) => {
    await db.query(`DO $$ BEGIN CREATE ROLE mallory LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`)
  })
  const db = new pg.Client({
    connectionString: world.cluster.databaseUrl.replace('//postgres@', '//mallory@'),
  })
  await db.connect()
  world.opened.push({ close: () => db.end() })
  await expect(db.query('SELECT * FROM leases')).rejects.toThrow(/permission denied/)
  return db
}

const forge = (db: pg.Client, payload: string) =>
  db.query('SELECT pg_notify($1, $2)', ['switchboard_changes', payload])

const lease = (name: string) =>
  owner(async (db) => (await db.query('SELECT holder, epoch FROM leases WHERE name = $1', [name])).rows[0])

it('keeps every hub up and every channel connected whatever a role without table rights NOTIFYs', async () => {
  const [a, b] = [world.cluster.hub(0), world.cluster.hub(1)]
  await Promise.all([a.start(), b.start()])
  const secret = await a.home.addSource('ci')
  const channel = await ChannelClient.start(a.home, ['--name', 'watcher', '--topics', 'ci'])
  world.opened.push(channel)
  await waitFor(
    async () => (await a.home.cli('status', '--json')).includes('"watcher"'),
    10_000,
    'the channel',
  )
  const held = await lease('subscriber:watcher')
  const statusB = JSON.parse(await b.home.cli('status', '--json')) as {
    hubs: { id: string; self: boolean }[]
  }
  const hubB = statusB.hubs.find((h) => h.self)?.id as string
  expect(hubB).toMatch(/^hub_/)

  const db = await mallory()
  for (const payload of [
    // The channel's lease, "seized" by hub b: a real seizure would end its connection on a.
    JSON.stringify({ area: 'lease', name: 'subscriber:watcher', holder: hubB, from: 'forged' }),
    JSON.stringify({ area: 'lease', name: 'subscriber:watcher', holder: 'hub_nobody', from: 'forged' }),
    // What no hub sends.
    JSON.stringify({ area: 'bogus', from: 'forged' }),
    JSON.stringify({ area: 'events', subscribers: 'watcher', from: 'forged' }),
    JSON.stringify({ area: 'outbox', senderId: {}, itemId: 'x', from: 'forged' }),
    JSON.stringify({ area: 'decisions', from: 'forged' }),
    JSON.stringify({ area: 'lease', name: 7, from: 'forged' }),
    'null',
    '1',
    '[]',
    'not json',
  ])
    await forge(db, payload)

  // A real event after them: by the time it is shown, the hubs have heard every forged notice.
  const posted = await fetch(`${b.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'after the forgeries',
  })
  expect(posted.status).toBe(202)
  await channel.waitForEvents(1)
  expect(channel.events.map((e) => e.content)).toEqual(['after the forgeries'])

  for (const hub of [a, b]) expect(alive(hub.process?.pid ?? 0)).toBe(true)
  expect(await lease('subscriber:watcher')).toEqual(held)
  expect(a.log.join('')).not.toContain('its connection here ends')
  expect(channel.stderr.join('')).not.toMatch(/reconnect|connection (closed|lost)/i)
  const status = JSON.parse(await a.home.cli('status', '--json')) as { connected: { name: string }[] }
  expect(status.connected.map((c) => c.name)).toEqual(['watcher'])
})

it('shows a sender nothing twice when a reply stored for it is announced again by a forger', async () => {
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
  // Alice listens on hub b; the reply is stored by hub a, where the channel is.
  const replies = await SseReader.open(b.url, token)
  world.opened.push(replies)
  const said = async (text: string) => {
    const sent = await fetch(`${b.url}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: text,
    })
    expect(sent.status).toBe(202)
  }
  await said('hello claude')
  const [event] = await channel.waitForEvents(1)
  const chatId = event?.meta?.chat_id ?? ''
  await channel.callTool('reply', { chat_id: chatId, text: 'first reply' })
  const first = await replies.waitFor('reply')

  const { senderId } = await owner(
    async (db) => (await db.query(`SELECT id AS "senderId" FROM senders WHERE name = 'alice'`)).rows[0],
  )
  const db = await mallory()
  await forge(db, JSON.stringify({ area: 'outbox', senderId, itemId: Number(first.id), from: 'forged' }))
  await forge(db, JSON.stringify({ area: 'outbox', senderId, itemId: 1, from: 'forged' }))
  await channel.callTool('reply', { chat_id: chatId, text: 'second reply' })
  await waitFor(() => replies.messages.length >= 2, 10_000, 'the second reply')
  // Anything the forgeries had written would be on the stream before the second reply.
  expect(replies.messages.map((m) => (m.data as { text: string }).text)).toEqual([
    'first reply',
    'second reply',
  ])
})
