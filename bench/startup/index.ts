// bench/startup: `switchboard --version` and `switchboard status` with no hub (spawn to exit), and a
// hub's start-up (spawn `switchboard serve --json` to the line it prints once it listens), each against
// `node -e 0`; then from spawning `switchboard channel` to its answer to MCP `initialize` (a hub
// running), directly and through the plugin's launcher, against a bare MCP SDK server started the same
// way. The contenders of each race take turns.
// BENCH_BEFORE_CLI=<other checkout>/dist/cli/main.js races another build as well.
import { type ChildProcess, spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { PLUGIN_DIR } from '../../test/helpers/claude.js'
import { CLI, TestHome } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 30)
const BEFORE = process.env.BENCH_BEFORE_CLI
const BARE_SERVER = resolve(import.meta.dirname, 'bare-server.mjs')
const LAUNCHER = resolve(PLUGIN_DIR, 'launch.mjs')
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`

const home = await TestHome.create()
const env = { ...process.env, SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) }
/** A home whose hub does not run: what `status` reports on. */
const idle = await TestHome.create()
const idleEnv = { ...process.env, SWITCHBOARD_HOME: idle.dir, SWITCHBOARD_PORT: String(idle.port) }
/** A home per build for the hubs started and stopped here (two builds need not share a schema). */
const hubHomes = new Map<string, TestHome>()
const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(' ')

/** Spawn to the `initialize` result on stdout; closing the server afterwards is not timed. */
async function initialized(args: string[]): Promise<number> {
  const t0 = performance.now()
  const child = spawn(process.execPath, args, { env })
  child.stdin.write(INITIALIZE)
  await printed(child, '"id":1', `${args.join(' ')} exited unasked`)
  const ms = performance.now() - t0
  await ended(child, () => child.stdin.end())
  return ms
}

/** Resolves once the child's stdout holds `text`; fails with its stderr if it exits first. */
function printed(child: ChildProcess, text: string, exitedFirst: string): Promise<void> {
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  return new Promise<void>((done, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk
      if (stdout.includes(text)) done()
    })
    child.once('exit', (code) => fail(new Error(`${exitedFirst} (${code}):\n${stderr}`)))
  })
}

/** Spawn to exit. */
async function ran(args: string[], runEnv: NodeJS.ProcessEnv = env): Promise<number> {
  const t0 = performance.now()
  await ended(spawn(process.execPath, args, { env: runEnv, stdio: 'ignore' }))
  return performance.now() - t0
}

/**
 * Spawn `serve --json` to the line it prints once it listens on its port and socket (what a channel,
 * or autostart, waits for); stopping it afterwards is not timed. Its home is kept from run to run,
 * as a person's is: the first, unmeasured run makes it.
 */
async function listening(cli: string): Promise<number> {
  let hubHome = hubHomes.get(cli)
  if (!hubHome) {
    hubHome = await TestHome.create()
    hubHomes.set(cli, hubHome)
  }
  const t0 = performance.now()
  const child = spawn(process.execPath, [cli, 'serve', '--json'], {
    env: { ...process.env, SWITCHBOARD_HOME: hubHome.dir, SWITCHBOARD_PORT: String(hubHome.port) },
  })
  await printed(child, '\n', 'serve exited before it listened')
  const ms = performance.now() - t0
  await ended(child, () => child.kill('SIGTERM'))
  return ms
}

function ended(child: ChildProcess, stop = () => {}): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.once('exit', () => done())
    stop()
  })
}

type Contender = { name: string; run: () => Promise<number> }

/** This build, then the build before (when given), measured the same way. */
function builds(name: string, measure: (cli: string) => Promise<number>): Contender[] {
  const ours = [{ name, run: () => measure(CLI) }]
  if (BEFORE) ours.push({ name: `${name} (before)`, run: () => measure(BEFORE) })
  return ours
}

/** Every contender RUNS times, taking turns, after one unmeasured run each (the page cache). */
async function race(title: string, contenders: Contender[], yardstick: Contender): Promise<void> {
  const all = [...contenders, yardstick]
  for (const c of all) await c.run()
  const samples = all.map(() => [] as number[])
  for (let i = 0; i < RUNS; i++) for (const [k, c] of all.entries()) samples[k]?.push(await c.run())
  const stats = samples.map(summarize)
  const base = stats.at(-1) as { p50: number; p99: number }
  const width = Math.max(...all.map((c) => c.name.length))
  console.log(`  ${title}`)
  for (const [k, c] of all.entries()) {
    const s = stats[k] as { p50: number; p99: number }
    const ratio = c === yardstick ? '' : `  ${fmt(s.p50 / base.p50, 2)}x (p99 ${fmt(s.p99 / base.p99, 2)}x)`
    console.log(`    ${c.name.padEnd(width)}  p50 ${fmt(s.p50, 1)} ms  p99 ${fmt(s.p99, 1)} ms${ratio}`)
  }
}

const nodeAlone: Contender = { name: 'node -e 0', run: () => ran(['-e', '0']) }
console.log(`bench/startup — spawn to answer, ${RUNS} runs each, taking turns; load average ${load()}`)
await race(
  'ran and exited (target: --version and status p50 ≤ 2.00x node -e 0)',
  [
    ...builds('switchboard --version', (cli) => ran([cli, '--version'])),
    ...builds('switchboard status (no hub)', (cli) => ran([cli, 'status'], idleEnv)),
  ],
  nodeAlone,
)
await race(
  'hub start-up: spawn serve --json to its line, listening',
  builds('switchboard serve', listening),
  nodeAlone,
)
const hub = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' })
try {
  await home.waitForHub(15_000)
  await race(
    'MCP initialize answered, a hub running (target: switchboard channel p50 ≤ 1.20x the bare server)',
    [
      ...builds('switchboard channel', (cli) => initialized([cli, 'channel', '--name', 'bench-startup'])),
      {
        name: 'plugin launcher → switchboard channel',
        run: () => initialized([LAUNCHER, 'channel', '--name', 'bench-startup']),
      },
    ],
    { name: 'bare MCP SDK server', run: () => initialized([BARE_SERVER]) },
  )
} finally {
  hub.kill('SIGTERM')
  await ended(hub)
  for (const h of [home, idle, ...hubHomes.values()]) await h.cleanup()
  console.log(`  load average after: ${load()}`)
}
