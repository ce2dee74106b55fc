// Interactive Claude Code in auto mode under tmux, with the hooks `switchboard install claude --hooks`
// wrote: the fake Messages API's safety verdict (auto mode's classifier, asked of the server by
// 2.1.330) blocks a Bash call, the PermissionDenied hook puts it to operators as a `denied` decision,
// and "Allow a retry" lets the retried call really run (its PreToolUse, answered allow by the hub,
// comes before the classifier, which still blocks it); "Leave it denied" leaves the wall standing.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestTurn, type MessagesRequest, toolResults } from '../fakes/anthropic.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person } from '../helpers/bridge-world.js'
import { CLAUDE_BIN } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub, type World } from '../helpers/e2e.js'
import { CLI, runCli, waitFor } from '../helpers/home.js'
import { TmuxSession } from '../helpers/tmux.js'

/** A command the classifier is made to block; it prints what only running it gives. */
const COMMAND = 'echo retried-$((6*7))'
const RAN = 'retried-42'
const REASON = 'Arithmetic in the shell is not allowed here'
/** What Claude Code adds after the denial when the hook says the model may retry. */
const MAY_RETRY = 'The PermissionDenied hook indicated you may retry this tool call.'

/** The classifier blocks COMMAND every time (a retry meets the same wall); the model retries when told it may. */
function blockedModel(world: World): void {
  world.fake.judge((call) =>
    call.name === 'Bash' && (call.input as { command?: unknown }).command === COMMAND ? REASON : null,
  )
  let retried = false
  world.fake.respond((request: MessagesRequest) => {
    if (!toolResults(request).length)
      return { tool: 'Bash', input: { command: COMMAND, description: 'Do sums' } }
    if (!retried && latestTurn(request).includes(MAY_RETRY)) {
      retried = true
      return { tool: 'Bash', input: { command: COMMAND, description: 'Do sums again' } }
    }
    return { text: 'finished' }
  })
}

/** The results the model was handed for COMMAND, in order. */
function resultsSeen(world: World): { content: string; is_error: boolean }[] {
  return world.fake.requests
    .flatMap((r) => toolResults(r))
    .map((b) => ({ content: JSON.stringify(b.content), is_error: b.is_error === true }))
    .filter((b, i, all) => all.findIndex((o) => o.content === b.content) === i)
}

async function hookedHub(world: World) {
  const telegram = await FAKES.telegram()
  world.closers.push(() => telegram.close())
  await world.home.cli(...bridgeAddArgs(telegram))
  await startDrivingHub(world, { SWITCHBOARD_LOG_FILE: join(world.home.dir, 'hub-test.log') })
  await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, telegram, olga, true)
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env: drivingEnv(world) })
  return { telegram, olga, chat }
}

/** The person's session in auto mode, its first prompt typed. */
async function autoModeSession(world: World, prompt: string): Promise<TmuxSession> {
  const session = new TmuxSession([CLAUDE_BIN, '--permission-mode', 'auto'], {
    cwd: world.claude.cwd,
    env: world.claude.env(world.fake.url, {
      SWITCHBOARD_HOME: world.home.dir,
      SWITCHBOARD_PORT: String(world.home.port),
    }),
    timeoutSeconds: 180,
  })
  world.closers.push(() => session.kill())
  await session.waitForScreen(/❯/, 60_000)
  session.keys('-l', prompt)
  await session.waitForScreen(new RegExp(`❯\\s${prompt}`))
  session.keys('Enter')
  return session
}

describe('a call auto mode denied, in a terminal session with the hooks', () => {
  const world = e2eWorld()

  it('reaches Telegram, and Allow a retry there lets the retried call run: the model gets its real output', {
    timeout: 150_000,
  }, async () => {
    const h = await hookedHub(world)
    blockedModel(world)
    await autoModeSession(world, 'do the sums')

    const prompt = await h.telegram.waitFor(
      () => botMessages(h.telegram, h.chat).find((m) => m.text.includes('Auto mode denied Bash')),
      'the denied call on Telegram',
      60_000,
    )
    expect(prompt.text).toContain(COMMAND)
    expect(prompt.text).toContain(REASON)
    const buttons = prompt.buttons.flat()
    expect(buttons.map((b) => b.text)).toEqual(expect.arrayContaining(['Allow a retry', 'Leave it denied']))
    const retry = buttons.find((b) => b.text === 'Allow a retry')
    await h.telegram.press(h.olga, h.chat, prompt.messageId, retry?.data as string)

    await waitFor(
      () => resultsSeen(world).some((r) => r.content.includes(RAN)),
      60_000,
      `the retried command's output at the model\n${JSON.stringify(resultsSeen(world))}`,
    )
    const results = resultsSeen(world)
    // First the classifier's denial, then the retry's real output (the classifier blocked it again).
    expect(results[0]).toMatchObject({ is_error: true })
    expect(results[0]?.content).toContain(REASON)
    expect(results.find((r) => r.content.includes(RAN))).toMatchObject({ is_error: false })
    expect(world.fake.requestsMentioning(MAY_RETRY).length).toBeGreaterThan(0)
    await h.telegram.waitFor(
      () =>
        h.telegram
          .sent()
          .find((m) => m.messageId === prompt.messageId && /Retry allowed by olga/.test(m.text)),
      'the prompt edited to say who allowed the retry',
    )
  })

  it('stays denied when an operator leaves it denied with switchboard answer: no retry, nothing runs', {
    timeout: 150_000,
  }, async () => {
    await hookedHub(world)
    blockedModel(world)
    await autoModeSession(world, 'do the sums')

    const env = drivingEnv(world)
    let open: { code: string; kind: string; request: Record<string, unknown> }[] = []
    await waitFor(
      async () => {
        open = JSON.parse((await runCli(['decisions', '--json'], env)).stdout)
        return open.length === 1
      },
      60_000,
      'the denied call as a decision',
    )
    expect(open[0]).toMatchObject({
      kind: 'denied',
      request: { tool_name: 'Bash', input: { command: COMMAND }, denied_reason: REASON, source: 'hook' },
    })
    const listed = (await runCli(['decisions'], env)).stdout
    expect(listed).toContain(`Auto mode denied Bash \`${COMMAND}\``)
    expect((await runCli(['answer', open[0]?.code as string, 'no'], env)).stdout).toMatch(/^left denied /)

    await waitFor(
      () => resultsSeen(world).length > 0,
      60_000,
      'the denial handed to the model once the hook answered',
    )
    await waitFor(
      () => world.fake.requestsMentioning('finished').length > 0 || world.fake.requests.length >= 2,
      30_000,
      'the model answered after the denial',
    )
    // The model's turn ends on the denial: it was not told it may retry, and nothing ran.
    expect(world.fake.requestsMentioning(MAY_RETRY)).toEqual([])
    expect(resultsSeen(world).some((r) => r.content.includes(RAN))).toBe(false)
    expect(JSON.parse((await runCli(['decisions', '--json'], env)).stdout)).toEqual([])
  })
})
