// bench/hooks: a permission dialog of an interactive Claude Code session (the real CLI under tmux,
// offline against the fake Messages API, the hooks `switchboard install claude --hooks` writes) to the
// prompt on a fake Telegram, and the Allow press back to the dialog closing, over N rounds. The hub's
// own share is timed at a pass-through proxy in front of its socket: the PermissionRequest hook's request
// arriving → the bridge's sendMessage at the fake Telegram, and the press → the hook's answer leaving.
// Claude Code sends the hook before it draws the dialog, so the dialog's opening is the hook's request;
// when the dialog shows on the screen is printed beside it.
import { type ChildProcess, execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { Agent, createServer, request } from 'node:http'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { paths } from '../../src/core/config.js'
import { FakeAnthropic, type MessagesRequest, toolResults } from '../../test/fakes/anthropic.js'
import { startFakeTelegram } from '../../test/fakes/telegram.js'
import { botMessages, bridgeAddArgs, pair, person, spawnHub } from '../../test/helpers/bridge-world.js'
import { CLAUDE_BIN, ClaudeHome } from '../../test/helpers/claude.js'
import { CLI, TestHome, waitFor } from '../../test/helpers/home.js'
import { TmuxSession } from '../../test/helpers/tmux.js'
import { fmt, summarize } from '../stats.js'

const ROUNDS = Number(process.env.BENCH_HOOK_ROUNDS ?? 30)
const WARMUP = 3
const DIALOG = /Do you want to proceed\?/

/**
 * Listens on a socket of its own, forwards every request down the hub's socket as it is, and stamps
 * when a PermissionRequest came and went.
 */
function timingProxy(hubSocket: string, path: string) {
  const agent = new Agent({ keepAlive: true })
  const asked: number[] = []
  const answered: number[] = []
  /** Stop hooks answered: each a turn over, so the next prompt is a turn of its own. */
  let stops = 0
  const server = createServer((req, res) => {
    const permission = req.url?.endsWith('/PermissionRequest') ?? false
    if (permission) asked.push(performance.now())
    const upstream = request(
      {
        socketPath: hubSocket,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('end', () => {
          if (permission) answered.push(performance.now())
          if (req.url?.endsWith('/Stop')) stops++
        })
      },
    )
    // Claude Code gave up on the hook: so does the hub.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy()
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  server.listen(path)
  return { server, asked, answered, stops: () => stops, path }
}

const fake = await new FakeAnthropic().start()
const claude = new ClaudeHome()
const home = await TestHome.create()
const telegram = await startFakeTelegram()
let hub: ChildProcess | undefined
let terminal: TmuxSession | undefined
const proxy = timingProxy(paths.hubSocket(home.dir, home.port), join(home.dir, 'timing.sock'))
try {
  const env = {
    ...claude.env(fake.url),
    SWITCHBOARD_HOME: home.dir,
    SWITCHBOARD_PORT: String(home.port),
  }
  await home.cli(...bridgeAddArgs(telegram))
  hub = spawnHub(home)
  await home.waitForHub(15_000)
  await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge', 30_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(home, telegram, olga, true)

  // Installed as a person does, then aimed at the proxy (the hub's socket behind it).
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })
  const settings = join(claude.home, '.claude', 'settings.json')
  writeFileSync(
    settings,
    readFileSync(settings, 'utf8').replaceAll(paths.hubSocket(home.dir, home.port), proxy.path),
  )

  // When the bridge's sendMessage of a permission prompt reached the fake Telegram.
  const prompted: number[] = []
  const calls = telegram.calls
  const push = calls.push.bind(calls)
  calls.push = (...items) => {
    for (const c of items)
      if (c.method === 'sendMessage' && String(c.fields.text ?? '').includes('Permission: Bash'))
        prompted.push(performance.now())
    return push(...items)
  }

  terminal = new TmuxSession([CLAUDE_BIN, '--permission-mode', 'default'], {
    cwd: claude.cwd,
    env,
    timeoutSeconds: 3600,
  })
  const screen = terminal
  await screen.waitForScreen(/❯/, 60_000)

  /** Polls the screen without blocking the fake Telegram and the proxy in this process. */
  async function whenScreen(test: (text: string) => boolean, what: string): Promise<number> {
    const deadline = performance.now() + 60_000
    for (;;) {
      const text = await screen.screenSoon()
      if (test(text)) return performance.now()
      if (performance.now() > deadline) throw new Error(`no ${what} on the screen:\n${text}`)
    }
  }

  const open = { hub: [] as number[], screen: [] as number[], ahead: [] as number[] }

  const close = { dialog: [] as number[], hub: [] as number[] }
  for (let i = 0; i < ROUNDS + WARMUP; i++) {
    const marker = `round-${i}`
    fake.respond((r: MessagesRequest) =>
      toolResults(r).length
        ? { text: `made ${marker}` }
        : { tool: 'Bash', input: { command: `touch ${marker}`, description: 'Make a file' } },
    )
    const asked = proxy.asked.length
    const answered = proxy.answered.length
    const sent = prompted.length
    const stopped = proxy.stops()
    screen.keys('-l', `make ${marker}`)
    await screen.waitForScreen(new RegExp(`❯\\smake ${marker}`))
    screen.keys('Enter')
    const onScreen = await whenScreen((s) => DIALOG.test(s), 'dialog')
    await waitFor(() => prompted.length > sent && proxy.asked.length > asked, 30_000, 'the prompt')
    const message = await telegram.waitFor(
      () => botMessages(telegram, chat).find((m) => m.text.includes(`touch ${marker}`)),
      'the prompt message',
    )
    const allow = message.buttons.flat().find((b) => b.text === 'Allow')?.data as string
    const pressed = performance.now()
    await telegram.press(olga, chat, message.messageId, allow)
    const closed = await whenScreen((s) => !DIALOG.test(s), 'dialog closing')
    await waitFor(() => proxy.answered.length > answered, 30_000, 'the hook answered')
    await waitFor(() => existsSync(join(claude.cwd, marker)), 30_000, 'the command to run')
    await waitFor(() => proxy.stops() > stopped, 30_000, 'the turn to end')
    if (i < WARMUP) continue
    const hookAt = proxy.asked[asked] as number
    const promptAt = prompted[sent] as number
    open.hub.push(promptAt - hookAt)
    open.screen.push(onScreen - hookAt)
    open.ahead.push(onScreen - promptAt)
    close.dialog.push(closed - pressed)
    close.hub.push((proxy.answered[answered] as number) - pressed)
  }

  const line = (what: string, samples: number[]) => {
    const s = summarize(samples)
    return `${what.padEnd(58)} p50 ${fmt(s.p50, 1).padStart(7)} ms  p99 ${fmt(s.p99, 1).padStart(7)} ms  (n=${s.n})`
  }
  process.stdout.write(
    [
      'bench/hooks (Claude Code interactive under tmux, hooks to the hub, the fake Telegram on 127.0.0.1)',
      line('PermissionRequest at the hub → prompt at Telegram (hub)', open.hub),
      line('PermissionRequest at the hub → dialog drawn on the screen', open.screen),
      line('prompt at Telegram → dialog drawn on the screen', open.ahead),
      line('Allow pressed → dialog gone from the tmux screen', close.dialog),
      line('Allow pressed → hook answered by the hub (hub)', close.hub),
      '',
    ].join('\n'),
  )
} finally {
  await terminal?.kill().catch(() => {})
  hub?.kill('SIGTERM')
  proxy.server.close()
  await home.cleanup()
  await telegram.close()
  await fake.close()
  claude.cleanup()
}
process.exit(0)
