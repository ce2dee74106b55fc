// Interactive Claude Code under tmux: a private tmux server per session, keys in, screen out.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { waitFor } from './home.js'

export class TmuxSession {
  private readonly socket = `switchboard-test-${randomBytes(4).toString('hex')}`

  /** Starts `command` in a clean environment (env -i), inside `timeout --foreground`. */
  constructor(
    command: string[],
    options: { cwd: string; env: Record<string, string>; timeoutSeconds?: number },
  ) {
    const env = Object.entries(options.env).map(([k, v]) => `${k}=${v}`)
    const timeout = String(options.timeoutSeconds ?? 120)
    this.tmux(
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      '180',
      '-y',
      '50',
      '-c',
      options.cwd,
      'env',
      '-i',
      ...env,
      'timeout',
      '--foreground',
      timeout,
      ...command,
    )
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' })
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main')
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys)
  }

  /** Types text literally, then presses Enter. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text)
    this.keys('Enter')
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

  /** Kills the tmux server and with it every process of the session. */
  kill(): void {
    try {
      this.tmux('kill-server')
    } catch {
      // already gone
    }
  }
}
