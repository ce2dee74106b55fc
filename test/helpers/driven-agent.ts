// What the end-to-end tests of sessions the hub drives for another agent share (codex-sessions,
// gemini-sessions, opencode-sessions): a hub started on the test's home and stopped at its end, a
// session's view waited for, and the agent's processes still running, found in /proc.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import { CLI, type TestHome, waitFor } from './home.js'

export type SessionView = {
  id: string
  claudeSessionId: string | null
  status: string
  live: boolean
  lastResult: string | null
  turns: number
  costUsd: number
}

/** `switchboard serve` on `home` with `env`; `stop()` ends it if it still runs. */
export class DrivingHub {
  private hub: ChildProcess | null = null

  constructor(
    private readonly home: TestHome,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts it, with `env` in place of the one it was made with when given. */
  async start(env = this.env): Promise<void> {
    this.hub = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' })
    await this.home.waitForHub(15_000)
  }

  async stop(): Promise<void> {
    const hub = this.hub
    this.hub = null
    if (hub && hub.exitCode === null && hub.signalCode === null) {
      hub.kill('SIGTERM')
      await once(hub, 'exit')
    }
  }

  /** The session's view once `done` holds of it. */
  async until(
    id: string,
    done: (v: SessionView) => boolean,
    what: string,
    ms = 120_000,
  ): Promise<SessionView> {
    let view: SessionView | undefined
    await waitFor(
      async () => {
        view = (await this.home.api('session', { params: { id }, query: { wait: 5 } })) as SessionView
        return done(view)
      },
      ms,
      what,
    )
    return view as SessionView
  }
}

/** Pids of processes whose command line has `arg` and whose HOME is `home` (read from /proc). */
export function agentProcesses(arg: string, home: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
        return cmdline.includes(arg) && environ.includes(`HOME=${home}`)
      } catch {
        return false
      }
    })
    .map(Number)
}
