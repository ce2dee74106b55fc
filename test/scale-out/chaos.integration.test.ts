// The delivery promise with two hubs on one database: one sender, each event retried (with its
// idempotency key) on whichever hub answers, while each hub in turn and the channel are SIGKILLed
// and started again. Counted from the MCP client: every accepted event once, in order.
import { expect, it } from 'vitest'
import { ChannelClient } from '../helpers/channel-client.js'
import { waitFor } from '../helpers/home.js'
import { type ClusterHub, clusterPerTest } from '../helpers/hub-cluster.js'

const EVENTS = 600
/** Kill points: the hub (by turn) or the channel, at these events. */
const KILLS: [number, 'hub' | 'channel'][] = [
  [80, 'hub'],
  [180, 'channel'],
  [250, 'hub'],
  [390, 'hub'],
  [460, 'channel'],
  [520, 'hub'],
]

const world = clusterPerTest(2, { SWITCHBOARD_LEASE_MS: '1500' })

// Four kills, each waited out by a lease of 1.5 s and a restart: 15 s on a quiet machine, twice that
// and more when other test files share its two cores (seen in CI).
it('loses, repeats and reorders nothing while hubs and the channel are killed in turn', {
  timeout: 120_000,
}, async () => {
  const { cluster } = world
  const [a, b] = [cluster.hub(0), cluster.hub(1)]
  await cluster.startAll()
  const secret = await a.home.addSource('chaos')
  /** Every channel started, in turn: what the client saw is theirs, one after the other. */
  const channels: ChannelClient[] = []
  // Read from each client's own record, kept from its first message: a channel started again hands
  // over its backlog the moment it is ready, before a test could attach a listener.
  const seen = () =>
    channels.flatMap((c) => c.events.map((e) => Number(/^chaos (\d+)$/.exec(e.content)?.[1])))
  const startChannel = async () => {
    const channel = await ChannelClient.start(a.home, ['--name', 'chaos', '--topics', 'chaos'], {
      SWITCHBOARD_HUBS: cluster.hubsList(),
    })
    channels.push(channel)
    world.opened.push(channel)
    return channel
  }
  let channel = await startChannel()
  await waitFor(async () => (await a.home.cli('status', '--json')).includes('"chaos"'), 10_000, 'the channel')

  /** Posts event i until a hub accepts it: the live ones in turn, as a load balancer would. */
  const send = async (i: number) => {
    for (let attempt = 0; ; attempt++) {
      const hub = [a, b][(i + attempt) % 2] as ClusterHub
      const answer = await fetch(`${hub.url}/hooks/chaos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'idempotency-key': `k${i}` },
        body: `chaos ${i}`,
        signal: AbortSignal.timeout(5_000),
      }).catch(() => null)
      if (answer?.status === 202 || answer?.status === 200) return
      if (attempt > 200) throw new Error(`event ${i} refused everywhere`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  let turn = 0
  const kills = new Map(KILLS)
  let killing = Promise.resolve()
  for (let i = 0; i < EVENTS; i++) {
    const what = kills.get(i)
    if (what === 'hub') {
      const victim = [a, b][turn++ % 2] as ClusterHub
      killing = killing.then(async () => {
        await victim.kill()
        await victim.start()
      })
    }
    if (what === 'channel')
      killing = killing.then(async () => {
        if (channel.pid) process.kill(channel.pid, 'SIGKILL')
        await channel.close().catch(() => {})
        channel = await startChannel()
      })
    await send(i)
  }
  await killing
  const missing = () => {
    const got = new Set(seen())
    return Array.from({ length: EVENTS }, (_, i) => i).filter((i) => !got.has(i))
  }
  await waitFor(() => missing().length === 0, 30_000, `all ${EVENTS} events at the client`).catch((err) => {
    throw new Error(`${(err as Error).message}; missing ${JSON.stringify(missing())}`)
  })
  const got = seen()
  const shownTwice = got.filter((n, k) => got.indexOf(n) !== k)
  expect(shownTwice).toEqual([])
  expect(got).toEqual(Array.from({ length: EVENTS }, (_, i) => i))
})
