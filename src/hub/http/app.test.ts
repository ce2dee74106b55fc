// The one app as a caller meets it, in-process: one error model ({error, kind}, the status from the
// kind), the OpenAPI document generated from the contract, the Host/Origin guard over TCP, and a
// webhook taken or refused by its source's secret.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { ADMIN_TOKEN, type AppWorld, appWorld, OWN_HOST } from '../../../test/helpers/app-world.js'
import { bodyLimitOf, ROUTES, type RouteDef } from '../../core/api/routes.js'
import { INPUTS, messageBodySchema } from '../../core/api/schemas.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }

describe('one error model', () => {
  it('answers a session nobody knows with 404 not_found', async () => {
    const answer = await world.request('GET', '/api/sessions/ses_nope', { headers: admin })
    expect(answer.status).toBe(404)
    expect(answer.json).toEqual({ error: 'no session "ses_nope"', kind: 'not_found' })
  })

  it('answers a body that does not fit with 400 and one line naming the field', async () => {
    const answer = await world.request('POST', '/api/sessions', {
      headers: { ...admin, 'x-switchboard': '1' },
      body: { prompt: 'hello', options: { cwd: 'relative/folder' } },
    })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({
      error: 'options.cwd: the folder is an absolute path',
      kind: 'invalid',
    })
    const unknownField = await world.request('POST', '/api/sessions', {
      headers: admin,
      body: { prompt: 'hello', options: { cwd: '/tmp' }, colour: 'blue' },
    })
    expect(unknownField.status).toBe(400)
    expect(unknownField.json.kind).toBe('invalid')
    expect(String(unknownField.json.error)).toMatch(/colour/)
    expect(String(unknownField.json.error)).not.toContain('\n')
  })

  it('answers a listing of events asked for a state nobody has, or a parked one of a subscriber, with 400 and why', async () => {
    const lost = await world.request('GET', '/api/events?state=lost', { headers: admin })
    expect(lost.status).toBe(400)
    expect(lost.json).toEqual({
      error: 'state: must be one of stored, written, queued, in_context, unconfirmed, parked',
      kind: 'invalid',
    })
    const parked = await world.request('GET', '/api/events?state=parked&subscriber=api', { headers: admin })
    expect(parked.status).toBe(400)
    expect(parked.json).toEqual({
      error: 'a parked event has no subscriber: state parked takes no subscriber',
      kind: 'invalid',
    })
    const page = await world.request('GET', '/api/events?limit=500', { headers: admin })
    expect(page.json).toEqual({ error: 'limit: a page holds 1 to 200 events', kind: 'invalid' })
  })

  it('answers a body that is not JSON with 400, not 500', async () => {
    const answer = await world.request('POST', '/api/sessions', {
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{"prompt": ',
    })
    expect(answer.status).toBe(400)
    expect(answer.json).toMatchObject({ kind: 'invalid' })
  })

  it('answers a method the path does not take with 405, naming the ones it does', async () => {
    const answer = await world.request('PUT', '/api/status', { headers: admin })
    expect(answer.status).toBe(405)
    expect(answer.json).toMatchObject({ error: 'PUT is not allowed on /api/status (GET is)' })
    const twoMethods = await world.request('PATCH', '/api/sessions', { headers: admin })
    expect(twoMethods.status).toBe(405)
    expect(String(twoMethods.json.error)).toMatch(/\(GET, POST, DELETE is\)$/)
  })

  it('answers a HEAD of a route with 405: Hono would run its GET handler and drop the body', async () => {
    const answer = await world.request('HEAD', '/api/status', { headers: admin })
    expect(answer.status).toBe(405)
    // The page is no route of the contract: a HEAD of it answers its headers.
    const page = await world.request('HEAD', '/')
    expect(page.status).not.toBe(405)
  })

  it('answers a body past its route’s limit with 413 too_large, before it is parsed', async () => {
    const answer = await world.request('POST', '/api/signin', { body: { token: 'x'.repeat(600) } })
    expect(answer.status).toBe(413)
    expect(answer.json).toEqual({
      error: "the body is 612 bytes; this route's limit is 512",
      kind: 'too_large',
    })
  })

  it('answers a path it does not have with 404', async () => {
    const answer = await world.request('GET', '/api/nothing-here', { headers: admin })
    expect(answer.status).toBe(404)
    expect(answer.json).toEqual({ error: 'no such path: /api/nothing-here', kind: 'not_found' })
  })

  it('answers a path with a broken escape with 400', async () => {
    const answer = await world.request('POST', '/hooks/%E0', { body: 'x' })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({ error: '"/hooks/%E0" is not a valid path', kind: 'invalid' })
  })
})

describe('the OpenAPI document', () => {
  /** The fields a body must have, read from its zod schema itself. */
  function requiredFields(schema: z.ZodType): string[] {
    if (!(schema instanceof z.ZodObject)) return []
    return Object.entries(schema.shape as Record<string, z.ZodType>)
      .filter(([, field]) => !field.safeParse(undefined).success)
      .map(([name]) => name)
      .sort()
  }

  it('names every route of the contract, with its method, and the required fields of each body', async () => {
    const answer = await world.request('GET', '/openapi.json')
    expect(answer.status).toBe(200)
    const doc = answer.json as {
      openapi: string
      paths: Record<
        string,
        Record<string, { operationId: string; requestBody?: unknown; 'x-max-body-bytes': unknown }>
      >
    }
    expect(doc.openapi).toBe('3.1.0')
    const operations = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod))
    expect(operations).toHaveLength(Object.keys(ROUTES).length)

    const bodies: Record<string, z.ZodType> = { message: messageBodySchema }
    for (const [name, inputs] of Object.entries(INPUTS))
      if ('body' in inputs && inputs.body) bodies[name] = inputs.body
    for (const [name, route] of Object.entries(ROUTES)) {
      const path = route.path.replace(/:([a-zA-Z]+)/g, '{$1}')
      const operation = doc.paths[path]?.[route.method.toLowerCase()]
      expect(operation?.operationId, `${route.method} ${route.path}`).toBe(name)
      expect(operation?.['x-max-body-bytes'], name).toBe(bodyLimitOf(route as RouteDef))
      const body = bodies[name]
      if ('file' in route) {
        // A file's bytes as they are, whatever their type.
        expect(operation?.requestBody, name).toMatchObject({
          content: { '*/*': { schema: { format: 'binary' } } },
        })
        continue
      }
      if (!body) {
        expect(operation?.requestBody, name).toBeUndefined()
        continue
      }
      const requestBody = operation?.requestBody as
        | { content: { 'application/json': { schema: { required?: string[] } } } }
        | undefined
      const schema = requestBody?.content['application/json'].schema
      expect(schema, name).toBeDefined()
      expect([...(schema?.required ?? [])].sort(), name).toEqual(requiredFields(body))
    }
    // Not vacuous: the bodies a caller cannot leave out are there.
    const created = doc.paths['/api/sessions']?.post?.requestBody as {
      content: { 'application/json': { schema: { required: string[] } } }
    }
    expect(created.content['application/json'].schema.required.sort()).toEqual(['options', 'prompt'])
    expect(doc.paths['/api/signin']?.post?.['x-max-body-bytes']).toBe(512)
  })

  it('lists every event of a sender’s stream (GET /events) with the fields its data always has', async () => {
    const doc = (await world.request('GET', '/openapi.json')).json as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
      >
    }
    const sse = doc.paths['/events']?.get?.responses['200']?.content?.['text/event-stream'] as
      | { 'x-events'?: Record<string, { required?: string[] }> }
      | undefined
    const events = sse?.['x-events'] ?? {}
    expect(Object.keys(events)).toEqual([
      'reply',
      'paired',
      'permission',
      'question',
      'plan',
      'denied',
      'decision',
      'notice',
      'thread-end',
    ])
    expect(events.reply?.required).toEqual(['chat_id', 'text', 'from', 'at'])
    expect(events.permission?.required).toEqual(['id', 'session', 'text'])
    expect(events.decision?.required).toEqual(['id', 'kind', 'session', 'status'])
    expect(events.notice?.required).toEqual(['at', 'text'])
  })
})

describe('the Host and Origin guard over TCP', () => {
  it('refuses a Host that is not this hub with 403', async () => {
    const answer = await world.request('GET', '/health', {
      local: false,
      headers: { host: 'rebound.example:7420' },
    })
    expect(answer.status).toBe(403)
    expect(answer.json).toEqual({
      error: 'Host "rebound.example:7420" is not this hub; add it to allowedHosts in config.json to allow it',
      kind: 'forbidden',
    })
  })

  it('refuses a request from a web page of another origin with 403, even with the admin token', async () => {
    const answer = await world.request('GET', '/api/status', {
      local: false,
      headers: { ...admin, origin: 'https://evil.example' },
    })
    expect(answer.status).toBe(403)
    expect(answer.json).toEqual({
      error: 'requests from web pages of other origins are refused (Origin https://evil.example)',
      kind: 'forbidden',
    })
  })

  it("takes this hub's own Host and Origin over TCP, and any Host over the home's socket", async () => {
    const own = await world.request('GET', '/api/status', {
      local: false,
      headers: { ...admin, origin: `http://${OWN_HOST}` },
    })
    expect(own.status).toBe(200)
    expect(own.json).toMatchObject({ port: 7420 })
    const socket = await world.request('GET', '/health', {
      local: true,
      headers: { host: 'rebound.example:7420' },
    })
    expect(socket.status).toBe(200)
    expect(socket.json).toMatchObject({ ok: true })
  })
})

describe('a webhook', () => {
  beforeEach(async () => {
    await world.parts.hub.store.addSource({
      name: 'alerts',
      topic: 'alerts',
      secret: 'whsec_right',
      deliveryHeader: null,
    })
  })

  const storedEvents = async () =>
    (await world.client(ADMIN_TOKEN)('events')).events as { id: string; source: string }[]

  it('with its source’s secret is taken (202) and stored', async () => {
    const answer = await world.request('POST', '/hooks/alerts', {
      headers: { authorization: 'Bearer whsec_right' },
      body: { alert: 'disk full' },
    })
    expect(answer.status).toBe(202)
    expect(answer.json).toEqual({ id: expect.stringMatching(/^ev_/), duplicate: false })
    expect(await storedEvents()).toEqual([expect.objectContaining({ id: answer.json.id, source: 'alerts' })])
  })

  it('with a wrong secret is refused (401) and nothing is stored', async () => {
    const answer = await world.request('POST', '/hooks/alerts', {
      headers: { authorization: 'Bearer whsec_wrong' },
      body: { alert: 'disk full' },
    })
    expect(answer.status).toBe(401)
    expect(answer.json).toEqual({ error: 'wrong source secret', kind: 'unauthorized' })
    expect(await storedEvents()).toEqual([])
  })

  it('to a source nobody added is 404', async () => {
    const answer = await world.request('POST', '/hooks/nobody', {
      headers: { authorization: 'Bearer whsec_right' },
      body: {},
    })
    expect(answer.status).toBe(404)
    expect(answer.json).toMatchObject({ kind: 'not_found', error: expect.stringMatching(/unknown source/) })
  })
})
