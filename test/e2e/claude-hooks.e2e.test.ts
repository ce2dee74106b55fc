// The real Claude Code CLI (-p, no channel, no development flag) with Switchboard's HTTP hooks
// installed: a Bash permission dialog becomes a decision, answered with `switchboard answer`, and the
// command runs (`touch`: not one Claude Code allows on its own); the hook's header names come from
// the session's environment.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { toolResults } from '../fakes/anthropic.js'
import { PrintSession } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { CLI, runCli, waitFor } from '../helpers/home.js'

const world = e2eWorld()

it('lets a Bash command run once its PermissionRequest hook is answered yes with switchboard answer', {
  timeout: 90_000,
}, async () => {
  const env = drivingEnv(world)
  await startDrivingHub(world, {
    SWITCHBOARD_LOG_FILE: join(world.home.dir, 'hub-test.log'),
    SWITCHBOARD_LOG_LEVEL: 'debug',
  })
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })
  world.fake.respond((r) => {
    if (toolResults(r).length) return { text: 'ran it' }
    return { tool: 'Bash', input: { command: 'touch approved-by-switchboard', description: 'make a file' } }
  })
  // A session of a person: not the hub's (SWITCHBOARD_DRIVEN unset), named by its environment.
  const { SWITCHBOARD_DRIVEN: _, ...person } = env
  const session = new PrintSession([], {
    cwd: world.claude.cwd,
    env: { ...person, SWITCHBOARD_CHANNEL_NAME: 'by-env' },
  })
  world.closers.push(() => session.close())
  session.send('say it')
  let open: { code: string; owner: string; request: Record<string, unknown> }[] = []
  await waitFor(
    async () => {
      open = JSON.parse((await runCli(['decisions', '--json'], env)).stdout)
      return open.length === 1
    },
    30_000,
    `the dialog as a decision\n${session.stderr.join('')}\n${JSON.stringify(session.lines).slice(0, 4000)}\n${readFileSync(join(world.home.dir, 'hub-test.log'), 'utf8').slice(-3000)}\n${readFileSync(join(world.claude.home, '.claude', 'settings.json'), 'utf8')}`,
  )
  expect(open[0]?.request).toMatchObject({
    tool_name: 'Bash',
    input: { command: 'touch approved-by-switchboard' },
    cwd: world.claude.cwd,
    name: 'by-env',
    source: 'hook',
  })
  expect((await runCli(['answer', open[0]?.code as string, 'yes'], env)).stdout).toMatch(/^allowed /)
  await session.waitForResults(1)
  const afterTool = world.fake.requests.find((r) => toolResults(r).length > 0)
  expect(toolResults(afterTool as never)[0]).toMatchObject({ is_error: false })
  expect(existsSync(join(world.claude.cwd, 'approved-by-switchboard'))).toBe(true)
  // The session is known to the hub, and told it to nobody else as a session of its own.
  const terminals = JSON.parse((await runCli(['sessions', 'terminals', '--json'], env)).stdout)
  expect(terminals).toEqual([expect.objectContaining({ folder: world.claude.cwd, name: 'by-env' })])
})
