// An event's receipts as people and senders read them (issue 23): `switchboard events show`, the
// admin API, and a webhook sender with its own source's secret, which reads its own events only.
import { expect, it } from 'vitest'
import { ChannelClient } from './helpers/channel-client.js'
import { waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

async function hook(source: string, secret: string, body: string): Promise<string> {
  const res = await fetch(`${world.home.url}/hooks/${source}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  expect(res.status).toBe(202)
  return ((await res.json()) as { id: string }).id
}

it('shows an event with each delivery: stored, then written at the ack of a channel that proves no more', async () => {
  const secret = await world.home.addSource('ci')
  const c = await ChannelClient.start(world.home, ['--name', 'plain'])
  world.opened.push(c)
  await world.home.waitForHub()
  const id = await hook('ci', secret, 'build 9 failed')
  await c.waitForEvents(1)
  await waitFor(async () => (await world.home.pending('plain')) === 0, 10_000, 'the ack')

  let json: { event: { id: string }; deliveries: Record<string, unknown>[] } = {
    event: { id: '' },
    deliveries: [],
  }
  await waitFor(
    async () => {
      json = JSON.parse(await world.home.cli('events', 'show', id, '--json'))
      return json.deliveries[0]?.state === 'written'
    },
    10_000,
    'the written receipt',
  )
  expect(json.event.id).toBe(id)
  expect(json.deliveries).toEqual([
    {
      subscriber: 'plain',
      state: 'written',
      stored: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      written: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      in_context: null,
      tries: 1,
      reason: null,
    },
  ])
  const text = await world.home.cli('events', 'show', id)
  expect(text).toContain(`${id}\tci\tfrom ci`)
  expect(text).toMatch(/plain\twritten\tstored ✓ \S+\twritten ✓ \S+\tin context ·\ttries 1/)

  const missing = await world.home.cliFails('events', 'show', 'ev_nosuchevent')
  expect(missing.code).not.toBe(0)
  expect(missing.stderr.trim()).toBe('switchboard: no event "ev_nosuchevent"')
})

it("lets a webhook sender read its own event's receipts with its secret, and nobody else's", async () => {
  const ci = await world.home.addSource('ci')
  const other = await world.home.addSource('other')
  const c = await ChannelClient.start(world.home, ['--name', 'plain'])
  world.opened.push(c)
  await world.home.waitForHub()
  const id = await hook('ci', ci, 'deploy done')
  const read = (source: string, secret: string | null) =>
    fetch(`${world.home.url}/hooks/${source}/events/${id}`, {
      headers: secret ? { authorization: `Bearer ${secret}` } : {},
    })

  const own = await read('ci', ci)
  expect(own.status).toBe(200)
  const body = (await own.json()) as {
    event: { id: string; content: string }
    deliveries: { subscriber: string }[]
  }
  expect(body.event).toMatchObject({ id, content: 'deploy done' })
  expect(body.deliveries.map((d) => d.subscriber)).toEqual(['plain'])

  expect((await read('ci', null)).status).toBe(401)
  expect((await read('ci', other)).status).toBe(401)
  // Another source's secret reads through its own source: not an event of that source.
  const elsewhere = await read('other', other)
  expect(elsewhere.status).toBe(404)
  expect(await elsewhere.text()).not.toContain('deploy done')
})
