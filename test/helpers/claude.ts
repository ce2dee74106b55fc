// Runs the real Claude Code CLI offline against the fake Messages API (PROTOCOLS.md §1): a throwaway
// HOME, an environment built from scratch, a timeout, and every process it starts cleaned up.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startsProcesses } from './fast-loop.js'
import { TAKE_EVERYTHING, waitFor } from './home.js'

export const ROOT = resolve(import.meta.dirname, '../..')
// The package's own path: node_modules/.bin/claude may point at either pinned CLI.
export const CLAUDE_BIN =
  process.env.CLAUDE_CODE_PATH ?? join(ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
export const PLUGIN_DIR = join(ROOT, 'plugin')
/** The last CLI that accepts a local `--sdk-url` (PROTOCOLS.md §4), pinned beside the current one. */
export const SDK_URL_CLI = join(ROOT, 'node_modules/claude-code-sdk-url/bin/claude.exe')
const API_KEY = 'sk-ant-fake-key-for-tests'

export interface McpServer {
  command: string
  args: string[]
  env?: Record<string, string>
}

/** Switchboard's channel as an MCP server entry, bound to one Switchboard home. */
export function switchboardChannel(home: { dir: string; port: number }, name: string): McpServer {
  return {
    command: process.execPath,
    args: [join(ROOT, 'dist/cli/main.js'), 'channel', '--name', name],
    env: { SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) },
  }
}

export interface ClaudeHomeOptions {
  /** Turns on the channels feature flags, allowing this plugin … */
  channelPlugin?: string
  /** … from this marketplace (`inline` is the one `--plugin-dir` plugins belong to). */
  channelMarketplace?: string
}

/** A HOME for one test: onboarding done, the fake key approved, the working folder trusted. */
export class ClaudeHome {
  readonly home: string
  readonly cwd: string
  /** Holds a `switchboard` command, so the plugin's `.mcp.json` finds it on PATH. */
  readonly bin: string

  constructor(options: ClaudeHomeOptions = {}) {
    startsProcesses('the Claude CLI (a ClaudeHome)')
    this.home = realpathSync(mkdtempSync(join(tmpdir(), 'claude-home-')))
    this.cwd = realpathSync(mkdtempSync(join(tmpdir(), 'claude-project-')))
    this.bin = join(this.home, 'bin')
    mkdirSync(this.bin)
    const shim = `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist/cli/main.js')}" "$@"\n`
    writeFileSync(join(this.bin, 'switchboard'), shim, { mode: 0o755 })
    const now = Date.now()
    const flags = options.channelPlugin
      ? {
          tengu_harbor: true,
          tengu_harbor_permissions: true,
          tengu_harbor_ledger: [
            { marketplace: options.channelMarketplace ?? 'inline', plugin: options.channelPlugin },
          ],
        }
      : undefined
    writeFileSync(
      join(this.home, '.claude.json'),
      JSON.stringify({
        hasCompletedOnboarding: true,
        customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
        projects: { [this.cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
        ...(flags
          ? {
              cachedGrowthBookFeatures: flags,
              cachedGrowthBookFeaturesAt: now,
              cachedFeatureFlags: flags,
              cachedFeatureFlagsAt: now,
            }
          : {}),
      }),
    )
  }

  /** Only what the CLI needs: nothing inherited from the shell that runs the tests. */
  env(apiUrl: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: `${this.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: this.home,
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: apiUrl,
      ANTHROPIC_API_KEY: API_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      // A hub this CLI's channel or hook starts takes what the tests' hubs take (home.ts).
      ...TAKE_EVERYTHING,
      ...extra,
    }
  }

  /** A user-scope MCP server: what `--dangerously-load-development-channels server:<name>` looks up. */
  addUserMcpServer(name: string, server: McpServer): void {
    const file = join(this.home, '.claude.json')
    const config = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers?: Record<string, unknown> }
    config.mcpServers = { ...config.mcpServers, [name]: { type: 'stdio', ...server } }
    writeFileSync(file, JSON.stringify(config))
  }

  writeMcpConfig(servers: Record<string, McpServer>): string {
    const file = join(this.home, 'mcp.json')
    writeFileSync(file, JSON.stringify({ mcpServers: servers }))
    return file
  }

  cleanup(): void {
    // A CLI that is still exiting may write a last file meanwhile.
    rmSync(this.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    rmSync(this.cwd, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

/** Runs a `claude` sub-command (plugin management and the like) in this HOME. */
export function claudeCommand(claude: ClaudeHome, args: string[]): string {
  return execFileSync('timeout', ['60', CLAUDE_BIN, ...args], {
    cwd: claude.cwd,
    env: claude.env('http://127.0.0.1:9'),
    encoding: 'utf8',
  })
}

export type StreamLine = { type: string; subtype?: string; [key: string]: unknown }

let printSessions = 0

/** `claude -p` speaking stream-json on stdin and stdout (PROTOCOLS.md §3). */
export class PrintSession {
  readonly lines: StreamLine[] = []
  readonly stderr: string[] = []
  /** Claude Code's own debug log of this process (`--debug-file`), in the test's HOME. */
  readonly debugFile: string
  private readonly child: ChildProcessWithoutNullStreams
  private exited: Promise<number | null>

  constructor(
    args: string[],
    options: { cwd: string; env: Record<string, string>; timeoutSeconds?: number },
  ) {
    const timeout = String(options.timeoutSeconds ?? 120)
    this.debugFile = join(options.env.HOME ?? tmpdir(), `claude-debug-${++printSessions}.log`)
    this.child = spawn(
      'timeout',
      [
        '--kill-after=5',
        timeout,
        CLAUDE_BIN,
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--debug-file',
        this.debugFile,
        ...args,
      ],
      { cwd: options.cwd, env: options.env },
    )
    let buffer = ''
    this.child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      let nl = buffer.indexOf('\n')
      while (nl !== -1) {
        const line = buffer.slice(0, nl).trim()
        buffer = buffer.slice(nl + 1)
        if (line) {
          try {
            this.lines.push(JSON.parse(line) as StreamLine)
          } catch {
            this.stderr.push(`(stdout, not JSON) ${line}`)
          }
        }
        nl = buffer.indexOf('\n')
      }
    })
    this.child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString('utf8')))
    this.exited = new Promise((res) => this.child.on('exit', (code) => res(code)))
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  send(text: string): void {
    this.child.stdin.write(
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' })}\n`,
    )
  }

  private controls = 0
  private readyAfter = 0

  /** A control request (PROTOCOLS.md §3); resolves with the CLI's answer to it. */
  async control(request: Record<string, unknown>, ms = 30_000): Promise<StreamLine> {
    const id = `test-${++this.controls}`
    this.child.stdin.write(`${JSON.stringify({ type: 'control_request', request_id: id, request })}\n`)
    return this.waitForLine(
      (l) =>
        l.type === 'control_response' &&
        (l.response as { request_id?: string } | undefined)?.request_id === id,
      ms,
      `the answer to control request ${String(request.subtype)}`,
    )
  }

  /**
   * Waits until Claude Code counts an MCP server whose name matches as connected (mcp_status). Claude
   * Code wires channel notifications at the start of each turn, for the servers connected then: a
   * first line sent before this starts a turn that leaves the channel deaf until the next one.
   */
  async waitForMcpServer(name: RegExp = /switchboard/, ms = 30_000): Promise<void> {
    await waitFor(
      async () => {
        const answer = await this.control({ subtype: 'mcp_status' }, ms)
        const servers =
          (answer.response as { response?: { mcpServers?: { name: string; status: string }[] } }).response
            ?.mcpServers ?? []
        return servers.some((s) => name.test(s.name) && s.status === 'connected')
      },
      ms,
      `Claude Code to connect the MCP server ${name}`,
    )
  }

  /** Whether Claude Code has wired a channel's notifications (it says so in its debug log). */
  channelWired(): boolean {
    try {
      return /Channel notifications (re-)?registered/.test(readFileSync(this.debugFile, 'utf8'))
    } catch {
      return false
    }
  }

  /**
   * Sends `line` and waits for its turn to end, and again (at most three turns) until Claude Code has
   * wired the channel. It wires channels as a turn starts, for the servers it counts as connected
   * then; a server whose connection is still being taken in (seen under load, also after
   * mcp_status says connected) stays deaf until the next turn. Tests of what a wired channel does
   * start from one.
   */
  async sendUntilChannelWired(line: string): Promise<void> {
    for (let turn = 1; ; turn++) {
      const before = this.results().length
      this.send(line)
      await this.waitForResults(before + 1)
      if (this.channelWired()) {
        this.readyAfter = this.results().length
        return
      }
      if (turn === 3)
        throw new Error(`Claude Code did not wire the channel in ${turn} turns (${this.debugFile})`)
    }
  }

  results(): StreamLine[] {
    return this.lines.filter((l) => l.type === 'result')
  }

  async waitForLine(match: (line: StreamLine) => boolean, ms: number, what: string): Promise<StreamLine> {
    let found: StreamLine | undefined
    await waitFor(
      () => {
        found = this.lines.find(match)
        return found !== undefined
      },
      ms,
      `${what}\n--- stderr:\n${this.stderr.join('').slice(-3000)}\n--- stdout types: ${this.lines.map((l) => `${l.type}/${l.subtype ?? ''}`).join(' ')}`,
    )
    return found as StreamLine
  }

  /** The results of the turns after the session was ready (sendUntilChannelWired). */
  turnsSinceReady(): StreamLine[] {
    return this.results().slice(this.readyAfter)
  }

  /** Waits for `n` turns after the session was ready; a wired channel may need more than one first. */
  async waitForTurns(n: number, ms = 60_000): Promise<StreamLine[]> {
    await this.waitForResults(this.readyAfter + n, ms)
    return this.turnsSinceReady()
  }

  async waitForResults(n: number, ms = 60_000): Promise<StreamLine[]> {
    await this.waitForLine(() => this.results().length >= n, ms, `${n} result line(s)`)
    return this.results()
  }

  /** Closing stdin ends the CLI (exit 0); it then closes its MCP servers' stdin too. */
  async close(): Promise<number | null> {
    this.child.stdin.end()
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000)
    const code = await this.exited
    clearTimeout(timer)
    return code
  }
}
