// Webhook presets through a real hub: recorded GitHub and Alertmanager payloads POSTed as their
// senders POST them, seen by an MCP client as the channel notifications Claude Code would get.
import { describe, expect, it } from 'vitest'
import { fixture, signature } from './fixtures/webhooks/load.js'
import { ChannelClient } from './helpers/channel-client.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

async function channel(args: string[]): Promise<ChannelClient> {
  const c = await ChannelClient.start(world.home, args)
  world.opened.push(c)
  return c
}

/** `switchboard source add`, returning the secret it printed once. */
async function addSource(...args: string[]): Promise<string> {
  const out = await world.home.cli('source', 'add', ...args)
  return /secret: (\S+)/.exec(out)?.[1] ?? ''
}

function post(path: string, body: Buffer, headers: Record<string, string>) {
  return fetch(`${world.home.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

describe('github preset through the hub', () => {
  it('delivers a signed pull_request as its one-line summary on github.pull_request; refuses a bearer', async () => {
    const secret = await addSource('github', '--preset', 'github')
    const c = await channel(['--topics', 'github*'])
    const { raw } = fixture('github-pull_request-opened')
    const github = {
      'x-github-event': 'pull_request',
      'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'user-agent': 'GitHub-Hookshot/8a2c1f0',
    }

    const bearer = await post('/hooks/github', raw, { ...github, authorization: `Bearer ${secret}` })
    expect(bearer.status).toBe(401)
    expect(((await bearer.json()) as { error: string }).error).toMatch(/a bearer secret alone is refused/)

    const ping = fixture('github-ping').raw
    const pinged = await post('/hooks/github', ping, {
      'x-github-event': 'ping',
      'x-hub-signature-256': signature(secret, ping),
    })
    expect(pinged.status).toBe(200)
    expect(await pinged.json()).toMatchObject({ events: [], ignored: expect.stringMatching(/^ping/) })

    const signed = { ...github, 'x-hub-signature-256': signature(secret, raw) }
    const res = await post('/hooks/github', raw, signed)
    expect(res.status).toBe(202)
    const { id } = (await res.json()) as { id: string }
    const redelivered = await post('/hooks/github', raw, signed)
    expect(await redelivered.json()).toEqual({ id, duplicate: true })

    const [event] = await c.waitForEvents(1)
    expect(event?.content).toBe(
      'alice opened pull request #12 in acme/webshop: Fix the login redirect loop — https://github.com/acme/webshop/pull/12',
    )
    expect(event?.meta).toMatchObject({
      origin: 'github',
      topic: 'github.pull_request',
      event_id: id,
      repository: 'acme/webshop',
      actor: 'alice',
      number: '12',
    })
    await new Promise((r) => setTimeout(r, 200))
    expect(c.events).toHaveLength(1) // neither the ping nor the redelivery
  })
})

describe('alertmanager preset through the hub', () => {
  it('delivers an alert group as FIRING/RESOLVED summaries; a retried POST is one event', async () => {
    const secret = await addSource('prom', '--preset', 'alertmanager', '--topic', 'alerts')
    const c = await channel(['--topics', 'alerts'])
    const headers = { authorization: `Bearer ${secret}`, 'user-agent': 'Alertmanager/0.27.0' }

    const firing = fixture('alertmanager-firing').raw
    const first = await post('/hooks/prom', firing, headers)
    expect(first.status).toBe(202)
    const { id } = (await first.json()) as { id: string }
    const retry = await post('/hooks/prom', firing, headers)
    expect(retry.status).toBe(200)
    expect(await retry.json()).toEqual({ id, duplicate: true })

    // Firing and resolved alerts in one group: two events, one answer naming both.
    const mixed = await post('/hooks/prom', fixture('alertmanager-mixed').raw, headers)
    expect(mixed.status).toBe(202)
    const { events: ids } = (await mixed.json()) as { events: { id: string; duplicate: boolean }[] }
    expect(ids.map((e) => e.duplicate)).toEqual([false, false])

    const events = await c.waitForEvents(3)
    await new Promise((r) => setTimeout(r, 200))
    expect(c.events.map((e) => e.content.split('\n')[0])).toEqual([
      'FIRING: HighRequestLatency (2 alerts) — Checkout p99 latency above 500ms',
      'FIRING: DiskWillFillIn4Hours (1 alert) — Disk on db-2.prod will fill within 4 hours',
      'RESOLVED: DiskWillFillIn4Hours (1 alert) — Disk on db-1.prod will fill within 4 hours',
    ])
    expect(events[0]?.content).toContain('\nrunbook: https://runbooks.example.com/checkout/high-latency')
    expect(events[0]?.meta).toMatchObject({
      origin: 'prom',
      topic: 'alerts',
      event_id: id,
      status: 'firing',
      severity: 'critical',
    })
    expect(events.slice(1).map((e) => e.meta?.event_id)).toEqual(ids.map((e) => e.id))
  })
})

describe('source add --preset', () => {
  it('refuses an unknown preset, or a field map on another preset, in one line; lists the preset', async () => {
    const unknown = await world.home.cliFails('source', 'add', 'x', '--preset', 'jenkins')
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr.trim()).toBe(
      'switchboard: --preset "jenkins": unknown preset; use one of generic, github, alertmanager, grafana',
    )
    const mapped = await world.home.cliFails('source', 'add', 'x', '--preset', 'github', '--field', 'a=$.a')
    expect(mapped.stderr.trim()).toMatch(/^switchboard: --field is for the generic preset/)
    await addSource('forms', '--field', 'content=$.alert.text', '--field', 'severity=$.alert.severity')
    await addSource('gh', '--preset', 'github')
    expect(await world.home.cli('source', 'list')).toBe(
      'forms\ttopic=forms\tpreset=generic\tfields=content=$.alert.text,severity=$.alert.severity\n' +
        'gh\ttopic=gh\tpreset=github\n',
    )
  })
})
