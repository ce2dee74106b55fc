// A project's daily budget with the real Claude Code CLI, offline against the fake API (issue 36's
// acceptance): a routine's first run costs what the CLI prices the fake's tokens at, counted against
// its project and routine; with the project's budget below that, the next run is not started (the
// model is never asked), it ends saying why, and an operator who chose no notices is told anyway.
import { basename } from 'node:path'
import { expect, it } from 'vitest'
import { formatUsd } from '../../src/core/money.js'
import type { RoutineRun } from '../../src/core/routines.js'
import type { UsageReport } from '../../src/core/usage.js'
import { addRoutine, adminCall, drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { runCli, waitFor } from '../helpers/home.js'
import { SseReader } from '../helpers/sse.js'

const world = e2eWorld()

const runs = async () =>
  (await adminCall<{ runs: RoutineRun[] }>(world, 'GET', '/api/routines/nightly/runs')).json.runs

it('starts no run of a routine whose project is over its daily budget, and tells the operators', {
  timeout: 120_000,
}, async () => {
  // A million tokens in each answer: a turn costs dollars at any model's price.
  world.fake.tokens = { input: 1_000_000, output: 1_000 }
  world.fake.respond(() => ({ text: 'all quiet' }))
  const env = drivingEnv(world)
  await startDrivingHub(world)
  const token = await world.home.addSender('laptop', true)
  const laptop = await SseReader.open(world.home.url, token)
  world.closers.push(() => laptop.close())
  expect((await runCli(['notices', 'laptop', 'off'], env)).code).toBe(0)
  const added = await addRoutine(world, {
    name: 'nightly',
    trigger: { kind: 'manual' },
    action: { kind: 'start', folder: world.claude.cwd, prompt: 'look around' },
  })
  expect(added.code).toBe(0)

  expect((await adminCall(world, 'POST', '/api/routines/nightly/fire', {})).status).toBe(201)
  await waitFor(async () => (await runs())[0]?.state === 'done', 60_000, 'the first run to be done')
  const project = basename(world.claude.cwd)
  let spent = 0
  await waitFor(
    async () => {
      const usage = await adminCall<UsageReport>(world, 'GET', '/api/usage?by=routine')
      spent = usage.json.totals.find((t) => t.key === 'nightly')?.costUsd ?? 0
      return spent > 1
    },
    10_000,
    'the run’s cost counted against its routine',
  )
  const byProject = await runCli(['usage', '--by', 'project', '--json'], env)
  expect(JSON.parse(byProject.stdout).totals).toEqual([
    expect.objectContaining({ key: project, costUsd: spent }),
  ])

  // A wrong flag or amount is one line, and nothing is set.
  const wrong = await runCli(['usage', '--by', 'colour'], env)
  expect([wrong.code, wrong.stderr]).toEqual([
    2,
    'switchboard: --by is one of project, session, agent, routine, operator, day\n',
  ])
  const notAnAmount = await runCli(['budget', 'set', project, 'lots'], env)
  expect([notAnAmount.code, notAnAmount.stderr]).toEqual([
    2,
    'switchboard: "lots" is not an amount of dollars a day, e.g. 5/day\n',
  ])
  expect((await runCli(['budget', 'set', project, '1/day'], env)).stdout).toBe(
    `${project}: $1.00 a day; operators told at 50%, 80%, 100%\n`,
  )
  const asked = world.fake.requests.length
  expect((await adminCall(world, 'POST', '/api/routines/nightly/fire', {})).status).toBe(201)
  await waitFor(
    async () => (await runs()).length === 2 && (await runs())[0]?.state !== 'pending',
    30_000,
    'the second run to end',
  )
  const [second] = await runs()
  const reason = `not started: project ${project} is over its daily budget: ${formatUsd(spent)} of $1.00 spent today (UTC)`
  expect(second).toMatchObject({ state: 'stopped', reason, sessionId: null })
  expect(world.fake.requests.length).toBe(asked)
  await waitFor(
    () =>
      laptop.messages.some(
        (m) => m.event === 'notice' && String((m.data as { text?: string }).text).includes(reason),
      ),
    10_000,
    'the operator told why',
  )
})
