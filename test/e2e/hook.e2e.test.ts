// Rung 3 with the real CLI, channels off: `switchboard install claude --hooks` sets the hooks up (HTTP
// hooks to the hub); an event published while the session works reaches the model after the next tool
// call, once.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { latestTurn, textOf, toolResults } from '../fakes/anthropic.js'
import { PrintSession } from '../helpers/claude.js'
import { e2eWorld } from '../helpers/e2e.js'
import { CLI } from '../helpers/home.js'

const world = e2eWorld()

it('hands an event published mid-turn to the model after the next tool call, exactly once', {
  timeout: 60_000,
}, async () => {
  const env = {
    ...world.claude.env(world.fake.url),
    SWITCHBOARD_HOME: world.home.dir,
    SWITCHBOARD_PORT: String(world.home.port),
    SWITCHBOARD_CHANNEL_NAME: 'hooked',
  }
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })
  const settings = JSON.parse(readFileSync(join(world.claude.home, '.claude', 'settings.json'), 'utf8'))
  expect(Object.keys(settings.hooks)).toEqual([
    'PermissionRequest',
    'PermissionDenied',
    'PreToolUse',
    'Notification',
    'Stop',
    'SessionStart',
    'SessionEnd',
    'UserPromptSubmit',
    'PostToolUse',
  ])
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env }) // twice: still one entry each
  expect(
    JSON.parse(readFileSync(join(world.claude.home, '.claude', 'settings.json'), 'utf8')).hooks.PostToolUse,
  ).toHaveLength(1)

  const secret = await world.home.addSource('ci')
  let published = false
  world.fake.respond(async (r) => {
    if (toolResults(r).length) return { text: 'finished' }
    if (!latestTurn(r).includes('run the checks')) return { text: 'ok' }
    // The model is working (this very request): an event arrives now.
    if (!published) {
      published = true
      const res = await fetch(`${world.home.url}/hooks/ci`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}` },
        body: 'main is red again',
      })
      expect(res.status).toBe(202)
    }
    return { tool: 'Bash', input: { command: 'echo checks', description: 'run checks' } }
  })
  const session = new PrintSession(['--allowedTools', 'Bash'], { cwd: world.claude.cwd, env })
  world.closers.push(() => session.close())
  session.send('run the checks')
  await session.waitForResults(1)

  const afterTool = world.fake.requests.find((r) => toolResults(r).length > 0)
  expect(textOf(afterTool?.messages)).toMatch(
    /<channel source="switchboard"[^>]*origin="ci"[^>]*>\s*main is red again/,
  )
  const conversation = textOf(world.fake.requests.at(-1)?.messages)
  expect(conversation.match(/main is red again/g)).toHaveLength(1)
})
