// Runs the real Codex CLI (pinned in devDependencies) offline against the fake Responses API
// (test/fakes/openai.ts; shared/AGENTS.md §1): a throwaway HOME and CODEX_HOME, a config.toml that
// points at the fake and turns off everything that would reach the network or leave a daemon
// behind, and `codex app-server` driven over JSON-RPC on stdio. Every process it starts is killed
// at the end.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { stringify } from 'smol-toml'
import { ROOT } from './claude.js'
import { startsProcesses } from './fast-loop.js'
import { TAKE_EVERYTHING } from './home.js'

export const CODEX_BIN = join(ROOT, 'node_modules/.bin/codex')
const API_KEY_ENV = 'FAKE_OPENAI_KEY'

/** Codex's settings for a test: the fake model provider, prompts on, nothing phoning home. */
export function offlineConfig(baseUrl: string): Record<string, unknown> {
  return {
    model: 'fake-model',
    model_provider: 'fake',
    check_for_update_on_startup: false,
    approval_policy: 'on-request',
    model_providers: {
      fake: {
        name: 'Fake',
        base_url: baseUrl,
        env_key: API_KEY_ENV,
        wire_api: 'responses',
        request_max_retries: 0,
        stream_max_retries: 0,
      },
    },
    analytics: { enabled: false },
    feedback: { enabled: false },
    otel: { exporter: 'none' },
    // The curated plugins' sync reaches github.com and chatgpt.com; the TUI's daemon outlives it.
    features: { plugins: false, remote_plugin: false, apps: false, daemon_auto_start: false },
  }
}

/** A HOME and CODEX_HOME for one test, with a `switchboard` command on PATH for the hook. */
export class CodexHome {
  readonly home: string
  readonly codexHome: string
  readonly cwd: string
  readonly bin: string
  private readonly children = new Set<ChildProcessWithoutNullStreams>()

  constructor(baseUrl: string) {
    startsProcesses('the Codex CLI (a CodexHome)')
    this.home = realpathSync(mkdtempSync(join(tmpdir(), 'codex-home-')))
    this.cwd = realpathSync(mkdtempSync(join(tmpdir(), 'codex-project-')))
    this.codexHome = join(this.home, '.codex')
    this.bin = join(this.home, 'bin')
    mkdirSync(this.codexHome)
    mkdirSync(this.bin)
    const shim = `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist/cli/main.js')}" "$@"\n`
    writeFileSync(join(this.bin, 'switchboard'), shim, { mode: 0o755 })
    writeFileSync(join(this.bin, 'codex'), `#!/bin/sh\nexec "${CODEX_BIN}" "$@"\n`, { mode: 0o755 })
    writeFileSync(this.configFile, stringify(offlineConfig(baseUrl)))
  }

  get configFile(): string {
    return join(this.codexHome, 'config.toml')
  }

  config(): string {
    return readFileSync(this.configFile, 'utf8')
  }

  /** Only what the CLI needs, nothing inherited from the shell that runs the tests. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: `${this.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: this.home,
      CODEX_HOME: this.codexHome,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      XDG_DATA_HOME: join(this.home, '.local/share'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      XDG_STATE_HOME: join(this.home, '.local/state'),
      LANG: 'C.UTF-8',
      [API_KEY_ENV]: 'sk-fake',
      ...TAKE_EVERYTHING,
      ...extra,
    }
  }

  /** `codex app-server`, ready for a thread (initialize and initialized done). */
  async appServer(env: Record<string, string>): Promise<AppServer> {
    const child = spawn(CODEX_BIN, ['app-server'], { env, cwd: this.cwd, stdio: 'pipe' })
    this.children.add(child)
    child.on('exit', () => this.children.delete(child))
    const server = new AppServer(child)
    await server.request('initialize', {
      clientInfo: { name: 'switchboard_tests', title: 'Switchboard tests', version: '0.0.1' },
      capabilities: { experimentalApi: true },
    })
    server.notify('initialized')
    return server
  }

  cleanup(): void {
    for (const child of this.children) child.kill('SIGKILL')
    this.children.clear()
    rmSync(this.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    rmSync(this.cwd, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

interface Message {
  id?: number | string
  method?: string
  params?: Record<string, unknown>
  result?: Record<string, unknown>
  error?: { message?: string }
}

/** A server request Codex made of its client (an approval, say), answered by `reply`. */
export interface ServerRequest {
  method: string
  params: Record<string, unknown>
  reply(result: Record<string, unknown>): void
}

/** A JSON-RPC client of `codex app-server` on its stdio, newline-delimited (AGENTS.md §1e). */
export class AppServer {
  readonly notifications: Message[] = []
  readonly serverRequests: ServerRequest[] = []
  stderr = ''
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>()
  private readonly waiters = new Set<() => void>()

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8')
    })
    createInterface({ input: child.stdout }).on('line', (line) => this.take(line))
    child.on('exit', (code) => {
      for (const p of this.pending.values())
        p.reject(new Error(`codex app-server exited (${code}): ${this.stderr}`))
      this.pending.clear()
    })
  }

  private take(line: string): void {
    let m: Message
    try {
      m = JSON.parse(line) as Message
    } catch {
      return
    }
    if (m.method !== undefined && m.id !== undefined) {
      const id = m.id
      this.serverRequests.push({
        method: m.method,
        params: m.params ?? {},
        reply: (result) => this.send({ id, result }),
      })
    } else if (m.method !== undefined) this.notifications.push(m)
    else if (typeof m.id === 'number') {
      const p = this.pending.get(m.id)
      this.pending.delete(m.id)
      if (m.error) p?.reject(new Error(m.error.message ?? JSON.stringify(m.error)))
      else p?.resolve(m)
    }
    for (const w of this.waiters) w()
  }

  private send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`)
  }

  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++
    const answered = new Promise<Message>((resolve, reject) => this.pending.set(id, { resolve, reject }))
    this.send({ id, method, params })
    return (await answered).result ?? {}
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send({ method, ...(params ? { params } : {}) })
  }

  /** Resolves once `check` holds of what the server said, or fails after `ms` naming what it waited for. */
  async until<T>(what: string, check: () => T | undefined | null | false, ms = 60_000): Promise<T> {
    const deadline = Date.now() + ms
    for (;;) {
      const found = check()
      if (found) return found
      if (Date.now() > deadline)
        throw new Error(`codex app-server: no ${what} within ${ms} ms; stderr: ${this.stderr.slice(-2000)}`)
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(wake, 200)
        this.waiters.add(wake)
      })
    }
  }

  /** Starts a thread in `cwd` and a turn with `text`; resolves with the thread and turn ids. */
  async startTurn(cwd: string, text: string): Promise<{ threadId: string; turnId: string }> {
    const started = await this.request('thread/start', {
      cwd,
      approvalPolicy: 'on-request',
      sandbox: 'read-only',
    })
    const threadId = (started.thread as { id: string }).id
    const turn = await this.request('turn/start', {
      threadId,
      input: [{ type: 'text', text, text_elements: [] }],
    })
    return { threadId, turnId: (turn.turn as { id: string }).id }
  }

  /** The turn's end: its `turn/completed` notification's status. */
  turnCompleted(turnId: string, ms?: number): Promise<string> {
    return this.until(
      `turn/completed of ${turnId}`,
      () => {
        const done = this.notifications.find(
          (n) => n.method === 'turn/completed' && (n.params?.turn as { id?: string })?.id === turnId,
        )
        return done ? String((done.params?.turn as { status?: string } | undefined)?.status) : null
      },
      ms,
    )
  }

  /** Every notification of `method`. */
  all(method: string): Record<string, unknown>[] {
    return this.notifications.filter((n) => n.method === method).map((n) => n.params ?? {})
  }
}
