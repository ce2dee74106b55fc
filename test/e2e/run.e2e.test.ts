// `switchboard run`: a terminal front end that streams the session and asks for permissions inline,
// while answers from elsewhere (an operator's phone) also count.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, expect, it } from 'vitest'
import { textOf, toolResults } from '../fakes/anthropic.js'
import { drivingEnv, e2eWorld } from '../helpers/e2e.js'
import { CLI, waitFor } from '../helpers/home.js'
import { SseReader } from '../helpers/sse.js'

const world = e2eWorld()

beforeEach(() => {
  world.fake.respond((r) =>
    toolResults(r).length
      ? { text: `all done: ${textOf(toolResults(r)[0]?.content) || 'ok'}` }
      : { tool: 'Bash', input: { command: 'touch made-by-run', description: 'make the file' } },
  )
})

function run(prompt: string) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [CLI, 'run', prompt, '--cwd', world.claude.cwd],
    {
      env: drivingEnv(world),
    },
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
  expect(r.output()).toMatch(/● Bash \{"command":"touch made-by-run"/)
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
