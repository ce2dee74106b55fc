// A throwaway Switchboard home and port per test, and the `switchboard` CLI run against them.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { markStopped } from '../../src/client/autostart.js'
import { apiClient, type Call } from '../../src/core/api/client.js'
import { paths } from '../../src/core/config.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { startsProcesses } from './fast-loop.js'

export const CLI = resolve(import.meta.dirname, '../../dist/cli/main.js')
const run = promisify(execFile)

/** What a CLI run left: its exit code and both streams. */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** `switchboard <args>` in `env`, as a person runs it; never throws (a failure is its code and stderr). */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { timeout?: number } = {},
): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env, ...options })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as CliRun
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/**
 * Ports the kernel never hands out by itself (below Linux's ephemeral range, 32768 up), a slice per
 * vitest worker, taken in turn. A port from `listen(0)` is free only until a test lets it go: a test
 * that kills its hub and starts another on the same port found another worker's new home on it,
 * posted its event to that home's hub, and waited for it in vain (seen once in CI). Here no other
 * worker is ever given it, and this worker only once it went round its slice.
 */
const PORT_BASE = 20_000
const PORT_SLICE = 1_500
const worker = Number(process.env.VITEST_POOL_ID ?? 0)
let nextPort = Math.floor(Math.random() * PORT_SLICE)

/** The port listened on for a moment (0: whichever the kernel gives), or null when it is taken. */
function listenOnce(port: number): Promise<number | null> {
  return new Promise((res) => {
    const srv = createServer()
    srv.once('error', () => res(null))
    srv.listen(port, '127.0.0.1', () => {
      const address = srv.address()
      srv.close(() => res(typeof address === 'object' && address ? address.port : null))
    })
  })
}

export async function freePort(): Promise<number> {
  if (worker >= 1 && worker <= 8)
    for (let tries = 0; tries < PORT_SLICE; tries++) {
      const port = await listenOnce(PORT_BASE + (worker - 1) * PORT_SLICE + (nextPort++ % PORT_SLICE))
      if (port !== null) return port
    }
  const port = await listenOnce(0)
  if (port === null) throw new Error('no free port on 127.0.0.1')
  return port
}

/**
 * Sessions take every event, as before sessions had projects: the tests of delivery, receipts and
 * bridges post to sources bound to no project from folders that are no project of theirs. The tests
 * of routing by project set `SWITCHBOARD_ROUTING: 'project'`, the default a user gets.
 */
export const TAKE_EVERYTHING = { SWITCHBOARD_ROUTING: 'everything' } as const

export class TestHome {
  /** Set for every command run on this home (a shared database, say). */
  readonly extraEnv: Record<string, string> = {}

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<TestHome> {
    startsProcesses('the switchboard CLI from dist/ (a TestHome)')
    return new TestHome(mkdtempSync(join(tmpdir(), 'switchboard-test-')), await freePort())
  }

  /**
   * The MCP SDK client that stands in for Claude Code listens from the moment it connects, so its
   * channels need not wait the grace Claude Code needs (the end-to-end suite keeps the default).
   */
  get env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      SWITCHBOARD_HOME: this.dir,
      SWITCHBOARD_PORT: String(this.port),
      SWITCHBOARD_LISTEN_GRACE_MS: '0',
      // A channel started by Claude Code (CLAUDECODE=1) confirms against its transcript; these
      // channels' clients are tests, also when the tests themselves run inside Claude Code.
      CLAUDECODE: '',
      ...TAKE_EVERYTHING,
      ...this.extraEnv,
    }
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /**
   * The hub's routes by name, with the home's admin token: for a test that reads the hub's state on
   * the way to what it is about, without starting a CLI process for each look.
   */
  get api(): Call {
    return apiClient(
      async ({ method, path, headers, body }) => {
        const res = await fetch(`${this.url}${path}`, { method, headers, body })
        return { status: res.status, body: await res.text() }
      },
      () => ({ authorization: `Bearer ${this.adminToken()}` }),
    )
  }

  /** The admin token this home's CLI would send: the one in its environment, else its file. */
  private adminToken(): string {
    return this.extraEnv.SWITCHBOARD_ADMIN_TOKEN ?? readFileSync(join(this.dir, 'admin-token'), 'utf8').trim()
  }

  /** Whether a hub answers on this home's port. */
  async hubAnswers(): Promise<boolean> {
    return (await fetch(`${this.url}/health`).catch(() => null))?.ok === true
  }

  async cli(...args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, [CLI, ...args], { env: this.env })
    return stdout
  }

  /** Runs the CLI expecting failure; resolves with its stderr and exit code. */
  async cliFails(...args: string[]): Promise<{ code: number; stderr: string }> {
    try {
      await run(process.execPath, [CLI, ...args], { env: this.env })
    } catch (err) {
      const e = err as { code: number; stderr: string }
      return { code: e.code, stderr: e.stderr }
    }
    throw new Error(`switchboard ${args.join(' ')} succeeded`)
  }

  // The two below ask the hub's API when a hub answers, and the CLI otherwise, which starts one: a
  // CLI process costs ~0.3 CPU-s, and the suite adds ~170 of these (the CLI's own commands have
  // tests of their own).

  /** Adds a webhook source; resolves with its secret. */
  async addSource(name: string): Promise<string> {
    if (await this.hubAnswers()) return (await this.api('addSource', { body: { name } })).secret ?? ''
    const out = await this.cli('source', 'add', name)
    return /secret: (\S+)/.exec(out)?.[1] ?? ''
  }

  /** Adds an allowed sender, an operator or not; resolves with its token. */
  async addSender(name: string, operator = false): Promise<string> {
    if (await this.hubAnswers()) return (await this.api('addSender', { body: { name, operator } })).token
    const out = await this.cli('sender', 'add', name, ...(operator ? ['--operator'] : []))
    return /token: (\S+)/.exec(out)?.[1] ?? ''
  }

  /** Resolves once a hub answers on this home's port (started by a test, or by a channel). */
  async waitForHub(ms = 15_000): Promise<void> {
    await waitFor(() => this.hubAnswers(), ms, 'the hub')
  }

  /** Every subscriber the hub has on record, read from the store. */
  async subscribers(): Promise<string[]> {
    const store = openSqliteStore(join(this.dir, 'switchboard.db'))
    try {
      return (await store.listSubscribers()).map((s) => s.name)
    } finally {
      await store.close()
    }
  }

  /** Deliveries the subscriber has not acknowledged yet, read from the store. */
  async pending(subscriber: string): Promise<number | undefined> {
    const store = openSqliteStore(join(this.dir, 'switchboard.db'))
    try {
      return (await store.listSubscribers()).find((s) => s.name === subscriber)?.pending
    } finally {
      await store.close()
    }
  }

  /** Whether the subscriber's channel recorded the event as shown (its shown log, src/channel/shown.ts). */
  shownLogHolds(subscriber: string, eventId: string): boolean {
    const log = paths.shownLog(this.dir, subscriber)
    return existsSync(log) && readFileSync(log, 'utf8').includes(eventId)
  }

  /** The pid hub.json names; null when there is none, also one a stopping hub removed as it was read. */
  hubPid(): number | null {
    let text: string
    try {
      text = readFileSync(join(this.dir, 'hub.json'), 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    return (JSON.parse(text) as { pid: number }).pid
  }

  /** Stops whatever hub runs on this home, and waits until it is gone. */
  async stopHub(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const pid = this.hubPid()
    if (pid === null) return
    try {
      process.kill(pid, signal)
    } catch {
      return
    }
    await waitFor(() => !alive(pid), 10_000, `hub ${pid} to exit`)
  }

  /**
   * Stops the home as `switchboard stop` does (the marker first, so a hub a channel is starting
   * meanwhile leaves), and removes it once no hub of it runs: one still starting would write into it.
   * One not in hub.json yet (starting, or left by a test) is stopped too.
   */
  async cleanup(): Promise<void> {
    if (existsSync(this.dir)) markStopped(this.dir)
    await this.stopHub()
    const told = new Set<number>()
    await waitFor(
      () => {
        const left = hubsOf(this.dir)
        for (const pid of left.filter((p) => !told.has(p))) {
          told.add(pid)
          try {
            process.kill(pid, 'SIGTERM')
          } catch {
            // gone meanwhile
          }
        }
        return left.length === 0
      },
      20_000,
      `every hub of ${this.dir} to leave`,
    )
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/** The pids of `switchboard serve` processes of `home` (named by --home or SWITCHBOARD_HOME). */
export function hubsOf(home: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (!args.includes('serve') || !alive(pid)) continue
      const named = args[args.indexOf('--home') + 1] === home
      const inherited = readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .includes(`SWITCHBOARD_HOME=${home}`)
      if (named || (inherited && !args.includes('--home'))) found.push(pid)
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found
}

/** A zombie (killed, not yet reaped by a stopped parent) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/**
 * Asks `check` until it holds, or says what did not happen by `ms`. A check that costs (a CLI run, a
 * store opened) is asked at most a third of the time: the pause after it is twice what it took, and
 * at least 20 ms. Tests share CI's two cores, and a wait that ran `switchboard status` back to back
 * kept a core busy for as long as it waited.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const asked = performance.now()
    if (await check()) return
    const pause = Math.max(20, 2 * (performance.now() - asked))
    await new Promise((r) => setTimeout(r, pause))
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`)
}
