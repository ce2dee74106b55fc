// Who may call what on the one app, in-process: no credential, a sender's token, the admin token, a
// browser signed in with a link and then signed out; and ?token= only where an EventSource needs it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'
import { ApiError } from '../../core/api/client.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

const signIn = () => world.signIn()

describe('a request with no credential', () => {
  it('is refused on an operator route and an admin route with 401, and may ask for health', async () => {
    const status = await world.request('GET', '/api/status')
    expect(status.status).toBe(401)
    expect(status.json).toEqual({
      error: 'not signed in: run `switchboard open` in a terminal',
      kind: 'unauthorized',
    })
    const link = await world.request('POST', '/api/web-links')
    expect(link.status).toBe(401)
    expect(link.json).toMatchObject({ kind: 'unauthorized', error: expect.stringMatching(/admin token/) })
    const health = await world.request('GET', '/health')
    expect(health.status).toBe(200)
    expect(health.json).toMatchObject({ ok: true, pid: process.pid })
  })

  it('is refused with 401 when its token is one nobody holds', async () => {
    const answer = await world.request('GET', '/api/sessions', { headers: bearer('sba_nobody-holds-this') })
    expect(answer.status).toBe(401)
    expect(answer.json).toMatchObject({ kind: 'unauthorized' })
  })
})

describe("a sender's token", () => {
  it('sends a message, but opens neither the dashboard API nor an admin route', async () => {
    const { token } = await world.parts.hub.access.addSender('alice', false)
    const sent = await world.request('POST', '/messages', { headers: bearer(token), body: 'hello' })
    expect(sent.status).toBe(202)
    expect(sent.json).toMatchObject({ id: expect.stringMatching(/^ev_/), duplicate: false })

    const status = await world.request('GET', '/api/status', { headers: bearer(token) })
    expect(status.status).toBe(401)
    expect(status.json).toMatchObject({ kind: 'unauthorized', error: expect.stringMatching(/not signed in/) })
    const link = await world.request('POST', '/api/web-links', { headers: bearer(token) })
    expect(link.status).toBe(401)
    expect(link.json).toMatchObject({ kind: 'unauthorized', error: expect.stringMatching(/admin token/) })
  })

  it('is forbidden to send while its pairing waits, and once blocked', async () => {
    const pairing = await world.request('POST', '/pair')
    expect(pairing.status).toBe(201)
    const pending = await world.request('POST', '/messages', {
      headers: bearer(String(pairing.json.token)),
      body: 'hi',
    })
    expect(pending.status).toBe(403)
    expect(pending.json).toMatchObject({ kind: 'forbidden', error: expect.stringMatching(/pairing pending/) })

    const { token } = await world.parts.hub.access.addSender('bob', false)
    await world.parts.hub.access.setStatus('bob', 'blocked')
    const blocked = await world.request('POST', '/messages', { headers: bearer(token), body: 'hi' })
    expect(blocked.status).toBe(403)
    expect(blocked.json).toEqual({ error: 'this sender is blocked', kind: 'forbidden' })
  })
})

describe('the admin token', () => {
  it('opens operator and admin routes alike', async () => {
    const call = world.client(ADMIN_TOKEN)
    const status = await call('status')
    expect(status).toMatchObject({ port: 7420, database: 'sqlite', liveSessions: 0 })
    const link = await call('signinLink')
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:7420\/signin\?token=sbl_/)
    expect(await call('me')).toEqual({ name: 'cli', operator: true, expiresAt: null })
  })
})

describe('a browser signed in with a link', () => {
  it('uses the dashboard API until it signs out, and is refused after', async () => {
    const { key, name } = await signIn()
    const call = world.client(key)
    expect(await call('me')).toMatchObject({ name, operator: true })
    expect(await call('sessions')).toEqual({ sessions: [] })
    expect((await call('browsers')).browsers).toEqual([expect.objectContaining({ name })])

    expect(await call('signout')).toEqual({ ok: true })
    const after = await world.request('GET', '/api/sessions', { headers: bearer(key) })
    expect(after.status).toBe(401)
    expect(after.json).toMatchObject({ kind: 'unauthorized', error: expect.stringMatching(/not signed in/) })
  })

  it('spends its link once: the second sign-in with it is refused', async () => {
    const link = await world.client(ADMIN_TOKEN)('signinLink')
    const token = new URL(link.url).searchParams.get('token') ?? ''
    expect((await world.request('POST', '/api/signin', { body: { token } })).status).toBe(201)
    const again = await world.request('POST', '/api/signin', { body: { token } })
    expect(again.status).toBe(401)
    expect(again.json).toMatchObject({ kind: 'unauthorized', error: expect.stringMatching(/used already/) })
  })

  it('is forbidden an admin-only route, and a state change without the page’s header', async () => {
    const { key } = await signIn()
    await expect(world.client(key)('signinLink')).rejects.toMatchObject({
      status: 403,
      kind: 'forbidden',
      message: 'this route needs the admin token; a browser may not call it',
    })
    // What a form on another site could send: the browser's key, but not the header only the page sets.
    const bare = await world.request('POST', '/api/signout', { headers: bearer(key) })
    expect(bare.status).toBe(403)
    expect(bare.json).toEqual({
      error: 'state-changing requests need the x-switchboard header',
      kind: 'forbidden',
    })
    expect(await world.client(key)('me')).toMatchObject({ operator: true })
  })

  it('signed out by an operator from elsewhere, is refused at once', async () => {
    const { key, name } = await signIn()
    expect(await world.client(ADMIN_TOKEN)('revokeBrowser', { params: { name } })).toEqual({ ok: true })
    const refused = await world
      .client(key)('me')
      .catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 401, kind: 'unauthorized' })
  })
})

describe('?token= in the query', () => {
  it('opens a sender’s event stream, and nothing else', async () => {
    const { token } = await world.parts.hub.access.addSender('carol', false)
    const stream = await world.request('GET', `/events?token=${token}`)
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toBe('text/event-stream')
    expect(stream.text).toBe(': connected\n\n')
    stream.hangUp()

    const message = await world.request('POST', `/messages?token=${token}`, { body: 'hi' })
    expect(message.status).toBe(401)
    expect(message.json).toMatchObject({
      kind: 'unauthorized',
      error: expect.stringMatching(/missing sender/),
    })
    const admin = await world.request('GET', `/api/status?token=${ADMIN_TOKEN}`)
    expect(admin.status).toBe(401)
    expect(admin.json).toMatchObject({ kind: 'unauthorized' })
    // The admin token is no sender's: the stream is for senders only.
    const adminStream = await world.request('GET', `/events?token=${ADMIN_TOKEN}`)
    expect(adminStream.status).toBe(401)
    expect(adminStream.json).toEqual({ error: 'unknown sender token', kind: 'unauthorized' })
  })
})
