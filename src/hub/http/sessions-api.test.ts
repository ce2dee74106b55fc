// The session API end to end in-process: the typed client of the contract over the one app, driving
// sessions whose CLI is the scripted fake (test/fakes/fake-claude.mjs). Created, read, its lines a
// page at a time, interrupted, stopped; and what a caller is told when the session cannot do it.
import { afterEach, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'
import type { FakeScript } from '../../../test/helpers/fake-claude.js'
import { waitFor } from '../../../test/helpers/home.js'
import { DRIVEN_AGENTS } from '../../core/agents.js'
import { ApiError, type Call } from '../../core/api/client.js'
import type { SessionView } from '../../core/session-api.js'

let world: AppWorld
afterEach(async () => {
  await world?.close()
})

function start(script: FakeScript = {}): Call {
  world = appWorld(script)
  return world.client(ADMIN_TOKEN)
}

/** Asks for the session until `check` passes; that view. */
async function until(call: Call, id: string, check: (v: SessionView) => boolean, what: string) {
  let seen: SessionView | undefined
  await waitFor(
    async () => {
      seen = await call('session', { params: { id } })
      return check(seen)
    },
    10_000,
    what,
  )
  return seen as SessionView
}

describe('a session over the API', () => {
  it('is created, read back, and its lines come a page at a time, each once', async () => {
    const call = start({ turns: [{ steps: [{ say: 'first' }, { say: 'second' }, { say: 'third' }] }] })
    const created = await call('createSession', { body: { prompt: 'hello', options: { cwd: world.dir } } })
    expect(created).toMatchObject({ id: expect.stringMatching(/^ses_/), cwd: world.dir, live: true })
    const idle = await until(call, created.id, (v) => v.status === 'idle', 'the turn to end')
    expect(idle).toMatchObject({ id: created.id, turns: 1, live: true, pendingInputs: [] })
    expect((await call('sessions')).sessions.map((s) => s.id)).toEqual([created.id])

    const all = await call('sessionLines', { params: { id: created.id } })
    expect(all.next).toBeNull()
    const said = all.lines
      .map(({ line }) => line as { type?: string; message?: { content?: { text?: string }[] } })
      .filter((line) => line.type === 'assistant')
      .map((line) => line.message?.content?.[0]?.text)
    expect(said).toEqual(['first', 'second', 'third'])

    // Two at a time, from where the last page ended: the same lines, none twice, none lost.
    const paged: number[] = []
    let after = 0
    for (let pages = 0; pages < 100; pages++) {
      const page = await call('sessionLines', { params: { id: created.id }, query: { after, limit: 2 } })
      expect(page.lines.length).toBeLessThanOrEqual(2)
      paged.push(...page.lines.map((l) => l.seq))
      if (page.next === null) break
      after = page.next
    }
    expect(paged).toEqual(all.lines.map((l) => l.seq))
    expect(new Set(paged).size).toBe(paged.length)
    expect(paged.length).toBeGreaterThan(2)

    const tail = await world.request('GET', `/api/sessions/${created.id}/lines?after=${paged.at(-1)}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(tail.status).toBe(200)
    expect(tail.json).toEqual({ lines: [], next: null })
  })

  it('is interrupted mid-turn, stopped, and then a conflict (409) to interrupt or stop again', async () => {
    const call = start({ turns: [{ steps: [{ hold: true }] }] })
    const { id } = await call('createSession', { body: { prompt: 'work', options: { cwd: world.dir } } })
    await until(call, id, (v) => v.status === 'running', 'the turn to start')
    await waitFor(
      () => world.fake.got().some((l) => l.type === 'user'),
      10_000,
      'the prompt to reach the CLI',
    )

    const interrupted = await call('interrupt', { params: { id } })
    expect(interrupted).toMatchObject({ id, live: true })
    await until(call, id, (v) => v.status !== 'running', 'the turn to end')
    expect(world.fake.got()).toContainEqual(
      expect.objectContaining({
        type: 'control_request',
        request: expect.objectContaining({ subtype: 'interrupt' }),
      }),
    )

    const stopped = await call('stopSession', { params: { id } })
    expect(stopped).toMatchObject({ id, live: false })

    const again = await world.request('POST', `/api/sessions/${id}/interrupt`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(again.status).toBe(409)
    expect(again.json).toEqual({ error: `session ${id} is not running`, kind: 'conflict' })
    await expect(call('stopSession', { params: { id } })).rejects.toMatchObject({
      status: 409,
      kind: 'conflict',
      message: `session ${id} is not running`,
    })
    // Still there to read, and the API says it is not running.
    expect(await call('session', { params: { id } })).toMatchObject({ id, live: false })
  })

  it('is told not_found (404) about a session nobody knows, on every route about one', async () => {
    const call = start()
    const id = 'ses_nobody'
    const calls: [string, () => Promise<unknown>][] = [
      ['session', () => call('session', { params: { id } })],
      ['sessionLines', () => call('sessionLines', { params: { id } })],
      ['interrupt', () => call('interrupt', { params: { id } })],
      ['stopSession', () => call('stopSession', { params: { id } })],
      ['sendMessage', () => call('sendMessage', { params: { id }, body: { text: 'hi' } })],
      ['removeSession', () => call('removeSession', { params: { id } })],
    ]
    for (const [name, attempt] of calls) {
      const err = await attempt().catch((e: unknown) => e)
      expect(err, name).toBeInstanceOf(ApiError)
      expect(err, name).toMatchObject({ status: 404, kind: 'not_found', message: `no session "${id}"` })
    }
  })

  it('is refused to start without a prompt, with the field named, and nothing starts', async () => {
    const call = start()
    await expect(
      call('createSession', { body: { prompt: '', options: { cwd: world.dir } } }),
    ).rejects.toMatchObject({
      status: 400,
      kind: 'invalid',
      message: 'prompt: must not be empty',
    })
    expect(await call('sessions')).toEqual({ sessions: [] })
    expect(world.fake.runs()).toEqual([])
  })
  it('is refused, in one line naming the field, for an agent the hub cannot drive, and nothing starts', async () => {
    const call = start()
    const body = { prompt: 'hello', options: { cwd: world.dir }, agent: 'aider' }
    await expect(call('createSession', { body: body as never })).rejects.toMatchObject({
      status: 400,
      kind: 'invalid',
      message: `agent: the agent is one of: ${DRIVEN_AGENTS.join(', ')}`,
    })
    expect(await call('sessions')).toEqual({ sessions: [] })
    expect(world.fake.runs()).toEqual([])
  })

  it('is refused for Codex with an option Codex cannot honour, not started without it', async () => {
    const call = start()
    const body = {
      prompt: 'hello',
      agent: 'codex' as const,
      options: { cwd: world.dir, allowedTools: ['Bash'] },
    }
    await expect(call('createSession', { body })).rejects.toMatchObject({
      status: 400,
      kind: 'invalid',
      message: 'agent: a Codex session takes no allowedTools',
    })
    expect(await call('sessions')).toEqual({ sessions: [] })
  })

  it("names its agent in every view: a Codex session is Codex's in its own view, the list and the history", async () => {
    const call = start({ turns: [{ steps: [{ say: 'hi' }] }] })
    const claude = await call('createSession', { body: { prompt: 'hello', options: { cwd: world.dir } } })
    // A Codex session the hub drove before it stopped, as its record is stored (its settings name it).
    const config = { options: { cwd: world.dir }, setup: { transport: 'stdio' }, peer: false, agent: 'codex' }
    await world.parts.hub.store.createSession({ id: 'ses_codex', cwd: world.dir, config, status: 'stopped' })

    expect(await call('session', { params: { id: 'ses_codex' } })).toMatchObject({ agent: 'codex' })
    expect(await call('session', { params: { id: claude.id } })).toMatchObject({ agent: 'claude' })
    const listed = (await call('sessions')).sessions.map((s) => [s.id, s.agent])
    expect(listed).toEqual(
      expect.arrayContaining([
        ['ses_codex', 'codex'],
        [claude.id, 'claude'],
      ]),
    )
    const history = (await call('history', { query: { cwd: world.dir } })).sessions.map((s) => [
      s.id,
      s.agent,
    ])
    expect(history).toEqual(
      expect.arrayContaining([
        ['ses_codex', 'codex'],
        [claude.id, 'claude'],
      ]),
    )
  })

  it('says which agents a session may be started with: the ones its create body takes, Claude Code first', async () => {
    const call = start()
    const { agents } = await call('agents')
    expect(agents[0]).toBe('claude')
    expect(agents).toContain('codex')
    const doc = (await world.request('GET', '/openapi.json')).json as {
      paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: unknown }> } } }>
    }
    const body = doc.paths['/api/sessions']?.post?.requestBody?.content['application/json']?.schema as {
      properties: { agent: { enum: string[] } }
    }
    expect(agents).toEqual(body.properties.agent.enum)
  })

  it('is refused for Gemini CLI and OpenCode with what ACP cannot give them at the start (a model, a claudePath)', async () => {
    const call = start()
    const model = { prompt: 'hello', agent: 'gemini' as const, options: { cwd: world.dir, model: 'pro' } }
    await expect(call('createSession', { body: model })).rejects.toMatchObject({
      status: 400,
      message: 'agent: a Gemini CLI session takes no model',
    })
    const path = {
      prompt: 'hello',
      agent: 'opencode' as const,
      options: { cwd: world.dir },
      setup: { claudePath: '/bin/true' },
    }
    await expect(call('createSession', { body: path })).rejects.toMatchObject({
      status: 400,
      message: 'agent: an OpenCode session takes no claudePath (set OPENCODE_PATH for the hub)',
    })
    expect(await call('sessions')).toEqual({ sessions: [] })
    expect(world.fake.runs()).toEqual([])
  })
})
