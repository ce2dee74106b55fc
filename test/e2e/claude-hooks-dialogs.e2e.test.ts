// Questions and plans of a Claude Code session at a terminal (the real CLI under tmux, no channel, no
// development flag) with Switchboard's hooks installed: they come through PermissionRequest with their
// dialog on screen, so the terminal and the operators race. A two-question AskUserQuestion answered in
// the dashboard (Chromium) reaches the model with both answers; a plan, shown with its text, sent back
// with a comment reaches the model as that comment; a question answered at the terminal first closes
// the operators' copy, which says so.
import { execFileSync } from 'node:child_process'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type MessagesRequest, textOf, toolResults } from '../fakes/anthropic.js'
import { launchChromium } from '../helpers/chromium.js'
import { CLAUDE_BIN } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { CLI, runCli, waitFor } from '../helpers/home.js'
import { TWO_QUESTIONS } from '../helpers/questions.js'
import { SseReader } from '../helpers/sse.js'
import { TmuxSession } from '../helpers/tmux.js'

const world = e2eWorld()
let browser: Browser

beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** The tool the model called last in this conversation, if its result is what the request brings. */
function lastToolCalled(request: MessagesRequest): string | null {
  if (!toolResults(request).length) return null
  const assistant = request.messages.filter((m) => m.role === 'assistant').at(-1)
  const blocks = typeof assistant?.content === 'string' ? [] : (assistant?.content ?? [])
  return blocks.filter((b) => b.type === 'tool_use').at(-1)?.name ?? null
}

const theResultOf = (tool: string) =>
  world.fake.requests.filter((r) => lastToolCalled(r) === tool).map((r) => toolResults(r)[0])[0]

/** The hub, the hooks installed as a person does, and the session of a person at a terminal. */
async function terminalSession(
  prompt: string,
  mode: 'default' | 'plan' = 'default',
  /** What to do once the hub runs, before the session starts (an operator following its stream). */
  before: () => Promise<unknown> = async () => {},
): Promise<TmuxSession> {
  const env = drivingEnv(world)
  await startDrivingHub(world)
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })
  await before()
  const { SWITCHBOARD_DRIVEN: _, CLAUDE_CODE_PATH: __, ...person } = env
  const terminal = new TmuxSession([CLAUDE_BIN, '--permission-mode', mode], {
    cwd: world.claude.cwd,
    env: person,
  })
  world.closers.push(() => terminal.kill())
  await terminal.waitForScreen(/❯/)
  terminal.keys('-l', prompt)
  await terminal.waitForScreen(new RegExp(`❯\\s${prompt}`))
  terminal.keys('Enter')
  return terminal
}

/**
 * Sends `key` until the screen shows `taken`; again only while it still shows `untaken` after a while
 * (a dialog that is drawn may not take keys yet, and a key it took is never sent twice).
 */
async function pressUntil(terminal: TmuxSession, key: string, taken: RegExp, untaken: RegExp): Promise<void> {
  await waitFor(
    async () => {
      if (taken.test(terminal.screen())) return true
      if (!untaken.test(terminal.screen())) return false
      terminal.keys(key)
      await terminal.waitForScreen(taken, 3_000).catch(() => {})
      return taken.test(terminal.screen())
    },
    30_000,
    `${key} taken (${taken} on screen)`,
  )
}

/** The dashboard, signed in with the link `switchboard open --print` prints, on its inbox. */
async function inbox(): Promise<Page> {
  const printed = await world.home.cli('open', '--print')
  const url = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1] as string
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  world.closers.push(() => context.close())
  const page = await context.newPage()
  await page.goto(url)
  await page.getByRole('link', { name: /Inbox/ }).click()
  return page
}

it('answers both questions of an AskUserQuestion from the dashboard while the dialog is on screen; the model gets both answers', {
  timeout: 120_000,
}, async () => {
  world.fake.respond((r) =>
    lastToolCalled(r) === 'AskUserQuestion'
      ? { text: `got: ${textOf(toolResults(r)[0]?.content)}` }
      : { tool: 'AskUserQuestion', input: TWO_QUESTIONS },
  )
  const terminal = await terminalSession('ask me')
  const page = await inbox()
  await page.getByText('Which size?').first().waitFor({ timeout: 60_000 })
  // The person at the terminal sees the same question meanwhile.
  await terminal.waitForScreen(/Which colour\?/)
  await page.getByRole('button', { name: 'blue' }).click()
  await page.getByRole('button', { name: 'large' }).click()
  await page.getByRole('button', { name: 'Submit answers' }).click()
  await waitFor(() => theResultOf('AskUserQuestion') !== undefined, 60_000, 'the answers to reach the model')
  expect(textOf(theResultOf('AskUserQuestion')?.content)).toContain(
    '"Which colour?"="blue", "Which size?"="large"',
  )
  await terminal.waitForScreen(/Which size\? → large/)
})

it('shows a plan’s text in the dashboard and sends it back with a comment the model receives', {
  timeout: 120_000,
}, async () => {
  let planFile = ''
  world.fake.respond((r) => {
    const called = lastToolCalled(r)
    if (called === 'ExitPlanMode') return { text: `told: ${textOf(toolResults(r)[0]?.content)}` }
    if (called === 'Write') return { tool: 'ExitPlanMode', input: {} }
    // The plan-mode reminder names the plan file: the model writes its plan there, as Claude does.
    planFile ||= /[^\s"'`\\]*\/plans\/[^\s"'`\\]+\.md/.exec(JSON.stringify(r))?.[0] ?? ''
    return {
      tool: 'Write',
      input: { file_path: planFile, content: '# Paint\n\n1. paint the shed\n2. tidy up\n' },
    }
  })
  const terminal = await terminalSession('plan it', 'plan')
  const page = await inbox()
  await page.getByRole('button', { name: 'Send back' }).waitFor({ timeout: 60_000 })
  // The plan's text came with the dialog (tool_input.plan): operators approve what they read.
  await page.getByText('1. paint the shed').first().waitFor()
  const [listed] = JSON.parse((await runCli(['decisions', '--json'], world.home.env)).stdout)
  expect(listed.request.input).toEqual({
    plan: '# Paint\n\n1. paint the shed\n2. tidy up\n',
    planFilePath: planFile,
  })
  await terminal.waitForScreen(/Exit plan mode\?|Would you like to proceed/)
  await page.getByLabel('Comment').fill('paint the house instead')
  await page.getByRole('button', { name: 'Send back' }).click()
  await waitFor(() => theResultOf('ExitPlanMode') !== undefined, 60_000, 'the comment to reach the model')
  expect(theResultOf('ExitPlanMode')).toMatchObject({ is_error: true, content: 'paint the house instead' })
})

it('closes the operators’ copy of a question answered at the terminal first, saying what was answered', {
  timeout: 120_000,
}, async () => {
  world.fake.respond((r) =>
    lastToolCalled(r) === 'AskUserQuestion'
      ? { text: `got: ${textOf(toolResults(r)[0]?.content)}` }
      : { tool: 'AskUserQuestion', input: TWO_QUESTIONS },
  )
  let operator = null as unknown as SseReader
  const terminal = await terminalSession('ask me', 'default', async () => {
    operator = await SseReader.open(world.home.url, await world.home.addSender('phone', true))
    world.closers.push(() => operator.close())
  })
  await waitFor(
    () => operator.messages.some((m) => m.event === 'question'),
    60_000,
    'the question on the phone',
  )
  const code = (operator.messages.find((m) => m.event === 'question')?.data as { id: string } | undefined)?.id
  // A dialog may draw before it takes keys: a key is sent again while the screen shows it was not taken.
  await pressUntil(terminal, '2', /☒ Colour/, /☐ Colour/)
  await pressUntil(terminal, '1', /Submit answers/, /☐ Size/)
  await pressUntil(terminal, '1', /Which size\? → small/, /Submit answers/)
  await waitFor(
    () => theResultOf('AskUserQuestion') !== undefined,
    60_000,
    'the terminal’s answers to reach the model',
  )
  await waitFor(
    () => operator.messages.some((m) => m.event === 'decision' && (m.data as { id: string }).id === code),
    30_000,
    'the phone’s copy closed',
  )
  expect(operator.messages.find((m) => m.event === 'decision')?.data).toMatchObject({
    id: code,
    status: 'cancelled',
    reason: 'answered at the terminal (Which colour? → blue; Which size? → small)',
  })
  expect((await runCli(['decisions', '--json'], world.home.env)).stdout.trim()).toBe('[]')
})
