// What the end-to-end tests of another agent's hooks share (codex-hooks, gemini-hooks, opencode-hooks):
// a hub on the test's home started when the test says, `switchboard install <agent> --hooks` (OpenCode's
// plugin: `install opencode`), and the one decision the agent's hook opened.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { expect } from 'vitest'
import { CLI, runCli, type TestHome } from './home.js'
import { type OpenDecision, oneOpenDecision } from './open-decision.js'

export type { OpenDecision }

export class AgentHooks {
  private hub: ChildProcess | null = null

  /** `asking`: what the decision is, as a wait that times out says it ("the Codex prompt"). */
  constructor(
    private readonly agent: 'codex' | 'gemini' | 'opencode',
    private readonly home: TestHome,
    private readonly env: Record<string, string>,
    private readonly asking: string,
  ) {}

  async startHub(): Promise<void> {
    this.hub = spawn(process.execPath, [CLI, 'serve'], { env: this.env, stdio: 'ignore' })
    await this.home.waitForHub(15_000)
  }

  /** `install <agent> --hooks` with `more`, which must succeed quietly; what it printed. */
  async install(...more: string[]): Promise<string> {
    const what = this.agent === 'opencode' ? [] : ['--hooks']
    const run = await runCli(['install', this.agent, ...what, ...more], this.env)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    return run.stdout
  }

  /** The one open decision, once the hook has put it. */
  async openDecision(seen: number): Promise<OpenDecision> {
    return oneOpenDecision(this.home, this.env, `${this.asking} as a decision (${seen} seen before)`, 60_000)
  }

  /** Stops the hub if the test started one and it still runs. */
  async stopHub(): Promise<void> {
    const hub = this.hub
    this.hub = null
    if (hub && hub.exitCode === null && hub.signalCode === null) {
      hub.kill('SIGTERM')
      await once(hub, 'exit')
    }
  }
}
