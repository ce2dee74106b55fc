// Sessions talking to each other through the hub: channels as peers, rooms, offline peers, dead letters.
import { describe, expect, it } from 'vitest'
import { ChannelClient } from './helpers/channel-client.js'
import { waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

async function peer(name: string, ...flags: string[]): Promise<ChannelClient> {
  const c = await ChannelClient.start(world.home, ['--name', name, ...flags])
  world.opened.push(c)
  return c
}

async function tool(c: ChannelClient, name: string, args: Record<string, unknown> = {}) {
  const result = await c.callTool(name, args)
  return { isError: result.isError === true, text: (result.content as { text: string }[])[0]?.text ?? '' }
}

describe('peers', () => {
  it('delivers a message with from/to, and the receiver answers with send', async () => {
    const alpha = await peer('alpha')
    const beta = await peer('beta')
    expect(await tool(alpha, 'send', { to: 'beta', text: 'can you run the tests?' })).toMatchObject({
      isError: false,
    })
    const [got] = await beta.waitForEvents(1)
    expect(got).toMatchObject({
      content: 'can you run the tests?',
      meta: expect.objectContaining({ from: 'alpha', to: 'beta', origin: 'peer' }),
    })
    await tool(beta, 'send', { to: got?.meta?.from, text: 'all green' })
    const [answer] = await alpha.waitForEvents(1)
    expect(answer).toMatchObject({ content: 'all green', meta: expect.objectContaining({ from: 'beta' }) })
  })

  it('keeps a message for a peer that is offline and hands it over when it comes back', async () => {
    const alpha = await peer('alpha')
    const first = await peer('beta')
    await first.close()
    world.opened.splice(world.opened.indexOf(first), 1)
    const peers = JSON.parse((await tool(alpha, 'peers')).text) as { name: string; live: boolean }[]
    expect(peers).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'beta', live: false })]))
    expect((await tool(alpha, 'send', { to: 'beta', text: 'while you were away' })).isError).toBe(false)
    const back = await peer('beta')
    expect((await back.waitForEvents(1))[0]?.content).toBe('while you were away')
  })

  it('refuses a name nobody holds, and lists it as a dead letter', async () => {
    const alpha = await peer('alpha')
    const refused = await tool(alpha, 'send', { to: 'nobody', text: 'hello?' })
    expect(refused).toEqual({ isError: true, text: expect.stringMatching(/no peer named "nobody"/) })
    expect(await world.home.cli('dead-letters')).toMatch(/peer\tnobody\tno peer by that name/)
  })

  it('reaches rooms and everyone, and takes messages from the command line', async () => {
    const alpha = await peer('alpha')
    const beta = await peer('beta')
    const gamma = await peer('gamma')
    await tool(beta, 'join', { room: 'release' })
    await tool(alpha, 'join', { room: 'release' })
    expect((await tool(gamma, 'send_room', { room: 'release', text: 'x' })).text).toMatch(
      /join release before/,
    )
    expect((await tool(alpha, 'send_room', { room: 'release', text: 'shipping at 5' })).text).toMatch(
      /1 member of release/,
    )
    expect((await beta.waitForEvents(1))[0]?.meta).toMatchObject({ from: 'alpha', room: 'release' })
    expect((await tool(gamma, 'broadcast', { text: 'lunch' })).text).toMatch(/sent to 2 peers/)
    await alpha.waitForEvents(1)
    await beta.waitForEvents(2)
    expect(await world.home.cli('send', 'gamma', 'from the terminal')).toMatch(/sent to gamma/)
    await waitFor(
      () => gamma.events.some((e) => e.content === 'from the terminal' && e.meta?.from === 'cli'),
      5_000,
      'cli message',
    )
    expect(await world.home.cli('peers')).toMatch(/alpha\tlive\trooms: release/)
    const bad = await world.home.cliFails('send', 'nobody', 'x')
    expect(bad.stderr).toMatch(/no peer named "nobody"/)
  })

  it('reaches a peer by one of its aliases', async () => {
    const alpha = await peer('alpha', '--aliases', 'reviewer,ops-bot')
    const beta = await peer('beta')
    expect((await tool(beta, 'send', { to: 'reviewer', text: 'please review #12' })).isError).toBe(false)
    expect((await alpha.waitForEvents(1))[0]).toMatchObject({
      content: 'please review #12',
      meta: expect.objectContaining({ to: 'alpha', from: 'beta' }),
    })
    const list = JSON.parse((await tool(beta, 'peers')).text) as { name: string; aliases: string[] }[]
    expect(list).toContainEqual(expect.objectContaining({ name: 'alpha', aliases: ['ops-bot', 'reviewer'] }))
  })
})
