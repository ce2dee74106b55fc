// One hub spawned from dist/ as `switchboard serve`, so a crash shows as the process exiting rather
// than taking the test runner down with it. It restarts on the same home and port, so a fuzz run can
// record a crash and go on.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { CLI, TestHome, waitFor } from '../helpers/home.js'

export interface HubExit {
  code: number | null
  signal: string | null
  /** What the process printed last: the uncaught error and its stack. */
  stderr: string
  signature: string
}

const STDERR_KEPT = 256 * 1024

/** Hubs still running when this process exits go with it. */
const children = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

export class FuzzHub {
  readonly exits: HubExit[] = []
  /** Every error the hub logged, by signature (`Type: message at file:line`), e.g. what a 500 hid. */
  readonly loggedErrors = new Map<string, number>()
  adminToken = ''
  /** Called as the hub exits on its own. */
  onExit: (exit: HubExit) => void = () => {}
  private proc: ChildProcess | null = null
  private stderr = ''
  private stderrTotal = 0
  /** This process's stderr only: what a crash printed, for its signature. */
  private processStderr = ''
  private partialLine = ''
  private exited: Promise<void> = Promise.resolve()
  private stopping = false
  private starting: Promise<void> | null = null

  /** The secrets of the webhook sources created up front, by name. */
  readonly secrets: Record<string, string> = {}
  /** An allowed operator's sender token. */
  token = ''

  private constructor(readonly home: TestHome) {}

  static async start(sources = ['fz']): Promise<FuzzHub> {
    const home = await TestHome.create()
    const hub = new FuzzHub(home)
    await hub.spawn()
    // Through the hub just started: the CLI would start one of its own if none ran.
    for (const name of sources) hub.secrets[name] = await home.addSource(name)
    hub.token = await home.addSender('fuzzer', true)
    hub.adminToken = readFileSync(join(home.dir, 'admin-token'), 'utf8').trim()
    return hub
  }

  get port(): number {
    return this.home.port
  }

  get pid(): number | null {
    return this.proc?.pid ?? null
  }

  get alive(): boolean {
    return this.proc !== null && this.proc.exitCode === null && this.proc.signalCode === null
  }

  /** True when the hub exited within `ms`: a dropped socket is often seen just before the exit. */
  async diesWithin(ms: number): Promise<boolean> {
    if (this.alive) await Promise.race([this.exited, new Promise((r) => setTimeout(r, ms))])
    if (this.alive) return false
    await this.exited // the exit is recorded once its stderr is read to the end
    return true
  }

  /** Starts the hub again after a crash; a no-op while it runs. */
  async ensure(): Promise<void> {
    if (!this.starting && !this.alive)
      this.starting = this.exited.then(() => this.spawn()).finally(() => (this.starting = null))
    await this.starting
  }

  /** Offset into stderr, to read what the hub logs after it (see logSince). */
  mark(): number {
    return this.stderrTotal
  }

  logSince(mark: number): string {
    const kept = this.stderrTotal - this.stderr.length
    return this.stderr.slice(Math.max(0, mark - kept))
  }

  /** Bytes on disk of the hub's store: the database and its write-ahead log. */
  storeBytes(): number {
    const size = (name: string) => statSync(join(this.home.dir, name), { throwIfNoEntry: false })?.size ?? 0
    return size('switchboard.db') + size('switchboard.db-wal')
  }

  /** Resident set size in bytes, or null when the hub is not running. */
  rss(): number | null {
    if (!this.alive || !this.pid) return null
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'))?.[1]
      return kb ? Number(kb) * 1024 : null
    } catch {
      return null
    }
  }

  async stop(): Promise<void> {
    this.stopping = true
    this.proc?.kill('SIGKILL')
    await this.exited
  }

  async cleanup(): Promise<void> {
    await this.stop()
    await this.home.cleanup()
  }

  private async spawn(): Promise<void> {
    // Source maps put src/ lines in the stacks the hub prints.
    const proc = spawn(
      process.execPath,
      ['--enable-source-maps', CLI, 'serve', '--home', this.home.dir, '--port', String(this.port)],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...this.home.env, SWITCHBOARD_LOG_LEVEL: 'warn' } },
    )
    this.proc = proc
    this.processStderr = ''
    proc.stderr?.setEncoding('utf8')
    proc.stderr?.on('data', (text: string) => this.onStderr(text))
    // 'close' comes after the last of stderr, so the crash's own words are in.
    this.exited = new Promise((resolve) =>
      proc.once('close', (code, signal) => {
        if (!this.stopping) {
          const stderr = this.processStderr.slice(-8192)
          const exit = { code, signal, stderr, signature: crashSignature(stderr, code, signal) }
          this.exits.push(exit)
          this.onExit(exit)
        }
        resolve()
      }),
    )
    children.add(proc)
    proc.once('exit', () => children.delete(proc))
    await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`the hub exited at start:\n${this.stderr.slice(-2000)}`)
        return (await fetch(`${this.home.url}/health`).catch(() => null))?.ok === true
      },
      20_000,
      'the hub',
    )
  }

  private onStderr(text: string): void {
    this.stderr = (this.stderr + text).slice(-STDERR_KEPT)
    this.processStderr = (this.processStderr + text).slice(-STDERR_KEPT)
    this.stderrTotal += text.length
    const lines = (this.partialLine + text).split('\n')
    this.partialLine = lines.pop() ?? ''
    for (const line of lines) {
      const signature = loggedErrorSignature(line)
      if (signature) this.loggedErrors.set(signature, (this.loggedErrors.get(signature) ?? 0) + 1)
    }
  }
}

/** ` at ` the first frame in the project's own code (`src/hub/server.ts:63`), else in a dependency. */
function ownFrame(stack: string): string {
  const own = /(src|dist)\/[\w/.-]+\.[jt]s:\d+/.exec(stack)?.[0]
  const dependency = /node_modules\/([\w/.@-]+\.[cm]?js:\d+)/.exec(stack)?.[1]
  return own || dependency ? ` at ${own ?? dependency}` : ''
}

/** `TypeError: Invalid URL at src/hub/server.ts:63` from what node prints on an uncaught error. */
export function crashSignature(stderr: string, code: number | null, signal: string | null): string {
  const fatal = /FATAL ERROR: .*/.exec(stderr)
  if (fatal) return fatal[0]
  const lines = stderr.split('\n')
  const at = lines.findLastIndex((l) => /^\w*(Error|Exception)\b.*/.test(l))
  if (at === -1) return `exit code ${code} signal ${signal}`
  return `${lines[at]}${ownFrame(lines.slice(at).join('\n'))}`
}

/** A pino line at level error (or worse) as one signature, or null for other lines. */
function loggedErrorSignature(line: string): string | null {
  if (!line.startsWith('{')) return null
  try {
    const entry = JSON.parse(line) as {
      level?: number
      msg?: string
      err?: { type?: string; message?: string; stack?: string }
    }
    if ((entry.level ?? 0) < 50) return null
    const err = entry.err
    return err ? `${err.type}: ${err.message}${ownFrame(err.stack ?? '')} (${entry.msg})` : `${entry.msg}`
  } catch {
    return null
  }
}
