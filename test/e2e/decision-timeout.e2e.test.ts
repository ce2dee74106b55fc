// The real Claude Code CLI (-p, no channel) with the hooks installed, against a hub whose config
// gives a decision a short timeout that denies: the Bash dialog's prompt on the (fake) Telegram says
// when it will be denied, the operator is warned once before, and when nobody answers the model is
// told it was denied (the fake Messages API sees the tool_result) while the prompt says why it closed.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { type MessagesRequest, textOf, toolResults } from '../fakes/anthropic.js'
import { botMessages, bridgeAddArgs, editOf, FAKES, pair, person } from '../helpers/bridge-world.js'
import { PrintSession } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { CLI } from '../helpers/home.js'

const world = e2eWorld()

/** The settings under test, as a person writes them in the home's config.json. */
const TIMEOUT = { decisionTimeout: '12s', decisionTimeoutOutcome: 'deny', decisionWarning: '6s' }

it('denies a dialog nobody answers in time, said on Telegram before and after, and the model is told', {
  timeout: 120_000,
}, async () => {
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify(TIMEOUT))
  const telegram = await FAKES.telegram()
  world.closers.push(() => telegram.close())
  await world.home.cli(...bridgeAddArgs(telegram))
  const log = join(world.home.dir, 'hub-test.log')
  await startDrivingHub(world, { SWITCHBOARD_LOG_FILE: log })
  await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, telegram, olga, true)
  const env = drivingEnv(world)
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })

  const results: string[] = []
  world.fake.respond((r: MessagesRequest) => {
    const [result] = toolResults(r)
    if (result) {
      results.push(textOf(result))
      return { text: 'it was not allowed' }
    }
    return { tool: 'Bash', input: { command: 'touch nobody-answered', description: 'make a file' } }
  })
  // A person's session: not the hub's (SWITCHBOARD_DRIVEN unset).
  const { SWITCHBOARD_DRIVEN: _, ...personal } = env
  const session = new PrintSession([], { cwd: world.claude.cwd, env: personal })
  world.closers.push(() => session.close())
  session.send('make the file')

  const prompt = await telegram.waitFor(
    () => botMessages(telegram, chat).find((m) => m.text.includes('Permission: Bash')),
    'the prompt on Telegram',
    60_000,
  )
  expect(prompt.text).toMatch(/\n⏱ Denied at \d\d:\d\d unless answered$/)
  const warning = await telegram.waitFor(
    () => botMessages(telegram, chat).find((m) => m.text.includes('is still waiting for an answer')),
    'the warning on Telegram',
    30_000,
  )
  expect(warning.text).toMatch(
    /: Bash is still waiting for an answer\. Denied at \d\d:\d\d unless answered \(in 6 s\)/,
  )

  await session.waitForResults(1)
  expect(results).toEqual(["Denied by Switchboard's decision timeout: no one answered within 12 s"])
  expect(existsSync(join(world.claude.cwd, 'nobody-answered'))).toBe(false)
  await editOf(telegram, chat, prompt.messageId, 'Denied: no one answered within 12 s', 'the prompt closed')
  // Warned once, whatever came after.
  expect(botMessages(telegram, chat).filter((m) => m.text.includes('is still waiting'))).toHaveLength(1)
  expect(readFileSync(log, 'utf8')).toContain('"msg":"decision timeout warned"')
})
