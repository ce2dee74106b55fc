// Receipts on the hooks rung (issue 33), with the real Claude Code CLI: a session without a channel,
// Switchboard's hooks installed with `switchboard install claude --hooks`, takes a webhook event with
// its UserPromptSubmit hook and another with a PostToolUse hook; the hub reads the session's
// transcript and each event's receipt reads in_context on GET /api/events/:id.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { textOf, toolResults } from '../fakes/anthropic.js'
import { PrintSession } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { CLI, waitFor } from '../helpers/home.js'
import { inContextCounts, postWebhook, transcriptSummary, waitForState } from '../helpers/receipts.js'

const world = e2eWorld()

it('confirms from the transcript the events the hooks handed over: with the prompt, and after a tool call', {
  timeout: 120_000,
}, async () => {
  const env = drivingEnv(world)
  // The project's sessions take the ci topic, whatever project an event is about.
  writeFileSync(join(world.claude.cwd, '.switchboard.json'), JSON.stringify({ topics: ['ci'] }))
  await startDrivingHub(world)
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })
  const secret = await world.home.addSource('ci')
  // Waits, parked, for the session: its first hook names it, and its prompt's hook takes the event.
  const first = await postWebhook(world, 'ci', secret, 'the deploy finished')
  // The tool waits for the test, so the second event comes while it runs.
  const go = join(world.claude.cwd, 'go')
  world.fake.respond((r) => {
    if (toolResults(r).length) return { text: 'done' }
    return {
      tool: 'Bash',
      input: { command: 'for i in $(seq 600); do [ -e go ] && break; sleep 0.1; done', description: 'wait' },
    }
  })
  // A session of a person: not the hub's (SWITCHBOARD_DRIVEN unset), no channel, no flag.
  const { SWITCHBOARD_DRIVEN: _, ...person } = env
  const session = new PrintSession(['--allowedTools', 'Bash'], {
    cwd: world.claude.cwd,
    env: { ...person, SWITCHBOARD_CHANNEL_NAME: 'by-hooks' },
  })
  world.closers.push(() => session.close())
  session.send('say it')
  await waitFor(() => world.fake.requests.length > 0, 60_000, 'the model to be asked')
  const second = await postWebhook(world, 'ci', secret, 'the tests pass again')
  writeFileSync(go, '')
  await session.waitForResults(1)
  // The model was shown each, once.
  expect(textOf(world.fake.requests[0]?.messages)).toContain('the deploy finished')
  const afterTool = world.fake.requests.find((r) => toolResults(r).length > 0)
  expect(textOf(afterTool?.messages)).toContain('the tests pass again')
  expect(Object.fromEntries(inContextCounts(world))).toEqual({ [first]: 1, [second]: 1 })

  try {
    const receipts = await waitForState(world, [first, second], 'in_context', 30_000)
    for (const r of receipts) expect(r).toMatchObject({ subscriber: 'by-hooks', tries: 1, reason: null })
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- transcript:\n${transcriptSummary(world)}`)
  }
})
