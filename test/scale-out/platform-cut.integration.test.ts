// A hub cut off from its chat platform while it keeps the database hands the bridge to a hub that
// reaches the platform (issue 37): two hubs on one Postgres, one fake Telegram, and each hub's own
// way to it through a link the test cuts, silently (connections hang) or refused. What is raised
// after the cut reaches the chat once, what a person writes during it reaches the session once, and
// once the link heals the cut-off hub stays a follower.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { PLATFORM_LOST_MIN_MS } from '../../src/core/settings/table.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import type { Lease } from '../../src/store/store.js'
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.js'
import { botMessages, bridgeAddArgs, person } from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { waitFor } from '../helpers/home.js'
import { type ClusterHub, clusterPerTest } from '../helpers/hub-cluster.js'
import { type Cut, Relay } from '../helpers/relay.js'

// Short leases, and a platform given up on as soon as the setting allows (SWITCHBOARD_PLATFORM_LOST_MS).
const LEASE_MS = 1500
const world = clusterPerTest(2, {
  SWITCHBOARD_LEASE_MS: String(LEASE_MS),
  SWITCHBOARD_PLATFORM_LOST_MS: String(PLATFORM_LOST_MIN_MS),
})
let telegram: FakeTelegram
/** Each hub's own way to Telegram, by the hub's index. */
let links: Relay[]

beforeEach(async () => {
  telegram = await startFakeTelegram()
  const at = new URL(telegram.credentials.apiUrl as string)
  links = [
    await Relay.start({ host: at.hostname, port: Number(at.port) }),
    await Relay.start({ host: at.hostname, port: Number(at.port) }),
  ]
})
afterEach(async () => {
  for (const link of links) await link.close()
  await telegram.close()
})

/** Every lease on the database now, as any hub would read them. */
async function leases(): Promise<Lease[]> {
  const store = await openPostgresStore(world.cluster.databaseUrl)
  try {
    return await store.listLeases('')
  } finally {
    await store.close()
  }
}

/** The hub's own lease (`hub:<id>`), found by the address it stated. */
async function hubLeaseOf(hub: ClusterHub): Promise<Lease> {
  const own = (await leases()).find((l) => l.name.startsWith('hub:') && l.note?.split('#')[0] === hub.address)
  if (!own) throw new Error(`no lease of ${hub.address}`)
  return own
}

/** The hub that holds the Telegram bridge's lease now, or null. */
async function bridgeHolder(): Promise<ClusterHub | null> {
  const all = await leases()
  const held = all.find((l) => l.name === 'bridge:telegram' && l.expiresAt > Date.now())
  const hub = all.find((l) => l.name === `hub:${held?.holder}`)
  return world.cluster.hubs.find((h) => h.address === hub?.note?.split('#')[0]) ?? null
}

for (const how of ['silent', 'refused'] as Cut[])
  it(`moves the bridge to the hub that reaches Telegram when the other's link is cut (${how}), and sends once`, async () => {
    const [a, b] = [world.cluster.hub(0), world.cluster.hub(1)]
    for (const [i, h] of world.cluster.hubs.entries()) {
      const args = bridgeAddArgs(telegram)
      args[args.length - 1] = `http://${links[i]?.address}`
      await h.home.cli(...args)
    }
    await a.start()
    await waitFor(async () => (await bridgeHolder()) === a, 15_000, 'hub A to run the bridge')
    await b.start()
    const alice = person('telegram', 1, 'Alice')
    await a.home.cli('access', 'allow', `telegram:${alice.id}`, '--operator')
    const dm = telegram.dmChatOf(alice.id)
    const claude = await ChannelClient.inFolder(a.home, 'proj')
    world.opened.push(claude)
    await telegram.dm(alice, 'before the cut')
    const first = await telegram.waitFor(
      () => claude.events.find((e) => e.content.includes('before the cut')),
      'the line before the cut',
    )

    // Hub A keeps the database and the session; only its way to Telegram is cut.
    await links[0]?.cutOff(how)
    await telegram.dm(alice, 'written during the cut')
    await claude.sendPermissionRequest({
      request_id: 'hjkmn',
      tool_name: 'Bash',
      description: 'run the tests',
      input_preview: '{"command":"npm test"}',
    })
    // Hub A stores the reply and, its platform away, says it is queued.
    const replied = claude.callTool('reply', { chat_id: first.meta?.chat_id, text: 'a reply after the cut' })

    await waitFor(async () => (await bridgeHolder()) === b, 30_000, 'hub B to take the bridge')
    await telegram.waitFor(
      () => botMessages(telegram, dm).find((m) => m.text.includes('a reply after the cut')),
      'the reply, from hub B',
      20_000,
    )
    await telegram.waitFor(
      () => botMessages(telegram, dm).find((m) => m.text.includes('$ npm test')),
      'the prompt, from hub B',
    )
    await telegram.waitFor(
      () => claude.events.find((e) => e.content.includes('written during the cut')),
      'the line written during the cut',
    )
    await replied

    // The link heals. Hub A stands aside for a while after giving the bridge up; once its renewals
    // show it has ticked past that (its own lease renewed well after), it is still a follower.
    const healed = Date.now()
    await links[0]?.heal()
    await waitFor(
      async () => (await hubLeaseOf(a)).expiresAt > healed + 4 * LEASE_MS,
      30_000,
      'hub A to renew its leases long after the link healed',
    )
    expect(await bridgeHolder()).toBe(b)
    expect(JSON.parse(await a.home.cli('status', '--json')).bridges).toEqual([])
    // Hub B sends what comes next.
    await claude.callTool('reply', { chat_id: first.meta?.chat_id, text: 'after the heal' })
    await telegram.waitFor(
      () => botMessages(telegram, dm).find((m) => m.text.includes('after the heal')),
      'a reply after the heal',
    )
    const said = botMessages(telegram, dm).map((m) => m.text)
    expect(said.filter((t) => t.includes('a reply after the cut'))).toHaveLength(1)
    expect(said.filter((t) => t.includes('$ npm test'))).toHaveLength(1)
    expect(claude.events.filter((e) => e.content.includes('written during the cut'))).toHaveLength(1)
    expect(claude.events.filter((e) => e.content.includes('before the cut'))).toHaveLength(1)
  }, 120_000)

it('keeps the bridge through one failed poll: Telegram is polled again before the platform counts as lost', async () => {
  const [a, b] = [world.cluster.hub(0), world.cluster.hub(1)]
  for (const h of world.cluster.hubs) await h.home.cli(...bridgeAddArgs(telegram))
  await a.start()
  await waitFor(async () => (await bridgeHolder()) === a, 15_000, 'hub A to run the bridge')
  await b.start()
  const said = () => a.log.join('')
  await waitFor(() => said().includes('Telegram polling works'), 15_000, 'hub A to poll Telegram')

  // One poll answered 502, as a proxy in the way does when it restarts; then Telegram answers again.
  const before = said().length
  telegram.setDown(true)
  await waitFor(() => said().includes('Telegram polling failed', before), 15_000, 'a failed poll')
  telegram.setDown(false)
  const after = said().length
  await waitFor(
    () => said().includes('Telegram polling works', after) || said().includes('has not answered', before),
    30_000,
    'hub A to poll Telegram again, or to give the bridge up',
  )
  expect(said().slice(before)).not.toContain('has not answered this hub in time')
  expect(await bridgeHolder()).toBe(a)
}, 120_000)
