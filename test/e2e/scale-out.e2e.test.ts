// Driven sessions when hubs share a Postgres database: the real Claude Code CLI runs under one hub,
// any hub answers for it, and when that hub is killed the session is marked and resumed elsewhere.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { toolResults } from '../fakes/anthropic.js'
import { drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { CLI, TestHome, waitFor } from '../helpers/home.js'
import { type PostgresServer, startPostgres } from '../helpers/postgres.js'

const world = e2eWorld()
let server: PostgresServer
beforeAll(async () => {
  server = await startPostgres()
}, 60_000)
afterAll(() => server?.stop())

type View = {
  id: string
  status: string
  reason: string | null
  lastResult: string | null
  turns: number
  pendingInputs: { code: string }[]
}

async function call<T = View>(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as T }
}

/** Two hubs on one database driving the real CLI: a in the world's home, b in a home of its own. */
async function twoHubs() {
  const token = `sba_${randomBytes(24).toString('hex')}`
  const shared = {
    SWITCHBOARD_DATABASE_URL: await server.database(),
    SWITCHBOARD_ADMIN_TOKEN: token,
    SWITCHBOARD_LEASE_MS: '1500',
  }
  const hubA = await startDrivingHub(world, shared)
  const homeB = await TestHome.create()
  homeB.extraEnv.SWITCHBOARD_DATABASE_URL = shared.SWITCHBOARD_DATABASE_URL
  homeB.extraEnv.SWITCHBOARD_ADMIN_TOKEN = token
  world.closers.push(() => homeB.cleanup())
  const hubB: ChildProcess = spawn(process.execPath, [CLI, 'serve'], {
    env: drivingEnv(world, { ...shared, SWITCHBOARD_HOME: homeB.dir, SWITCHBOARD_PORT: String(homeB.port) }),
    stdio: 'ignore',
  })
  world.closers.push(async () => {
    if (hubB.exitCode === null && hubB.signalCode === null) {
      hubB.kill('SIGTERM')
      await once(hubB, 'exit')
    }
  })
  await homeB.waitForHub(10_000)
  const until = async (url: string, id: string, done: (v: View) => boolean, what: string) => {
    let view: View | undefined
    await waitFor(
      async () => {
        view = (await call(url, token, 'GET', `/api/sessions/${id}`)).json
        return done(view)
      },
      60_000,
      what,
    )
    return view as View
  }
  return { token, hubA, homeB, a: world.home.url, b: homeB.url, until }
}

it('answers for a session from any hub, and resumes it on another once its hub is killed', async () => {
  const { token, hubA, a, b, until } = await twoHubs()
  let answer = 'first answer'
  world.fake.respond(() => ({ text: answer }))
  const created = await call(a, token, 'POST', '/api/sessions', {
    prompt: 'hello',
    options: { cwd: world.claude.cwd },
  })
  expect(created.status).toBe(201)
  const id = created.json.id
  await until(a, id, (v) => v.lastResult === 'first answer', 'the first answer')

  // Asked on b, answered by a, where the CLI runs.
  answer = 'second answer'
  expect((await call(b, token, 'POST', `/api/sessions/${id}/messages`, { text: 'again' })).status).toBe(202)
  await until(b, id, (v) => v.lastResult === 'second answer' && v.turns === 2, 'the second answer via b')
  const live = async (url: string) =>
    (await call<{ liveSessions: number }>(url, token, 'GET', '/api/status')).json.liveSessions
  expect([await live(a), await live(b)]).toEqual([1, 0]) // one CLI, a's, never a second one on b

  hubA.kill('SIGKILL')
  await once(hubA, 'exit')
  const orphan = await until(b, id, (v) => v.status === 'stopped', 'the session marked stopped on b')
  expect(orphan.reason).toMatch(/hub/)

  answer = 'third answer'
  const resume = await call(b, token, 'POST', `/api/sessions/${id}/messages`, { text: 'still there?' })
  expect(resume.status).toBe(202)
  const resumed = await until(b, id, (v) => v.lastResult === 'third answer', 'the answer after resuming on b')
  expect(resumed.turns).toBe(3)
  expect(await live(b)).toBe(1)
})

it('runs a session’s Bash call once a person allows it at the terminal of another hub', async () => {
  const { token, a, homeB, until } = await twoHubs()
  const marker = join(world.claude.cwd, 'allowed-elsewhere')
  world.fake.respond((r) =>
    toolResults(r).length ? { text: 'done' } : { tool: 'Bash', input: { command: `touch ${marker}` } },
  )
  const created = await call(a, token, 'POST', '/api/sessions', {
    prompt: 'make the file',
    options: { cwd: world.claude.cwd },
  })
  const waiting = await until(a, created.json.id, (v) => v.pendingInputs.length > 0, 'the permission prompt')
  const code = waiting.pendingInputs[0]?.code as string
  // Answered through hub b, which does not run the session.
  expect(await homeB.cli('answer', code, 'yes')).toMatch(/^allowed /)
  await until(a, created.json.id, (v) => v.lastResult === 'done', 'the turn to end')
  expect(existsSync(marker)).toBe(true)
})
