// Runs the real OpenCode CLI (pinned in devDependencies) offline against the fake Chat Completions API
// (test/fakes/chat-completions.ts; shared/AGENTS.md §3): a throwaway HOME with its XDG folders, an
// opencode.json that points the model at the fake and asks before every shell command, and the
// OPENCODE_DISABLE_* variables that keep it from the model catalogue, updates, LSP downloads and the
// default plugins. Headless turns (`opencode run --format json`, the prompt on stdin) collect their JSON
// lines; `opencode serve` is started on a free port and spoken to over HTTP; anything else (`opencode
// acp`) is spawned as it is. Every process it starts is killed at the end.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { ROOT } from './claude.js'
import { startsProcesses } from './fast-loop.js'
import { freePort, TAKE_EVERYTHING } from './home.js'

export const OPENCODE_BIN = join(ROOT, 'node_modules/.bin/opencode')

/** OpenCode's settings for a test: the fake as its only provider, nothing shared, bash asked for. */
export function offlineConfig(baseUrl: string, permission: Record<string, unknown> = { bash: 'ask' }) {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    permission,
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: baseUrl, apiKey: 'sk-fake' },
        models: {
          'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 128_000, output: 8192 } },
        },
      },
    },
  }
}

/** What keeps OpenCode off the network: without them each start looks up the model catalogue. */
export const OFFLINE_ENV = {
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_DISABLE_CLAUDE_CODE: '1',
  // Each start installs @opencode-ai/plugin into the config folder with npm, and a new session waits
  // for it: offline, that wait ran to half a minute. A registry on a closed local port fails at once.
  npm_config_registry: 'http://127.0.0.1:9/',
  npm_config_fetch_retries: '0',
} as const

/** One line of `opencode run --format json`: `{type, timestamp, sessionID, part}`. */
export interface RunEvent {
  type: string
  sessionID?: string
  part?: Record<string, unknown>
  [key: string]: unknown
}

/** A headless turn: its JSON lines as they come, and how it ended. */
export interface Turn {
  readonly events: RunEvent[]
  stderr: string
  /** The process's exit code once it ended. */
  readonly exited: Promise<number | null>
}

/** A HOME for one test, with `switchboard` and `opencode` commands on PATH, and a project folder. */
export class OpenCodeHome {
  readonly home: string
  readonly cwd: string
  readonly bin: string
  private readonly children = new Set<ChildProcessWithoutNullStreams>()

  /** `permission`: opencode.json's (by default every shell command is asked for). */
  constructor(baseUrl: string, permission?: Record<string, unknown>) {
    startsProcesses('the OpenCode CLI (an OpenCodeHome)')
    this.home = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-home-')))
    this.cwd = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-project-')))
    this.bin = join(this.home, 'bin')
    mkdirSync(this.configDir, { recursive: true })
    mkdirSync(this.bin)
    const shim = `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist/cli/main.js')}" "$@"\n`
    writeFileSync(join(this.bin, 'switchboard'), shim, { mode: 0o755 })
    writeFileSync(join(this.bin, 'opencode'), `#!/bin/sh\nexec "${OPENCODE_BIN}" "$@"\n`, { mode: 0o755 })
    writeFileSync(
      join(this.configDir, 'opencode.json'),
      `${JSON.stringify(offlineConfig(baseUrl, permission), null, 2)}\n`,
    )
  }

  get xdgConfig(): string {
    return join(this.home, '.config')
  }

  /** Where opencode.json and the `plugin/` folder live. */
  get configDir(): string {
    return join(this.xdgConfig, 'opencode')
  }

  /** OpenCode's session store (AGENTS.md §3d). */
  get dbFile(): string {
    return join(this.home, '.local/share/opencode/opencode.db')
  }

  /** Only what the CLI needs, nothing inherited from the shell that runs the tests. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: `${this.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: this.home,
      XDG_CONFIG_HOME: this.xdgConfig,
      XDG_DATA_HOME: join(this.home, '.local/share'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      XDG_STATE_HOME: join(this.home, '.local/state'),
      LANG: 'C.UTF-8',
      ...OFFLINE_ENV,
      ...TAKE_EVERYTHING,
      ...extra,
    }
  }

  /** `opencode <args>` in the project folder, killed at cleanup (`opencode acp --cwd …`, say). */
  spawn(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
    const child = spawn(OPENCODE_BIN, args, { env, cwd: this.cwd, stdio: 'pipe' })
    this.children.add(child)
    child.on('close', () => this.children.delete(child))
    return child
  }

  /**
   * `opencode run --format json <args>` with the prompt on stdin (an argument holding a space would
   * reach the model wrapped in quotes). Headless, OpenCode rejects every permission it would ask for.
   */
  run(prompt: string, env: Record<string, string>, args: string[] = []): Turn {
    const child = this.spawn(['run', '--format', 'json', ...args], env)
    child.stdin.end(prompt)
    const turn: Turn = {
      events: [],
      stderr: '',
      exited: new Promise((resolve) => child.on('close', (code) => resolve(code))),
    }
    child.stderr.on('data', (d: Buffer) => {
      turn.stderr += d.toString('utf8')
    })
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        turn.events.push(JSON.parse(line) as RunEvent)
      } catch {
        // Not a JSON line: OpenCode's own noise.
      }
    })
    return turn
  }

  /**
   * `opencode serve` on a free port, once it listens. Its `--port 0` takes 4096 whenever that is free,
   * which two tests at once would share.
   */
  async serve(env: Record<string, string>): Promise<OpenCodeServer> {
    const port = String(await freePort())
    const child = this.spawn(['serve', '--hostname', '127.0.0.1', '--port', port], env)
    let output = ''
    const url = await new Promise<string>((resolve, reject) => {
      const seen = (d: Buffer) => {
        output += d.toString('utf8')
        const listening = /https?:\/\/[\w.:[\]-]+/.exec(output)
        if (listening) resolve(listening[0])
      }
      child.stdout.on('data', seen)
      child.stderr.on('data', seen)
      child.on('close', (code) =>
        reject(new Error(`opencode serve ended (${code}) before it listened: ${output}`)),
      )
    })
    return new OpenCodeServer(url, this.cwd, child)
  }

  cleanup(): void {
    for (const child of this.children) child.kill('SIGKILL')
    this.children.clear()
    rmSync(this.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    rmSync(this.cwd, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

/** `opencode serve`'s HTTP API for the project folder (AGENTS.md §3e): every call names the folder. */
export class OpenCodeServer {
  constructor(
    readonly url: string,
    private readonly directory: string,
    readonly process: ChildProcessWithoutNullStreams,
  ) {}

  /** `method path` with a JSON body; the parsed answer, or a thrown error naming the status. */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const target = new URL(path, this.url)
    target.searchParams.set('directory', this.directory)
    const res = await fetch(target, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  /** A new session's id. */
  async newSession(): Promise<string> {
    return (await this.call<{ id: string }>('POST', '/session', {})).id
  }

  /** Sends a prompt without waiting for the turn. */
  async prompt(sessionId: string, text: string): Promise<void> {
    await this.call('POST', `/session/${sessionId}/prompt_async`, { parts: [{ type: 'text', text }] })
  }

  /** The session's messages, each with its parts. */
  async messages(sessionId: string): Promise<{ info: { role: string }; parts: Record<string, unknown>[] }[]> {
    return this.call('GET', `/session/${sessionId}/message`)
  }

  /** The permission requests nobody has answered yet: what OpenCode's own dialog is showing. */
  async pendingPermissions(): Promise<{ id: string; sessionID: string; permission: string }[]> {
    return this.call('GET', '/permission')
  }

  /** Answers a permission request as the person at OpenCode's dialog would. */
  async reply(requestId: string, reply: 'once' | 'always' | 'reject', message?: string): Promise<void> {
    await this.call('POST', `/permission/${requestId}/reply`, { reply, ...(message ? { message } : {}) })
  }
}
