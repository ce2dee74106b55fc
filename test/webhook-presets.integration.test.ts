// Webhook presets through a real hub: recorded GitHub, Sentry, Alertmanager and Grafana payloads
// POSTed as their senders POST them, seen by an MCP client as the channel notifications Claude Code
// would get.
import { createHmac } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type GithubExample, githubExamples } from './fixtures/webhooks/github-examples.js'
import { basicAuth, fixture, signature } from './fixtures/webhooks/load.js'
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

describe('github preset through the hub: examples of @octokit/webhooks-examples', () => {
  it('accepts an event name with digits and events about an organization or an account, each named', async () => {
    const secret = await addSource('github', '--preset', 'github')
    const c = await channel(['--topics', 'github*'])
    const examples = githubExamples()
    const pick = (event: string, test: (p: GithubExample['payload']) => boolean) => {
      const found = examples.find((e) => e.event === event && test(e.payload))
      if (!found) throw new Error(`no ${event} example`)
      return found.payload
    }
    const deliveries: [string, object][] = [
      ['projects_v2_item', pick('projects_v2_item', (p) => p.action === 'archived')],
      ['workflow_job', pick('workflow_job', (p) => p.workflow_job.conclusion === 'failure')],
      ['installation', pick('installation', (p) => p.action === 'created')],
      ['organization', pick('organization', (p) => p.action === 'member_added')],
    ]
    for (const [i, [event, payload]] of deliveries.entries()) {
      const raw = Buffer.from(JSON.stringify(payload))
      const res = await post('/hooks/github', raw, {
        'x-github-event': event,
        'x-github-delivery': `e5f6a7b8-0000-11ef-9a3e-0242ac12000${i}`,
        'x-hub-signature-256': signature(secret, raw),
      })
      expect(res.status, `${event}: ${await res.clone().text()}`).toBe(202)
    }
    const events = await c.waitForEvents(4)
    expect(events.map((e) => e.content)).toEqual([
      'project item PVTI_lADOAWcTxs4ACgDdzgBWqxo (Issue) in organization Octocoders archived by Codertocat',
      'job linters of workflow CodeQL on main of Codertocat/Hello-World completed: failure — https://github.com/octo-org/octo-repo/runs/1291536064',
      'Codertocat installed the app (installation 957387) on account Codertocat, 1 repository — https://github.com/settings/installations/957387',
      'Codertocat added member hacktocat to organization Octocoders',
    ])
    expect(events.map((e) => e.meta?.topic)).toEqual([
      'github.projects_v2_item',
      'github.workflow_job',
      'github.installation',
      'github.organization',
    ])
    expect(events[0]?.meta).toMatchObject({ organization: 'Octocoders' })
    expect(events[1]?.meta).toMatchObject({
      repository: 'Codertocat/Hello-World',
      conclusion: 'failure',
      job: 'linters',
    })
    expect(events[2]?.meta).toMatchObject({ account: 'Codertocat', installation: '957387' })
  })

  // GitHub sends up to 25 MiB: its source reads up to that, whatever maxBodyBytes says.
  it('takes an 81 KB pull request description past the 64 KiB default', async () => {
    const secret = await addSource('github', '--preset', 'github')
    const c = await channel(['--topics', 'github*'])
    const { json } = fixture('github-pull_request-opened')
    const pr = json.pull_request as Record<string, unknown>
    const body = '| ✅ vérifié | déployé → production |\n'.repeat(2000)
    const raw = Buffer.from(JSON.stringify({ ...json, pull_request: { ...pr, body } }))
    expect(raw.length).toBeGreaterThan(81_000)
    const res = await post('/hooks/github', raw, {
      'x-github-event': 'pull_request',
      'x-hub-signature-256': signature(secret, raw),
    })
    expect(res.status).toBe(202)
    const [event] = await c.waitForEvents(1)
    expect(event?.meta).toMatchObject({ number: '12', topic: 'github.pull_request' })
  })
})

describe('sentry preset through the hub', () => {
  it('takes Sentry’s client secret from a file, delivers a signed issue as its line, and is rotated to Sentry’s next secret', async () => {
    const refused = await world.home.cliFails('source', 'add', 'sentry', '--preset', 'sentry')
    expect(refused.stderr).toMatch(/--secret-file <path> or --secret - \(stdin\)/)
    const secret = 'c0ffee'.repeat(10)
    const file = join(world.home.dir, 'sentry-client-secret')
    writeFileSync(file, `${secret}\n`, { mode: 0o600 })
    const out = await world.home.cli('source', 'add', 'sentry', '--preset', 'sentry', '--secret-file', file)
    expect(out).toContain('secret: (the one you gave)')
    expect(out).not.toContain(secret)
    const c = await channel(['--topics', 'sentry*'])
    const raw = fixture('sentry-issue-created').raw
    const sentry = { 'sentry-hook-resource': 'issue', 'request-id': 'b1c2d3e4f5a6478899aabbccddeeff00' }

    const unsigned = await post('/hooks/sentry', raw, { ...sentry, authorization: `Bearer ${secret}` })
    expect(unsigned.status).toBe(401)
    const res = await post('/hooks/sentry', raw, {
      ...sentry,
      'sentry-hook-signature': createHmac('sha256', secret).update(raw).digest('hex'),
    })
    expect(res.status).toBe(202)

    const [event] = await c.waitForEvents(1)
    expect(event?.content).toBe(
      "issue CHECKOUT-WEB-3F in checkout-web created: TypeError: Cannot read properties of undefined (reading 'total') (error) — https://acme.sentry.io/issues/4511806235/",
    )
    expect(event?.meta).toMatchObject({
      origin: 'sentry',
      topic: 'sentry.issue',
      project: 'checkout-web',
      level: 'error',
    })

    // A secret of Switchboard's making would never match Sentry's: rotating takes Sentry's new one.
    const unrotated = await world.home.cliFails('source', 'rotate', 'sentry')
    expect(unrotated.stderr).toMatch(/give the new one with --secret-file <path> or --secret - \(stdin\)/)
    const next = 'beef'.repeat(16)
    writeFileSync(file, next, { mode: 0o600 })
    expect(await world.home.cli('source', 'rotate', 'sentry', '--secret-file', file)).not.toContain(next)
    const resolved = Buffer.from(
      JSON.stringify({ ...fixture('sentry-issue-created').json, action: 'resolved' }),
    )
    const signedWith = (key: string) => createHmac('sha256', key).update(resolved).digest('hex')
    const old = await post('/hooks/sentry', resolved, {
      ...sentry,
      'sentry-hook-signature': signedWith(secret),
    })
    expect(old.status).toBe(401)
    const fresh = await post('/hooks/sentry', resolved, {
      ...sentry,
      'sentry-hook-signature': signedWith(next),
    })
    expect(fresh.status).toBe(202)
  })
})

describe('grafana preset through the hub', () => {
  it('takes a contact point’s basic auth with the secret as password', async () => {
    const secret = await addSource('grafana', '--preset', 'grafana', '--topic', 'alerts')
    const c = await channel(['--topics', 'alerts'])
    const raw = fixture('grafana-resolved').raw
    const wrong = await post('/hooks/grafana', raw, { authorization: basicAuth('grafana', 'guess') })
    expect(wrong.status).toBe(401)
    const res = await post('/hooks/grafana', raw, { authorization: basicAuth('grafana', secret) })
    expect(res.status).toBe(202)
    const [event] = await c.waitForEvents(1)
    expect(event?.content.split('\n')[0]).toBe(
      'RESOLVED: Checkout error rate (1 alert) — More than 5% of checkout requests fail',
    )
    expect(event?.meta).toMatchObject({ origin: 'grafana', service: 'checkout' })
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
      'switchboard: --preset "jenkins": unknown preset; use one of generic, github, alertmanager, grafana, sentry',
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
