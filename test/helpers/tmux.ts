// Interactive Claude Code under tmux: a private tmux server per session, keys in, screen out.
import { execFile, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { startsProcesses } from './fast-loop.js'
import { alive, waitFor } from './home.js'

const execFileAsync = promisify(execFile)

export class TmuxSession {
  private readonly socket = `switchboard-test-${randomBytes(4).toString('hex')}`
  private readonly panePid: number

  /** Starts `command` in a clean environment (env -i), inside `timeout --foreground`. */
  constructor(
    command: string[],
    options: { cwd: string; env: Record<string, string>; timeoutSeconds?: number },
  ) {
    startsProcesses('tmux')
    const env = Object.entries(options.env).map(([k, v]) => `${k}=${v}`)
    const timeout = String(options.timeoutSeconds ?? 120)
    const size = ['-x', '180', '-y', '50']
    const program = ['env', '-i', ...env, 'timeout', '--foreground', timeout, ...command]
    this.tmux('new-session', '-d', '-s', 'main', ...size, '-c', options.cwd, ...program)
    this.panePid = Number(this.tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim())
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' })
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main')
  }

  /** The screen without blocking the event loop: servers in this process answer meanwhile (bench/hooks). */
  async screenSoon(): Promise<string> {
    const { stdout } = await execFileAsync('tmux', ['-L', this.socket, 'capture-pane', '-p', '-t', 'main'])
    return stdout
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys)
  }

  async waitForScreen(pattern: RegExp, ms = 30_000): Promise<string> {
    let last = ''
    try {
      await waitFor(
        () => {
          last = this.screen()
          return pattern.test(last)
        },
        ms,
        `${pattern} on screen`,
      )
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- screen:\n${last}`)
    }
    return last
  }

  /** Kills the tmux server, and waits for the CLI it ran to be gone. */
  async kill(): Promise<void> {
    try {
      this.tmux('kill-server')
    } catch {
      // already gone
    }
    await waitFor(() => !alive(this.panePid), 15_000, `the CLI under tmux (pid ${this.panePid}) to exit`)
  }
}
