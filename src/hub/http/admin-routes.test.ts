// Senders and sources managed through the hub's API (the CLI's `sender`, `pair`, `access`, `source`),
// in-process: whatever makes or changes a sender or a source, or hands out a token or a secret, is the
// admin token's alone; and the hub goes by each change at once, with no cache to wait out.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'
import { ApiError } from '../../core/api/client.js'
import type { RouteName } from '../../core/api/routes.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const admin = () => world.client(ADMIN_TOKEN)
const hook = (source: string, secret: string) =>
  world.request('POST', `/hooks/${source}`, { headers: bearer(secret), body: 'build failed' })

/** What a refused call answered: its status and the kind the hub named. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; kind: string | null }> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof ApiError)) throw new Error(`it was not refused: ${String(err)}`)
  return { status: err.status, kind: err.kind }
}

/** A browser signed in the way the dashboard is: an operator, with the browser's key. */
async function operatorBrowser(): Promise<string> {
  const link = await admin()('signinLink')
  const token = new URL(link.url).searchParams.get('token') ?? ''
  return (await world.client()('signin', { body: { token } })).key
}

describe("an operator sender's token", () => {
  it('can make no sender or source, hand out no secret and approve no pairing: 401, and nothing changes', async () => {
    const { secret } = await admin()('addSource', { body: { name: 'ci' } })
    const { token } = await world.parts.hub.access.addSender('ops', true)
    const pairing = await world.request('POST', '/pair')
    const code = String(pairing.json.code)
    const attacker = world.client(token)
    const attempts: [RouteName, Promise<unknown>][] = [
      ['addSource', attacker('addSource', { body: { name: 'mine' } })],
      ['rotateSource', attacker('rotateSource', { params: { name: 'ci' }, body: {} })],
      ['bindSource', attacker('bindSource', { params: { name: 'ci' }, body: { about: [] } })],
      ['removeSource', attacker('removeSource', { params: { name: 'ci' } })],
      ['addSender', attacker('addSender', { body: { name: 'friend', operator: true } })],
      [
        'setSenderAccess',
        attacker('setSenderAccess', {
          params: { name: 'telegram:42' },
          body: { status: 'allowed', operator: true },
        }),
      ],
      ['removeSender', attacker('removeSender', { params: { name: 'ops' } })],
      ['approvePairing', attacker('approvePairing', { params: { code }, body: { operator: true } })],
      ['senders', attacker('senders')],
      ['pairings', attacker('pairings')],
    ]
    for (const [route, attempt] of attempts)
      expect({ route, ...(await refusal(attempt)) }).toEqual({ route, status: 401, kind: 'unauthorized' })

    // The source still takes its old secret, and is the only one; the senders are as they were.
    expect((await hook('ci', secret as string)).status).toBe(202)
    expect((await admin()('sources')).sources.map((s) => s.name)).toEqual(['ci'])
    const senders = (await admin()('senders')).senders
    expect(senders.map((s) => [s.name, s.status, s.operator])).toEqual([
      ['ops', 'allowed', true],
      [`pending-${code}`, 'pending', false],
    ])
  })
})

describe("an operator's browser", () => {
  it('reads the lists but is forbidden to make a source or a sender, or to rotate a secret', async () => {
    await admin()('addSource', { body: { name: 'ci' } })
    const browser = world.client(await operatorBrowser())
    expect((await browser('sources')).sources.map((s) => s.name)).toEqual(['ci'])
    expect(await refusal(browser('addSource', { body: { name: 'mine' } }))).toEqual({
      status: 403,
      kind: 'forbidden',
    })
    expect(await refusal(browser('rotateSource', { params: { name: 'ci' }, body: {} }))).toEqual({
      status: 403,
      kind: 'forbidden',
    })
    expect(await refusal(browser('addSender', { body: { name: 'friend', operator: true } }))).toEqual({
      status: 403,
      kind: 'forbidden',
    })
  })
})

describe('the admin token', () => {
  it('adds a source whose secret it is told once, and a new secret refuses the old one at once', async () => {
    const added = await admin()('addSource', { body: { name: 'ci', preset: 'generic' } })
    expect(added.secret).toMatch(/^sbw_/)
    expect(added.source).toMatchObject({ name: 'ci', topic: 'ci', preset: 'generic', about: [] })
    const old = added.secret as string
    // The webhook route has read the source, and would keep it for a second.
    expect((await hook('ci', old)).status).toBe(202)
    const { secret } = await admin()('rotateSource', { params: { name: 'ci' }, body: {} })
    expect(secret).toMatch(/^sbw_/)
    expect((await hook('ci', old)).status).toBe(401)
    expect((await hook('ci', secret as string)).status).toBe(202)
    // Removed: its URL answers 404 at once.
    await admin()('removeSource', { params: { name: 'ci' } })
    expect((await hook('ci', secret as string)).status).toBe(404)
  })

  it('keeps a secret the sender made to itself, and refuses to make one for such a preset', async () => {
    expect(await refusal(admin()('addSource', { body: { name: 'errors', preset: 'sentry' } }))).toEqual({
      status: 400,
      kind: 'invalid',
    })
    const given = 'sentry-made-client-secret-0123456789'
    const added = await admin()('addSource', { body: { name: 'errors', preset: 'sentry', secret: given } })
    expect(added.secret).toBeNull()
    expect(await refusal(admin()('rotateSource', { params: { name: 'errors' }, body: {} }))).toEqual({
      status: 400,
      kind: 'invalid',
    })
    expect(JSON.stringify(await admin()('sources'))).not.toContain(given)
  })

  it('refuses a reserved name, a source twice and a field map for another preset, in one line each', async () => {
    expect(await refusal(admin()('addSource', { body: { name: 'telegram' } }))).toEqual({
      status: 400,
      kind: 'invalid',
    })
    await admin()('addSource', { body: { name: 'ci' } })
    expect(await refusal(admin()('addSource', { body: { name: 'ci' } }))).toEqual({
      status: 409,
      kind: 'conflict',
    })
    expect(
      await refusal(
        admin()('addSource', { body: { name: 'gh', preset: 'github', fieldMap: { content: '$.text' } } }),
      ),
    ).toEqual({ status: 400, kind: 'invalid' })
    expect(await refusal(admin()('rotateSource', { params: { name: 'nope' }, body: {} }))).toEqual({
      status: 404,
      kind: 'not_found',
    })
  })

  it('approves a pairing by its code: the device is told "Paired" and may send', async () => {
    const pairing = await world.request('POST', '/pair')
    const token = String(pairing.json.token)
    expect((await admin()('pairings')).pairings).toEqual([
      expect.objectContaining({
        code: pairing.json.code,
        request: expect.objectContaining({ address: '127.0.0.1' }),
      }),
    ])
    const { sender } = await admin()('approvePairing', {
      params: { code: String(pairing.json.code) },
      body: { name: 'phone' },
    })
    expect(sender).toMatchObject({ name: 'phone', status: 'allowed', operator: false })
    expect((await admin()('pairings')).pairings).toEqual([])
    const sent = await world.request('POST', '/messages', { headers: bearer(token), body: 'hello' })
    expect(sent.status).toBe(202)
    // The hub stored its "Paired" itself: the device's stream has it with no sweep to wait for.
    const phone = await world.parts.hub.access.find('phone')
    const items = await world.parts.hub.outbox.items(phone?.id ?? '', null)
    expect(items.map((i) => i.kind)).toContain('paired')
  })

  it('adds, allows, blocks and removes senders; a chat account is let in before it writes', async () => {
    const { token } = await admin()('addSender', { body: { name: 'alice' } })
    expect(token).toMatch(/^sbs_/)
    await admin()('setSenderAccess', { params: { name: 'alice' }, body: { status: 'blocked' } })
    expect((await world.request('POST', '/messages', { headers: bearer(token), body: 'hi' })).status).toBe(
      403,
    )
    const { sender } = await admin()('setSenderAccess', {
      params: { name: 'telegram:42' },
      body: { status: 'allowed', operator: true },
    })
    expect(sender).toMatchObject({ name: 'telegram:42', status: 'allowed', operator: true })
    await admin()('removeSender', { params: { name: 'alice' } })
    expect((await admin()('senders')).senders.map((s) => s.name)).toEqual(['telegram:42'])
    expect(await refusal(admin()('removeSender', { params: { name: 'alice' } }))).toEqual({
      status: 404,
      kind: 'not_found',
    })
  })
})
