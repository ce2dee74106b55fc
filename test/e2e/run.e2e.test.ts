// `switchboard run`: a terminal front end that streams the session and asks for permissions inline,
// while answers from elsewhere (an operator's phone, a rule) also count; a turn Claude Code reports as
// an error fails the command; the session's CLI ends with the command unless --keep, and
// `sessions send` continues the session.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, expect, it } from 'vitest'
import { API_HEADER } from '../../src/core/api/routes.js'
import { latestTurn, textOf, toolResults } from '../fakes/anthropic.js'
import { signInWith } from '../helpers/dashboard.js'
import { drivingEnv, e2eWorld } from '../helpers/e2e.js'
import { alive, CLI, runCli, waitFor } from '../helpers/home.js'
import { SseReader } from '../helpers/sse.js'

const world = e2eWorld()

beforeEach(() => {
  world.fake.respond((r) =>
    toolResults(r).length
      ? { text: `all done: ${textOf(toolResults(r)[0]?.content) || 'ok'}` }
      : { tool: 'Bash', input: { command: 'touch made-by-run', description: 'make the file' } },
  )
})

function run(prompt: string, flags: string[] = [], env: Record<string, string> = drivingEnv(world)) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [CLI, 'run', prompt, '--cwd', world.claude.cwd, ...flags],
    { env },
  )
  let output = ''
  child.stdout.on('data', (c: Buffer) => {
    output += c
  })
  child.stderr.on('data', (c: Buffer) => {
    output += c
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  world.closers.push(() => {
    child.kill()
    return exited
  })
  return { child, output: () => output, exited }
}

it('asks at the terminal, runs the command on "y", and prints the result', { timeout: 60_000 }, async () => {
  const r = run('make the file')
  await waitFor(() => r.output().includes('[y/n]'), 30_000, `the prompt\n${r.output()}`)
  expect(r.output()).toContain('● Bash $ touch made-by-run\n')
  r.child.stdin.write('y\n')
  expect(await r.exited).toBe(0)
  expect(r.output()).toContain('all done')
  expect(existsSync(join(world.claude.cwd, 'made-by-run'))).toBe(true)
})

it('gives way when an operator answers from elsewhere', { timeout: 60_000 }, async () => {
  const operator = await world.home.addSender('ops', true)
  const r = run('make the file')
  await waitFor(() => r.output().includes('[y/n]'), 30_000, `the prompt\n${r.output()}`)
  const ops = await SseReader.open(world.home.url, operator)
  world.closers.push(() => ops.close())
  const code = ((await ops.waitFor('permission')).data as { id: string }).id
  expect(r.output()).toContain(`"${code}"`)
  const res = await fetch(`${world.home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator}` },
    body: `yes ${code}`,
  })
  expect(res.status).toBe(200)
  expect(await r.exited).toBe(0)
  expect(r.output()).toContain('(answered elsewhere)')
  expect(existsSync(join(world.claude.cwd, 'made-by-run'))).toBe(true)
})

it('refuses a bad flag with a clear message', async () => {
  const bad = spawn(process.execPath, [CLI, 'run', 'x', '--max-turns', 'many'], {
    env: { ...process.env, SWITCHBOARD_HOME: world.home.dir },
  })
  let err = ''
  bad.stderr.on('data', (c: Buffer) => {
    err += c
  })
  expect(await new Promise((resolve) => bad.on('exit', resolve))).toBe(2)
  expect(err).toMatch(/--max-turns/)
})

/** The CLI as a person runs it, in the world's environment; never throws. */
function cli(...args: string[]) {
  return runCli(args, drivingEnv(world))
}

/** The Claude Code processes the hub runs now (what `ps --ppid <hub>` shows). */
function claudeProcesses(): number[] {
  const hub = world.home.hubPid()
  if (hub === null) return []
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        return ppid === hub && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('claude') && alive(pid)
      } catch {
        return false // gone meanwhile
      }
    })
}

const sessionOf = (output: string) => /session (ses_\w+)/.exec(output)?.[1] as string

it('fails with Claude Code’s reason when the turn ends in an error (not logged in)', {
  timeout: 60_000,
}, async () => {
  // No API key: the real CLI answers the turn itself, with is_error and "Not logged in".
  const { ANTHROPIC_API_KEY: _key, ...env } = drivingEnv(world)
  const r = run('hello', [], env)
  expect(await r.exited).toBe(1)
  expect(r.output()).not.toMatch(/\(success/)
  expect(r.output()).toMatch(/^switchboard: session ses_\w+: Not logged in/m)
})

it('ends the session’s CLI when it returns, and sessions send continues the session', {
  timeout: 90_000,
}, async () => {
  world.fake.respond((r) => ({
    text: latestTurn(r).includes('what did I say?') ? 'second answer' : 'first answer',
  }))
  const r = run('remember 42')
  expect(await r.exited).toBe(0)
  const id = sessionOf(r.output())
  expect(r.output()).toContain('first answer')
  expect(r.output()).toContain(`switchboard sessions send ${id}`)
  expect(claudeProcesses()).toEqual([])
  const shown = JSON.parse((await cli('sessions', 'show', id, '--json')).stdout)
  expect(shown).toMatchObject({ live: false, status: 'stopped' })

  const sent = await cli('sessions', 'send', id, 'what did I say?')
  expect(sent.code).toBe(0)
  expect(sent.stdout).toContain('second answer')
  // The same Claude Code session, resumed: the model was shown the first turn too.
  expect(JSON.stringify(world.fake.requests.at(-1)?.messages)).toContain('remember 42')
  expect(claudeProcesses()).toEqual([])
})

it('keeps the session’s CLI running with --keep', { timeout: 60_000 }, async () => {
  world.fake.respond(() => ({ text: 'kept' }))
  const r = run('hello', ['--keep'])
  expect(await r.exited).toBe(0)
  const id = sessionOf(r.output())
  expect(claudeProcesses()).toHaveLength(1)
  expect(JSON.parse((await cli('sessions', 'show', id, '--json')).stdout)).toMatchObject({
    live: true,
    status: 'idle',
  })
})

it('shows a prompt an always-allow rule answered as answered by that rule, and asks nothing', {
  timeout: 90_000,
}, async () => {
  const first = run('make the file')
  await waitFor(() => first.output().includes('[y/n]'), 30_000, `the prompt\n${first.output()}`)
  // The person answers in the dashboard: allow, and always in this folder.
  const id = sessionOf(first.output())
  const view = JSON.parse((await cli('sessions', 'show', id, '--json')).stdout)
  const link = JSON.parse((await cli('open', '--json')).stdout) as { url: string }
  const made = await fetch(`${world.home.url}/api/rules`, {
    method: 'POST',
    headers: { ...(await signInWith(link.url)), [API_HEADER]: '1', 'content-type': 'application/json' },
    body: JSON.stringify({ decision: view.pendingInputs[0].decision, scope: 'folder' }),
  })
  expect(made.status).toBe(201)
  const rule = ((await made.json()) as { rule: { id: string } }).rule.id
  expect(await first.exited).toBe(0)

  const second = run('make the file')
  expect(await second.exited).toBe(0)
  expect(second.output()).not.toContain('[y/n]')
  expect(second.output()).not.toContain('answered elsewhere')
  expect(second.output()).toContain(`allowed by rule ${rule}`)
  expect(second.output()).toContain('all done')
})
