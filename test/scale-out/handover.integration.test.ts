// Work only one hub may do at a time (a chat bridge's bot, outbound webhooks) runs on one of the hubs
// on a database, and moves to a surviving hub when that one is killed.
import { createServer, type Server } from 'node:http'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.js'
import { botMessages, bridgeAddArgs, person } from '../helpers/bridge-world.js'
import { waitFor } from '../helpers/home.js'
import { type ClusterHub, clusterPerTest } from '../helpers/hub-cluster.js'

// Short leases: a dead hub's work moves within about a second and a half.
const world = clusterPerTest(2, { SWITCHBOARD_LEASE_MS: '1500' })
let telegram: FakeTelegram
let receiver: Server
const received: string[] = []

beforeEach(async () => {
  telegram = await startFakeTelegram()
  received.length = 0
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      received.push((JSON.parse(body) as { content: string }).content)
      res.end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
})
afterEach(async () => {
  await telegram.close()
  receiver.close()
})

/** The hub holding a lease now, read from the database as any hub would. */
async function holderOf(lease: string): Promise<ClusterHub> {
  const store = await openPostgresStore(world.cluster.databaseUrl)
  try {
    const held = await store.getLease(lease)
    const hub = await store.getLease(`hub:${held?.holder}`)
    const found = world.cluster.hubs.find((h) => h.address === hub?.note)
    if (!found || !held || held.expiresAt < Date.now()) throw new Error(`no hub holds ${lease}`)
    return found
  } finally {
    await store.close()
  }
}

it('moves the chat bridge and the outbound webhooks to a surviving hub when theirs is killed', async () => {
  const [first, second] = [world.cluster.hub(0), world.cluster.hub(1)]
  // Every hub is given the same bridge, as a team would give each of its servers.
  for (const h of world.cluster.hubs) await h.home.cli(...bridgeAddArgs(telegram))
  await first.start()
  const port = (receiver.address() as { port: number }).port
  await first.home.cli('subscribe', '--url', `http://127.0.0.1:${port}/`, '--topics', 'deploys')
  const secret = await first.home.addSource('deploys')
  await second.start()

  // The first hub up took both; the second waits.
  const webhook = await listWebhook(first)
  expect(await eventually(() => holderOf('bridge:telegram'))).toBe(first)
  expect(await holderOf(`subscriber:${webhook}`)).toBe(first)
  const stranger = person('telegram', 1, 'Mallory')
  await telegram.dm(stranger, 'hi')
  await telegram.waitFor(
    () => botMessages(telegram, telegram.dmChatOf(stranger.id)).find((m) => /switchboard pair/.test(m.text)),
    'a pairing code from the first hub',
  )
  await post(second.url, secret, 'deploy 1')
  await waitFor(() => received.includes('deploy 1'), 10_000, 'the first POST')
  // POSTs are at least once: one killed between the receiver's answer and storing it is sent again.
  await eventually(async () => {
    if ((await pendingFor(webhook)) !== 0) throw new Error('not acknowledged yet')
  })

  await first.kill()
  const other = person('telegram', 2, 'Trudy')
  await telegram.dm(other, 'anyone there?')
  await telegram.waitFor(
    () => botMessages(telegram, telegram.dmChatOf(other.id)).find((m) => /switchboard pair/.test(m.text)),
    'a pairing code from the surviving hub',
    15_000,
  )
  expect(await holderOf('bridge:telegram')).toBe(second)
  await post(second.url, secret, 'deploy 2')
  await waitFor(() => received.includes('deploy 2'), 15_000, 'the POST after the handover')
  expect(await holderOf(`subscriber:${webhook}`)).toBe(second)
  expect(received.filter((c) => c === 'deploy 1' || c === 'deploy 2')).toEqual(['deploy 1', 'deploy 2'])
})

async function pendingFor(subscriber: string): Promise<number | undefined> {
  const store = await openPostgresStore(world.cluster.databaseUrl)
  try {
    return (await store.getSubscriber(subscriber))?.pending
  } finally {
    await store.close()
  }
}

async function post(url: string, secret: string, body: string) {
  const r = await fetch(`${url}/hooks/deploys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  expect(r.status).toBe(202)
}

async function listWebhook(hub: ClusterHub): Promise<string> {
  return (/(webhook:\S+)/.exec(await hub.home.cli('subscribe', 'list')) as RegExpExecArray)[1] as string
}

async function eventually<T>(get: () => Promise<T>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await get()
    } catch (err) {
      if (Date.now() > deadline) throw err
      await new Promise((r) => setTimeout(r, 50))
    }
  }
}

it('carries what the bridge remembers to the hub that takes it over', async () => {
  const [first, second] = [world.cluster.hub(0), world.cluster.hub(1)]
  for (const h of world.cluster.hubs) await h.home.cli(...bridgeAddArgs(telegram))
  await first.start()
  await second.start()
  expect(await eventually(() => holderOf('bridge:telegram'))).toBe(first)
  const stranger = person('telegram', 1, 'Mallory')
  const chat = telegram.dmChatOf(stranger.id)
  await telegram.dm(stranger, 'hi')
  await telegram.waitFor(() => botMessages(telegram, chat)[0], 'the code')
  await telegram.dm(stranger, 'hello?')
  await telegram.waitFor(() => botMessages(telegram, chat)[1], 'the reminder')

  await first.kill()
  await telegram.dm(stranger, 'anyone?')
  // Taken in order: once Trudy has her code, the surviving hub has taken Mallory's message too.
  const other = person('telegram', 2, 'Trudy')
  await telegram.dm(other, 'me too')
  await telegram.waitFor(
    () => botMessages(telegram, telegram.dmChatOf(other.id))[0],
    'a pairing code from the surviving hub',
    15_000,
  )
  expect(await holderOf('bridge:telegram')).toBe(second)
  expect(botMessages(telegram, chat)).toHaveLength(2) // the code and one reminder, across both hubs
})
