// bench/hooks/agents: the same round as bench/hooks for each other agent Switchboard installs into
// (Codex's and Gemini CLI's hooks, OpenCode's plugin) — a tool call its model asks for, through what
// `switchboard install <agent>` wrote, to the prompt on a fake Telegram, and the Allow press back to
// the hook's answer and the command run — each agent's real CLI offline against its fake model API. The hub's share is timed
// where bench/hooks times Claude Code's: at a pass-through proxy that takes the hub's socket path
// (the hub's own socket moved aside, still listening), so the hooks and the CLI are left as install
// wrote them (Codex trusts its hook by the command's hash). Its rows are bench/hooks's, per agent.
import { type ChildProcess, execFileSync } from 'node:child_process'
import { existsSync, renameSync } from 'node:fs'
import { Agent, createServer, request, type Server } from 'node:http'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { paths } from '../../src/core/config.js'
import {
  FakeChatCompletions,
  lastToolOutput,
  shellThenDone as opencodeShell,
} from '../../test/fakes/chat-completions.js'
import { FakeGemini, shellThenDone as geminiShell } from '../../test/fakes/gemini.js'
import { shellThenDone as codexShell, FakeOpenAI } from '../../test/fakes/openai.js'
import { startFakeTelegram } from '../../test/fakes/telegram.js'
import { botMessages, bridgeAddArgs, pair, person, spawnHub } from '../../test/helpers/bridge-world.js'
import { CodexHome } from '../../test/helpers/codex.js'
import { GeminiHome } from '../../test/helpers/gemini.js'
import { CLI, TestHome, waitFor } from '../../test/helpers/home.js'
import { OpenCodeHome } from '../../test/helpers/opencode.js'
import { fmt, summarize } from '../stats.js'

const ROUNDS = Number(process.env.BENCH_HOOK_ROUNDS ?? 30)
const WARMUP = 3

/** One agent as the bench drives it: its hook's event, and a turn that asks to run `command`. */
interface AgentUnderTest {
  label: string
  event: string
  env: Record<string, string>
  /**
   * Where the round's command makes its file: inside the agent's project where a path outside it
   * is a permission of its own (OpenCode asks for an external directory before the command).
   */
  dir?: string
  /** Starts a turn that asks to run `command`; `over` settles once the turn is. */
  turn(command: string): Promise<{ over: Promise<unknown> }>
  close(): Promise<void>
}

/** Stamps when each hook request of `event` reached the hub's socket and when its answer left it. */
function timingProxy(hubSocket: string) {
  const moved = `${hubSocket}.hub`
  renameSync(hubSocket, moved)
  const agent = new Agent({ keepAlive: true })
  const asked: number[] = []
  const answered: number[] = []
  let event = ''
  const server: Server = createServer((req, res) => {
    const timed = event !== '' && (req.url?.endsWith(`/${event}`) ?? false)
    if (timed) asked.push(performance.now())
    const upstream = request(
      { socketPath: moved, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('end', () => {
          if (timed) answered.push(performance.now())
        })
      },
    )
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy()
    })
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  server.listen(hubSocket)
  return {
    asked,
    answered,
    timing(name: string) {
      event = name
    },
    close() {
      server.close()
      agent.destroy()
      renameSync(moved, hubSocket)
    },
  }
}

async function codexAgent(hubEnv: Record<string, string>): Promise<AgentUnderTest> {
  const fake = await new FakeOpenAI().start()
  fake.respond(codexShell)
  const codex = new CodexHome(fake.baseUrl)
  const env = codex.env(hubEnv)
  execFileSync(process.execPath, [CLI, 'install', 'codex', '--hooks'], { env })
  const app = await codex.appServer(env)
  return {
    label: 'Codex 0.171.0 (app-server)',
    event: 'PermissionRequest',
    env,
    async turn(command) {
      const { turnId } = await app.startTurn(codex.cwd, `RUN:${command}`)
      return { over: app.turnCompleted(turnId, 60_000) }
    },
    async close() {
      codex.cleanup()
      await fake.close()
    },
  }
}

async function geminiAgent(hubEnv: Record<string, string>): Promise<AgentUnderTest> {
  const fake = await new FakeGemini().start()
  fake.respond(geminiShell)
  const gemini = new GeminiHome(fake.baseUrl)
  const env = gemini.env(hubEnv)
  execFileSync(process.execPath, [CLI, 'install', 'gemini', '--hooks'], { env })
  return {
    label: 'Gemini CLI 0.61.0 (-p, --approval-mode yolo)',
    event: 'BeforeTool',
    env,
    async turn(command) {
      return { over: gemini.run(`RUN:${command}`, env).exited }
    },
    async close() {
      gemini.cleanup()
      await fake.close()
    },
  }
}

async function opencodeAgent(hubEnv: Record<string, string>): Promise<AgentUnderTest> {
  const fake = await new FakeChatCompletions().start()
  fake.respond(opencodeShell)
  const opencode = new OpenCodeHome(fake.baseUrl)
  const env = opencode.env(hubEnv)
  execFileSync(process.execPath, [CLI, 'install', 'opencode'], { env })
  const server = await opencode.serve(env)
  const session = await server.newSession()
  return {
    label: 'OpenCode 1.18.33 (serve, its plugin)',
    event: 'PermissionRequest',
    env,
    dir: opencode.cwd,
    async turn(command) {
      const before = fake.turns.length
      await server.prompt(session, `RUN:${command}`)
      // The turn is over once the model has been given the command's result.
      return {
        over: waitFor(
          () => fake.turns.slice(before).some((t) => lastToolOutput(t) !== null),
          120_000,
          'the command’s result at the model',
        ),
      }
    },
    async close() {
      opencode.cleanup()
      await fake.close()
    },
  }
}

/** The agents to run (BENCH_AGENTS=codex,opencode picks some), in this order. */
const AGENTS = { codex: codexAgent, gemini: geminiAgent, opencode: opencodeAgent }
const picked = (process.env.BENCH_AGENTS ?? Object.keys(AGENTS).join(',')).split(',').map((name) => {
  const make = AGENTS[name.trim() as keyof typeof AGENTS]
  if (!make) throw new Error(`BENCH_AGENTS names ${name}; the agents are ${Object.keys(AGENTS).join(', ')}`)
  return make
})

const home = await TestHome.create()
const telegram = await startFakeTelegram()
const hubEnv = { SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) }
let hub: ChildProcess | undefined
let proxy: ReturnType<typeof timingProxy> | undefined
const report: string[] = [
  'bench/hooks/agents (each agent’s real CLI, its hook to the hub, the fake Telegram on 127.0.0.1)',
]
try {
  await home.cli(...bridgeAddArgs(telegram))
  hub = spawnHub(home)
  await home.waitForHub(15_000)
  await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge', 30_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(home, telegram, olga, true)
  proxy = timingProxy(paths.hubSocket(home.dir, home.port))
  const timed = proxy

  // When the first message naming the round's command reached the fake Telegram.
  let command = ''
  const prompted = new Map<string, number>()
  const calls = telegram.calls
  const push = calls.push.bind(calls)
  calls.push = (...items) => {
    for (const c of items)
      if (
        c.method === 'sendMessage' &&
        !prompted.has(command) &&
        String(c.fields.text ?? '').includes(command)
      )
        prompted.set(command, performance.now())
    return push(...items)
  }

  for (const make of picked) {
    const agent = await make(hubEnv)
    timed.timing(agent.event)
    const open: number[] = []
    const close: number[] = []
    const ran: number[] = []
    try {
      for (let i = 0; i < ROUNDS + WARMUP; i++) {
        const marker = join(agent.dir ?? home.dir, `${agent.event}-round-${i}`)
        const asked = timed.asked.length
        const answered = timed.answered.length
        command = `touch ${marker}`
        const { over } = await agent.turn(command)
        // Awaited after the Allow press; a turn that fails meanwhile is reported there, not as a crash.
        over.catch(() => {})
        const message = await telegram.waitFor(
          () => botMessages(telegram, chat).find((m) => m.text.includes(`touch ${marker}`)),
          'the prompt message',
          60_000,
        )
        const allow = message.buttons.flat().find((b) => b.text === 'Allow')?.data as string
        const pressed = performance.now()
        await telegram.press(olga, chat, message.messageId, allow)
        await waitFor(() => existsSync(marker), 60_000, 'the command to run')
        const made = performance.now()
        await waitFor(() => timed.answered.length > answered, 30_000, 'the hook answered')
        await over
        if (i < WARMUP) continue
        open.push((prompted.get(command) as number) - (timed.asked[asked] as number))
        close.push((timed.answered[answered] as number) - pressed)
        ran.push(made - pressed)
      }
    } finally {
      await agent.close()
    }
    const line = (what: string, samples: number[]) => {
      const s = summarize(samples)
      return `  ${what.padEnd(56)} p50 ${fmt(s.p50, 1).padStart(7)} ms  p99 ${fmt(s.p99, 1).padStart(7)} ms  (n=${s.n})`
    }
    report.push(
      agent.label,
      line(`${agent.event} at the hub → prompt at Telegram (hub)`, open),
      line('Allow pressed → hook answered by the hub (hub)', close),
      line('Allow pressed → the command has run', ran),
    )
  }
  process.stdout.write(`${report.join('\n')}\n\n`)
} finally {
  proxy?.close()
  hub?.kill('SIGTERM')
  await home.cleanup()
  await telegram.close()
}
process.exit(0)
