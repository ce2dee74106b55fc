// bench/hooks/turn: what the installed hooks cost a session per turn. The real CLI (-p, stream-json,
// offline against the fake Messages API) runs turns of one tool call each (UserPromptSubmit,
// PostToolUse and Stop fire; the tool is allowed, so no dialog opens), side by side in one run:
// a HOME with no hooks, one with the hooks `switchboard install claude --hooks` writes (curl down the
// hub's socket), and one with `--command` hooks (a Node process per hook), taking turns round by
// round. Prints each way's turn time, p50 and p99, and its overhead over no hooks.
import { type ChildProcess, execFileSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { FakeAnthropic, toolResults } from '../../test/fakes/anthropic.js'
import { spawnHub } from '../../test/helpers/bridge-world.js'
import { ClaudeHome, PrintSession } from '../../test/helpers/claude.js'
import { CLI, TestHome } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'

const TURNS = Number(process.env.BENCH_HOOK_TURNS ?? 30)
const WARMUP = 3

interface Way {
  name: string
  claude: ClaudeHome
  session?: PrintSession
  times: number[]
}

const fake = await new FakeAnthropic().start()
const home = await TestHome.create()
let hub: ChildProcess | undefined
const none: Way = { name: 'no hooks', claude: new ClaudeHome(), times: [] }
const socket: Way = {
  name: 'hooks: curl down the hub’s socket (install --hooks)',
  claude: new ClaudeHome(),
  times: [],
}
const command: Way = {
  name: 'hooks: switchboard hook <Event> (install --hooks --command)',
  claude: new ClaudeHome(),
  times: [],
}
const ways = [none, socket, command]
try {
  hub = spawnHub(home)
  await home.waitForHub(15_000)
  const envOf = (claude: ClaudeHome) =>
    claude.env(fake.url, { SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) })
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env: envOf(socket.claude) })
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks', '--command'], {
    env: envOf(command.claude),
  })
  fake.respond((r) =>
    toolResults(r).length
      ? { text: 'done' }
      : { tool: 'Bash', input: { command: 'echo hi', description: 'Say hi' } },
  )
  for (const way of ways)
    way.session = new PrintSession(['--allowedTools', 'Bash(echo:*)'], {
      cwd: way.claude.cwd,
      env: envOf(way.claude),
      timeoutSeconds: 3600,
    })

  for (let round = 0; round < TURNS + WARMUP; round++) {
    // A different way goes first each round, so what drifts over the run falls on each alike.
    for (let k = 0; k < ways.length; k++) {
      const way = ways[(round + k) % ways.length] as Way
      const session = way.session as PrintSession
      const before = session.results().length
      const sent = performance.now()
      session.send(`turn ${round}`)
      await session.waitForResults(before + 1, 60_000)
      if (round >= WARMUP) way.times.push(performance.now() - sent)
    }
  }

  const base = summarize(none.times)
  const rows = ways.map((way) => {
    const s = summarize(way.times)
    const over =
      way === none
        ? ''
        : `  overhead p50 ${fmt(s.p50 - base.p50, 1).padStart(6)} ms (${fmt(s.p50 / base.p50, 2)}×)`
    return `${way.name.padEnd(62)} p50 ${fmt(s.p50, 1).padStart(7)} ms  p99 ${fmt(s.p99, 1).padStart(7)} ms${over}  (n=${s.n})`
  })
  process.stdout.write(
    [
      'bench/hooks/turn (real CLI -p, one Bash tool call a turn: UserPromptSubmit, PostToolUse, Stop)',
      ...rows,
      '',
    ].join('\n'),
  )
} finally {
  for (const way of ways) await way.session?.close().catch(() => {})
  hub?.kill('SIGTERM')
  await home.cleanup()
  await fake.close()
  for (const way of ways) way.claude.cleanup()
}
process.exit(0)
