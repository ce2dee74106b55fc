// Interactive Claude Code under tmux, no channel and no development flag, with the hooks that
// `switchboard install claude --hooks` wrote into its throwaway HOME: a Bash permission dialog answered
// from the (fake) Telegram, at the terminal, or from the dashboard in Chromium with an edited input;
// "Claude is waiting for you" on the phone only while the person is away; the dialog as usual with the
// hub stopped; and, in a session that also runs the channel, one decision per dialog.
import { type ChildProcess, execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { type MessagesRequest, toolResults } from '../fakes/anthropic.js'
import type { FakePlatform, FakeUser } from '../fakes/chat-platform.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person } from '../helpers/bridge-world.js'
import { launchChromium } from '../helpers/chromium.js'
import { CLAUDE_BIN, ROOT } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub, type World } from '../helpers/e2e.js'
import { CLI, runCli, waitFor } from '../helpers/home.js'
import { TmuxSession } from '../helpers/tmux.js'

const DIALOG = /Do you want to proceed\?/

/** A hub with a Telegram bridge and a paired operator, and the hooks installed for the world's HOME. */
interface Hooked {
  hub: ChildProcess
  telegram: FakePlatform
  olga: FakeUser
  chat: string
  log: string
}

async function hookedHub(world: World, settings: Record<string, string> = {}): Promise<Hooked> {
  const telegram = await FAKES.telegram()
  world.closers.push(() => telegram.close())
  await world.home.cli(...bridgeAddArgs(telegram))
  const log = join(world.home.dir, 'hub-test.log')
  const hub = await startDrivingHub(world, { SWITCHBOARD_LOG_FILE: log, ...settings })
  await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, telegram, olga, true)
  // As the person does it, into their (throwaway) ~/.claude/settings.json.
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env: drivingEnv(world, settings) })
  return { hub, telegram, olga, chat, log }
}

/** The person's interactive session in the world's project, known to the hub once it started. */
async function terminal(world: World, args: string[] = [], env: Record<string, string> = {}) {
  const session = new TmuxSession([CLAUDE_BIN, '--permission-mode', 'default', ...args], {
    cwd: world.claude.cwd,
    env: world.claude.env(world.fake.url, {
      SWITCHBOARD_HOME: world.home.dir,
      SWITCHBOARD_PORT: String(world.home.port),
      ...env,
    }),
    timeoutSeconds: 180,
  })
  world.closers.push(() => session.kill())
  return session
}

/** SessionStart told the hub (its hook is a command that ran before the prompt was shown). */
async function registered(world: World): Promise<string> {
  let id = ''
  await waitFor(
    async () => {
      const { stdout } = await runCli(['sessions', 'terminals', '--json'], drivingEnv(world))
      const rows = JSON.parse(stdout || '[]') as { folder: string; sessionId: string }[]
      id = rows.find((r) => r.folder === world.claude.cwd)?.sessionId ?? ''
      return id !== ''
    },
    30_000,
    'the session registered by its SessionStart hook',
  )
  return id
}

async function type(session: TmuxSession, prompt: string): Promise<void> {
  await session.waitForScreen(/❯/)
  session.keys('-l', prompt)
  await session.waitForScreen(new RegExp(`❯\\s${prompt}`))
  session.keys('Enter')
}

/**
 * Enter, as a person presses it, until `done` shows on the screen. An Enter sent as a dialog is being
 * drawn may be dropped (seen with 2.1.330, three runs in a row), so a person presses again while the
 * dialog is still there.
 */
async function enterUntil(session: TmuxSession, done: (screen: string) => boolean, what: string) {
  let screen = ''
  for (let press = 1; ; press++) {
    session.keys('Enter')
    const seen = await waitFor(
      () => {
        screen = session.screen()
        return done(screen)
      },
      2_000,
      what,
    ).then(
      () => true,
      () => false,
    )
    if (seen) return
    if (press === 10) throw new Error(`no ${what} after ${press} presses\n--- screen:\n${screen}`)
  }
}

/** "1. Yes" at the terminal; resolves once the dialog is gone. */
const yesAtTheTerminal = (session: TmuxSession) =>
  enterUntil(session, (screen) => !DIALOG.test(screen), 'dialog closing')

/** The model runs `command` with Bash, then says what came of it. */
function modelRuns(world: World, command: string): void {
  world.fake.respond((request: MessagesRequest) => {
    if (toolResults(request).length) return { text: 'the command is done' }
    return { tool: 'Bash', input: { command, description: 'Make a file' } }
  })
}

const file = (world: World, name: string) => join(world.claude.cwd, name)
const permissionPrompts = (h: Hooked) =>
  botMessages(h.telegram, h.chat).filter((m) => m.text.includes('Permission: Bash'))
const notices = (h: Hooked, what: RegExp) => botMessages(h.telegram, h.chat).filter((m) => what.test(m.text))
const logSays = (h: Hooked, msg: string) =>
  readFileSync(h.log, 'utf8')
    .split('\n')
    .filter((l) => l.includes(`"msg":"${msg}"`))

describe('a terminal session with the hooks, no channel', () => {
  const world = e2eWorld()
  let browser: Browser | undefined
  afterAll(async () => {
    await browser?.close()
  })

  it('lets the Bash command run when the Allow button is pressed on Telegram, and closes the dialog', {
    timeout: 120_000,
  }, async () => {
    const h = await hookedHub(world)
    const claude = await terminal(world)
    await registered(world)
    modelRuns(world, 'touch allowed-from-the-phone')
    await type(claude, 'make the file')

    const prompt = await h.telegram.waitFor(() => permissionPrompts(h)[0], 'the prompt on Telegram', 60_000)
    expect(prompt.text).toContain('touch allowed-from-the-phone')
    await claude.waitForScreen(DIALOG)
    const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
    await h.telegram.press(h.olga, h.chat, prompt.messageId, allow?.data as string)

    await waitFor(() => existsSync(file(world, 'allowed-from-the-phone')), 30_000, 'the command to run')
    await claude.waitForScreen(/Allowed by PermissionRequest hook/)
    await h.telegram.waitFor(
      () => h.telegram.sent().find((m) => m.messageId === prompt.messageId && /Allowed by olga/.test(m.text)),
      'the prompt edited to say who allowed it',
    )
  })

  it('edits the Telegram prompt to say so when the person answers at the terminal first', {
    timeout: 120_000,
  }, async () => {
    const h = await hookedHub(world)
    const claude = await terminal(world)
    await registered(world)
    modelRuns(world, 'touch answered-at-the-terminal')
    await type(claude, 'make the file')

    const prompt = await h.telegram.waitFor(() => permissionPrompts(h)[0], 'the prompt on Telegram', 60_000)
    await claude.waitForScreen(DIALOG)
    await yesAtTheTerminal(claude)
    await waitFor(() => existsSync(file(world, 'answered-at-the-terminal')), 30_000, 'the command to run')
    const edited = await h.telegram.waitFor(
      () =>
        h.telegram
          .sent()
          .find((m) => m.messageId === prompt.messageId && /Answered at the terminal/.test(m.text)),
      'the prompt edited to say it was answered at the terminal',
      30_000,
    )
    expect(edited.buttons.flat().map((b) => b.text)).not.toContain('Allow')
    const open = JSON.parse((await runCli(['decisions', '--json'], drivingEnv(world))).stdout)
    expect(open).toEqual([])
  })

  it('runs the input as edited when it is approved edited from the dashboard in Chromium', {
    timeout: 120_000,
  }, async () => {
    await hookedHub(world)
    browser ??= await launchChromium()
    const claude = await terminal(world)
    await registered(world)
    modelRuns(world, 'touch as-asked')
    await type(claude, 'make the file')

    const printed = await world.home.cli('open', '--print')
    const link = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1] as string
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    world.closers.push(() => context.close())
    const page = await context.newPage()
    await page.goto(link)
    await page.getByRole('link', { name: /Inbox/ }).click()
    await page.getByText('touch as-asked').first().waitFor({ timeout: 60_000 })
    await claude.waitForScreen(DIALOG)
    await page.getByRole('button', { name: 'Edit input' }).click()
    await page
      .getByLabel('Input JSON')
      .fill(JSON.stringify({ command: 'touch as-edited', description: 'edited' }))
    await page.getByRole('button', { name: 'Approve' }).click()

    await waitFor(() => existsSync(file(world, 'as-edited')), 30_000, 'the edited command to run')
    await claude.waitForScreen(/Allowed by PermissionRequest hook/)
    await waitFor(
      () => world.fake.requests.some((r) => toolResults(r).length > 0),
      30_000,
      'the tool result to reach the model',
    )
    expect(existsSync(file(world, 'as-asked'))).toBe(false)
  })

  it('tells the operator’s chat once that Claude waits for a person who is away', {
    timeout: 120_000,
  }, async () => {
    // Away at once (presence 0), and no remote answer asked for: the dialog is the terminal's, the
    // phone is told it waits.
    const h = await hookedHub(world, {
      SWITCHBOARD_PRESENCE_SECONDS: '0',
      SWITCHBOARD_HOOK_WAIT_SECONDS: '0',
    })
    const claude = await terminal(world)
    await registered(world)
    modelRuns(world, 'touch after-the-ping')
    await type(claude, 'make the file')
    await claude.waitForScreen(DIALOG)
    const waiting = await h.telegram.waitFor(
      () => notices(h, /Claude is waiting for you/)[0],
      'the waiting notice on Telegram',
      60_000,
    )
    const project = world.claude.cwd.split('/').at(-1)
    // Named by its project and the prompt the person typed.
    expect(waiting.text).toBe(
      `${project} · make the file: Claude is waiting for you\n\nClaude needs your permission`,
    )
    expect(waiting.buttons).toEqual([])

    await yesAtTheTerminal(claude)
    await waitFor(() => existsSync(file(world, 'after-the-ping')), 30_000, 'the command to run')
    // The turn's end comes after the wait in the same chat: by then every notice of the wait is there.
    const finished = await h.telegram.waitFor(
      () => notices(h, /Claude finished its turn/)[0],
      'the turn-end notice',
      60_000,
    )
    expect(finished.text).toBe(`${project} · make the file: Claude finished its turn\n\nthe command is done`)
    expect(notices(h, /Claude is waiting for you/)).toHaveLength(1)
    expect(permissionPrompts(h)).toEqual([])
  })

  it('tells the phone nothing while the person typed at that terminal a moment before, then escalates the wait', {
    timeout: 120_000,
  }, async () => {
    const h = await hookedHub(world, {
      SWITCHBOARD_PRESENCE_SECONDS: '3600',
      SWITCHBOARD_ESCALATE_SECONDS: '2',
      SWITCHBOARD_HOOK_WAIT_SECONDS: '0',
    })
    const claude = await terminal(world)
    const session = await registered(world)
    modelRuns(world, 'touch after-the-escalation')
    await type(claude, 'make the file')
    await claude.waitForScreen(DIALOG)
    // The hub heard the wait and kept it from the phone: the person typed the prompt just now.
    await waitFor(
      () => logSays(h, 'wait not told: its person is at the terminal').some((l) => l.includes(session)),
      60_000,
      'the hub to hold the wait back',
    )
    const escalated = await h.telegram.waitFor(
      () => notices(h, /Claude is waiting for you/)[0],
      'the escalated notice',
      30_000,
    )
    expect(escalated.text).toMatch(/: Claude is waiting for you\n\nClaude needs your permission$/)

    await yesAtTheTerminal(claude)
    await waitFor(() => existsSync(file(world, 'after-the-escalation')), 30_000, 'the command to run')
    await waitFor(
      () => logSays(h, 'turn end not told: its person is at the terminal').some((l) => l.includes(session)),
      60_000,
      'the hub to hold the turn’s end back',
    )
    expect(notices(h, /Claude (is waiting for you|finished its turn)/)).toHaveLength(1)
  })

  it('leaves the dialog to the terminal, answerable as usual, while the hub is stopped', {
    timeout: 120_000,
  }, async () => {
    const h = await hookedHub(world)
    const claude = await terminal(world)
    await registered(world)
    const exited = once(h.hub, 'exit')
    h.hub.kill('SIGTERM')
    await exited
    expect((await fetch(`${world.home.url}/health`).catch(() => null))?.ok).not.toBe(true)

    modelRuns(world, 'touch without-the-hub')
    await type(claude, 'make the file')
    await claude.waitForScreen(DIALOG)
    await yesAtTheTerminal(claude)
    await waitFor(() => existsSync(file(world, 'without-the-hub')), 30_000, 'the command to run').catch(
      (err: Error) => {
        throw new Error(`${err.message}\n--- screen:\n${claude.screen()}`)
      },
    )
    expect(claude.screen()).not.toMatch(/by PermissionRequest hook/)
  })
})

describe('a terminal session with the channel and the hooks', () => {
  const world = e2eWorld({ channelPlugin: 'switchboard' })

  it('puts each dialog to the operators once, and the one answer closes it', {
    timeout: 150_000,
  }, async () => {
    const h = await hookedHub(world)
    // The channel as a user adds it, named by default after the folder, as the hooks name the session.
    world.claude.addUserMcpServer('switchboard', {
      command: process.execPath,
      args: [join(ROOT, 'dist/cli/main.js'), 'channel'],
      env: { SWITCHBOARD_HOME: world.home.dir, SWITCHBOARD_PORT: String(world.home.port) },
    })
    const claude = await terminal(world, ['--dangerously-load-development-channels', 'server:switchboard'])
    await claude.waitForScreen(/I am using this for local development/)
    await enterUntil(claude, (screen) => /Channels \(experimental\)/.test(screen), 'channel banner')
    await registered(world)
    modelRuns(world, 'touch once-only')
    // Claude Code relays a dialog to its channel in a turn a channel message started (2.1.330: a typed
    // prompt's dialog reaches the hook only), so the turn comes from the chat.
    const carol = await world.home.addSender('carol')
    const posted = await fetch(`${world.home.url}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${carol}` },
      body: 'make the file',
    })
    expect(posted.status).toBe(202)

    // Both the channel's relay and the hook's request reach the hub, in either order (the hook is a
    // process Claude Code starts, the relay a notification): the hook's first makes the relay a twin
    // of it, two records; the relay's first has the hook wait on the relay's record.
    const db = join(world.home.dir, 'switchboard.db')
    const stored = async () => {
      const store = openSqliteStore(db)
      try {
        return await store.listDecisions({ kind: 'permission' })
      } finally {
        await store.close()
      }
    }
    const bothArrived = async () => {
      const copies = await stored()
      const hookFirst =
        copies.length === 2 &&
        copies.filter((d) => d.request.twin).length === 1 &&
        copies.filter((d) => d.request.source === 'hook').length === 1
      const relayFirst =
        copies.length === 1 &&
        copies[0]?.request.source !== 'hook' &&
        logSays(h, 'hook waits on its channel’s prompt').length === 1
      return hookFirst || relayFirst
    }
    await waitFor(bothArrived, 60_000, 'both copies of the dialog at the hub').catch(async (err: Error) => {
      throw new Error(
        `${err.message}\n${JSON.stringify(await stored(), null, 1)}\n--- screen:\n${claude.screen()}\n--- log:\n${readFileSync(h.log, 'utf8').slice(-4000)}`,
      )
    })
    const open = JSON.parse((await runCli(['decisions', '--json'], drivingEnv(world))).stdout)
    expect(open).toHaveLength(1)

    const prompt = await h.telegram.waitFor(() => permissionPrompts(h)[0], 'the prompt on Telegram', 30_000)
    await claude.waitForScreen(DIALOG)
    const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
    await h.telegram.press(h.olga, h.chat, prompt.messageId, allow?.data as string)
    await waitFor(() => existsSync(file(world, 'once-only')), 30_000, 'the command to run')
    await waitFor(
      async () => (await stored()).every((d) => d.status === 'answered'),
      30_000,
      'both copies answered by the one press',
    )
    await h.telegram.waitFor(
      () => h.telegram.sent().find((m) => m.messageId === prompt.messageId && /Allowed by olga/.test(m.text)),
      'the prompt edited to say who allowed it',
    )
    await waitFor(
      () => world.fake.requests.some((r) => toolResults(r).length > 0),
      30_000,
      'the tool result to reach the model',
    )
    expect(world.fake.requests.flatMap(toolResults)[0]).toMatchObject({ is_error: false })
    expect(permissionPrompts(h)).toHaveLength(1)
  })
})
