// `switchboard run` as a person reads it at the terminal, against the scripted stand-in for Claude
// Code: a tool call and its prompt as the command it runs (`$ …`), not the input's JSON, and what the
// turn cost as money, whatever float the CLI summed it to.
import { spawn } from 'node:child_process'
import { expect, it } from 'vitest'
import { type FakeStep, fakeClaude } from './helpers/fake-claude.js'
import { CLI, waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

/** A hub whose sessions' CLIs play `steps`, and `switchboard run` on it; its output as it comes. */
async function run(steps: FakeStep[]) {
  const fake = fakeClaude(world.home.dir, { turns: [{ steps }] })
  world.home.extraEnv.CLAUDE_CODE_PATH = fake.env.CLAUDE_CODE_PATH as string
  world.home.extraEnv.FAKE_CLAUDE_SCRIPT = fake.env.FAKE_CLAUDE_SCRIPT as string
  world.home.extraEnv.SWITCHBOARD_SESSION_ENV = 'FAKE_CLAUDE_SCRIPT'
  const hub = spawn(process.execPath, [CLI, 'serve'], { env: world.home.env, stdio: 'ignore' })
  world.opened.push({ close: () => hub.kill('SIGKILL') })
  await world.home.waitForHub()
  const child = spawn(process.execPath, [CLI, 'run', 'clean up and test', '--cwd', world.home.dir], {
    env: world.home.env,
  })
  world.opened.push({ close: () => child.kill() })
  let output = ''
  child.stdout.on('data', (c: Buffer) => {
    output += c
  })
  child.stderr.on('data', (c: Buffer) => {
    output += c
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return { child, output: () => output, exited }
}

it('shows a Bash call and its prompt as the command it runs, not as JSON', async () => {
  const r = await run([
    { ask: { tool: 'Bash', input: { command: 'rm -rf build && npm test', description: 'clean and test' } } },
    { say: 'all green' },
  ])
  await waitFor(() => r.output().includes('[y/n]'), 30_000, `the prompt\n${r.output()}`)
  const lines = r.output().split('\n')
  expect(lines).toContain('● Bash $ rm -rf build && npm test')
  expect(lines.at(-2)).toBe(
    'Claude wants to run Bash: $ rm -rf build && npm test (Claude\'s description: "clean and test")',
  )
  expect(lines.at(-1)).toMatch(/^Allow\? \[y\/n\] \(or answer "[a-z]{5}" from anywhere\) $/)
  expect(r.output()).not.toContain('{"command"')
  r.child.stdin.write('y\n')
  expect(await r.exited).toBe(0)
  expect(r.output()).toContain('all green')
})

it('prints what the turn cost as money, not the float Claude Code summed', async () => {
  // 0.1 + 0.2 is 0.30000000000000004.
  const r = await run([{ say: 'done' }, { result: { total_cost_usd: 0.1 + 0.2 } }])
  expect(await r.exited).toBe(0)
  expect(r.output().split('\n')).toContain('(success, 1 turns, $0.30)')
})
