// Runs the real Gemini CLI (pinned in devDependencies) offline against the fake Gemini API
// (test/fakes/gemini.ts; shared/AGENTS.md §2): a throwaway HOME whose ~/.gemini/settings.json
// points nothing at the network (no usage statistics, telemetry or update checks), takes the API key
// and trusts every folder, and headless turns, `gemini -p … --approval-mode yolo --output-format
// stream-json`, whose JSON lines it collects. Every process it starts is killed at the end.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { ROOT } from './claude.js'
import { startsProcesses } from './fast-loop.js'
import { TAKE_EVERYTHING } from './home.js'

export const GEMINI_BIN = join(ROOT, 'node_modules/.bin/gemini')

/** Gemini CLI's settings for a test: the API key, every folder trusted, nothing phoning home. */
export function offlineSettings(): Record<string, unknown> {
  return {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // `gateway`, which GOOGLE_GEMINI_BASE_URL implies, fails headless; the base URL still applies.
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    model: { name: 'gemini-2.5-flash' },
  }
}

/** One line of `--output-format stream-json`. */
export interface StreamEvent {
  type: string
  [key: string]: unknown
}

/** A headless turn: its JSON lines as they come, and how it ended. */
export interface Turn {
  readonly events: StreamEvent[]
  stderr: string
  /** The process's exit code once it ended. */
  readonly exited: Promise<number | null>
}

/** A HOME for one test, with a `switchboard` command on PATH for the hook, and a project folder. */
export class GeminiHome {
  readonly home: string
  readonly cwd: string
  readonly bin: string
  private readonly children = new Set<ChildProcessWithoutNullStreams>()

  constructor(private readonly baseUrl: string) {
    startsProcesses('the Gemini CLI (a GeminiHome)')
    this.home = realpathSync(mkdtempSync(join(tmpdir(), 'gemini-home-')))
    this.cwd = realpathSync(mkdtempSync(join(tmpdir(), 'gemini-project-')))
    this.bin = join(this.home, 'bin')
    mkdirSync(join(this.home, '.gemini'))
    mkdirSync(this.bin)
    const shim = `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist/cli/main.js')}" "$@"\n`
    writeFileSync(join(this.bin, 'switchboard'), shim, { mode: 0o755 })
    writeFileSync(this.settingsFile, `${JSON.stringify(offlineSettings(), null, 2)}\n`)
  }

  get settingsFile(): string {
    return join(this.home, '.gemini', 'settings.json')
  }

  settings(): string {
    return readFileSync(this.settingsFile, 'utf8')
  }

  /** Only what the CLI needs, nothing inherited from the shell that runs the tests. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: `${this.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: this.home,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      XDG_DATA_HOME: join(this.home, '.local/share'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      XDG_STATE_HOME: join(this.home, '.local/state'),
      LANG: 'C.UTF-8',
      GOOGLE_GEMINI_BASE_URL: this.baseUrl,
      GEMINI_API_KEY: 'fake-gemini-key',
      ...TAKE_EVERYTHING,
      ...extra,
    }
  }

  /** `gemini -p <prompt> --approval-mode yolo --output-format stream-json` in the project folder. */
  run(prompt: string, env: Record<string, string>): Turn {
    const child = spawn(
      GEMINI_BIN,
      ['-p', prompt, '--approval-mode', 'yolo', '--output-format', 'stream-json'],
      { env, cwd: this.cwd, stdio: 'pipe' },
    )
    child.stdin.end()
    this.children.add(child)
    const turn: Turn = {
      events: [],
      stderr: '',
      exited: new Promise((resolve) =>
        child.on('close', (code) => {
          this.children.delete(child)
          resolve(code)
        }),
      ),
    }
    child.stderr.on('data', (d: Buffer) => {
      turn.stderr += d.toString('utf8')
    })
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        turn.events.push(JSON.parse(line) as StreamEvent)
      } catch {
        // Not a JSON line: Gemini's own noise.
      }
    })
    return turn
  }

  cleanup(): void {
    for (const child of this.children) child.kill('SIGKILL')
    this.children.clear()
    rmSync(this.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    rmSync(this.cwd, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

/** The turn's events of one type. */
export function eventsOf(turn: Turn, type: string): StreamEvent[] {
  return turn.events.filter((e) => e.type === type)
}
