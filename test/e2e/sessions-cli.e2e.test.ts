// `switchboard sessions` and `run` with real Claude Code sessions: list, show, stop, resume, prune,
// an idle CLI stopped and resumed by its next message, and a CLI that cannot start said so.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { CLI, runCli, waitFor } from '../helpers/home.js'

const world = e2eWorld()
const startHub = (env: Record<string, string> = {}) => startDrivingHub(world, env)

/** The CLI as a person runs it; never throws. */
function cli(...args: string[]) {
  return runCli(args, world.home.env)
}

type View = { id: string; status: string; live: boolean; reason: string | null; lastResult: string | null }

async function show(id: string): Promise<View> {
  return JSON.parse((await cli('sessions', 'show', id, '--json')).stdout) as View
}

async function until(id: string, done: (v: View) => boolean, what: string): Promise<View> {
  let view: View | undefined
  await waitFor(
    async () => {
      view = await show(id)
      return done(view)
    },
    60_000,
    what,
  )
  return view as View
}

async function createSession(prompt: string): Promise<string> {
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt,
    options: { cwd: world.claude.cwd },
  })
  return created.json.id
}

it('lists, shows, stops, resumes and prunes a driven session', async () => {
  await startHub()
  world.fake.respond(() => ({ text: 'first answer' }))
  const id = await createSession('hello')
  await until(id, (v) => v.status === 'idle', 'the first turn')

  const listed = await cli('sessions')
  expect(listed.stdout).toMatch(new RegExp(`^${id}\tidle\t`, 'm'))
  expect((await cli('sessions', 'show', id)).stdout).toContain(`${id}: idle (CLI running)`)

  const stopped = await cli('sessions', 'stop', id)
  expect(stopped.stdout).toContain(`${id}: stopped`)
  expect(stopped.stdout).toContain('why: stopped on request')
  expect(await show(id)).toMatchObject({ status: 'stopped', live: false, reason: 'stopped on request' })

  const resumed = JSON.parse((await cli('sessions', 'resume', id, '--json')).stdout) as View
  expect(resumed).toMatchObject({ status: 'idle', live: true, reason: null })

  const running = await cli('sessions', 'prune', id)
  expect(running.code).not.toBe(0)
  expect(running.stderr).toBe(`switchboard: session ${id} is running; stop it first\n`)
  await cli('sessions', 'stop', id)
  expect((await cli('sessions', 'prune', id)).stdout).toBe(`removed ${id}\n`)
  const gone = await cli('sessions', 'show', id)
  expect(gone.code).not.toBe(0)
  expect(gone.stderr).toBe(`switchboard: no session "${id}"\n`)
})

it('stops a CLI that sits idle, and its next message resumes it', async () => {
  // 0.02 minutes: the idle time of a test, not of a person.
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ sessionIdleMinutes: 0.02 }))
  await startHub()
  world.fake.respond(() => ({ text: 'answered' }))
  const id = await createSession('hello')
  const idle = await until(id, (v) => v.status === 'stopped', 'the idle CLI to be stopped')
  expect(idle).toMatchObject({
    live: false,
    reason: expect.stringMatching(/^stopped after 0.02 minutes idle/),
  })

  world.fake.respond(() => ({ text: 'answered after a rest' }))
  await adminCall(world, 'POST', `/api/sessions/${id}/messages`, { text: 'again' })
  await until(id, (v) => v.lastResult === 'answered after a rest', 'the resumed turn')
})

it('run says why a session failed and exits non-zero', async () => {
  await startHub({ CLAUDE_CODE_PATH: join(world.claude.cwd, 'no-such-claude') })
  const failed = await cli('run', 'hello', '--cwd', world.claude.cwd)
  expect(failed.code).not.toBe(0)
  expect(failed.stderr).toMatch(/^switchboard: .*no-such-claude.*ENOENT/m)
  expect(failed.stderr).not.toMatch(/\n\s+at /) // no stack trace
  const [session] = JSON.parse((await cli('sessions', '--json')).stdout) as { id: string }[]
  if (!session) throw new Error('the failed session was not kept')
  expect(await show(session.id)).toMatchObject({ status: 'error', reason: expect.stringContaining('ENOENT') })
})

it('an interrupt while a permission prompt is open withdraws the prompt', async () => {
  await startHub()
  world.fake.respond(() => ({ tool: 'Bash', input: { command: 'touch never' } }))
  const id = await createSession('make the file')
  await until(id, (v) => v.status === 'waiting_for_input', 'the permission prompt')
  await adminCall(world, 'POST', `/api/sessions/${id}/interrupt`)
  const after = await until(
    id,
    (v) => v.status !== 'waiting_for_input' && v.status !== 'running',
    'the turn to end',
  )
  expect((after as View & { pendingInputs: unknown[] }).pendingInputs).toEqual([])
  expect(after.status).toBe('interrupted')
})

it('Ctrl-C on run interrupts the turn and says where the session is left', async () => {
  await startHub()
  world.fake.respond(() => ({ tool: 'Bash', input: { command: 'touch never' } }))
  const run = spawn(process.execPath, [CLI, 'run', 'make the file', '--cwd', world.claude.cwd], {
    env: world.home.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  run.stdout.on('data', (d) => {
    stdout += d
  })
  run.stderr.on('data', (d) => {
    stderr += d
  })
  await waitFor(() => stdout.includes('Claude wants to run Bash: $ touch never'), 60_000, 'the inline prompt')
  const id = /session (ses_\w+)/.exec(stdout)?.[1] as string
  run.kill('SIGINT')
  const code = await new Promise((r) => run.once('exit', r))
  expect(code).toBe(130)
  expect(stderr).toContain(
    `switchboard: interrupted; session ${id} stays in the hub: switchboard sessions show ${id}`,
  )
  expect((await show(id)).status).not.toBe('running')
})
