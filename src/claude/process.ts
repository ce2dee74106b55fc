// One Claude Code CLI process speaking stream-json: started with only the flags the caller set,
// every line it reads validated first, interrupted through the control protocol.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import type { WebSocket } from 'ws'
import type { ClaudeOptions } from '../core/claude-options.js'
import { unavailable } from '../core/errors.js'
import { onPath } from '../core/on-path.js'
import type { PermissionMode } from '../core/permission-modes.js'
import { ControlChannel, ControlClosedError, type ControlHandlers } from './control.js'
import { type CliLine, checkCliLine, type HostLine, hostLineSchema, type UserInput } from './messages.js'
import { encodeLine, InvalidLineError, NdjsonReader } from './ndjson.js'
import { type LineTransport, stdioTransport, webSocketTransport } from './transport.js'

/** The CLI's argument list for these options: the fixed stream-json flags, then only what was set. */
export function claudeArgs(o: ClaudeOptions): string[] {
  const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose']
  args.push('--permission-prompt-tool', 'stdio')
  if (o.model) args.push('--model', o.model)
  if (o.permissionMode) args.push('--permission-mode', o.permissionMode)
  if (o.allowedTools?.length) args.push('--allowedTools', o.allowedTools.join(','))
  if (o.disallowedTools?.length) args.push('--disallowedTools', o.disallowedTools.join(','))
  if (o.maxTurns) args.push('--max-turns', String(o.maxTurns))
  if (o.maxBudgetUsd) args.push('--max-budget-usd', String(o.maxBudgetUsd))
  if (o.systemPrompt) args.push('--system-prompt', o.systemPrompt)
  if (o.appendSystemPrompt) args.push('--append-system-prompt', o.appendSystemPrompt)
  if (o.resume) args.push('--resume', o.resume)
  if (o.resume && o.forkSession) args.push('--fork-session')
  if (o.mcpConfig) args.push('--mcp-config', o.mcpConfig)
  if (o.includePartialMessages) args.push('--include-partial-messages')
  return args
}

/** `CLAUDE_CODE_PATH`, else `claude` on PATH. */
export function findClaude(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CLAUDE_CODE_PATH) return env.CLAUDE_CODE_PATH
  const found = onPath('claude', env)
  if (found) return found
  throw unavailable(
    'Claude Code CLI not found: install it (npm i -g @anthropic-ai/claude-code) or set CLAUDE_CODE_PATH',
  )
}

export interface SpawnEnv {
  bin?: string
  env?: NodeJS.ProcessEnv
  /** Speak over a WebSocket the CLI opens to the hub instead of stdin/stdout. */
  sdkUrl?: { url: string; token: string; connection: Promise<WebSocket> }
}

const running = new Set<ChildProcessWithoutNullStreams>()
// A CLI whose stdin closes exits by itself; this covers a hub that exits normally with turns running.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

export interface ClaudeProcessEvents {
  line: [CliLine]
  skipped: [string, string]
  stderr: [string]
  exit: [number | null, NodeJS.Signals | null]
}

export class ClaudeProcess extends EventEmitter<ClaudeProcessEvents> {
  readonly control: ControlChannel
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private readonly child: ChildProcessWithoutNullStreams
  private readonly reader: NdjsonReader<CliLine>
  private readonly transport: LineTransport
  private alive = true

  constructor(options: ClaudeOptions, handlers: ControlHandlers, spawnEnv: SpawnEnv = {}) {
    super()
    let env = spawnEnv.env ?? process.env
    const args = claudeArgs(options)
    if (spawnEnv.sdkUrl) {
      // The CLI reads its token from the environment and waits on the socket for the first prompt.
      args.push('--sdk-url', spawnEnv.sdkUrl.url)
      env = { ...env, CLAUDE_CODE_SESSION_ACCESS_TOKEN: spawnEnv.sdkUrl.token }
    }
    this.child = spawn(spawnEnv.bin ?? findClaude(env), args, {
      cwd: options.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    running.add(this.child)
    this.transport = spawnEnv.sdkUrl
      ? webSocketTransport(spawnEnv.sdkUrl.connection)
      : stdioTransport(this.child)
    this.control = new ControlChannel((line) => this.write(line), handlers)
    this.reader = new NdjsonReader(
      checkCliLine,
      (line) => {
        if (!this.control.handle(line)) this.emit('line', line)
      },
      (reason, line) => this.emit('skipped', reason, line),
    )
    this.transport.start(
      (chunk) => this.reader.push(chunk),
      () => this.reader.end(),
    )
    this.child.stderr.on('data', (chunk: Buffer) => this.emit('stderr', chunk.toString('utf8')))
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.emit('stderr', `failed to start the CLI: ${err.message}`)
      })
      this.child.on('close', (code, signal) => {
        this.alive = false
        running.delete(this.child)
        this.control.close(`the CLI exited (${signal ?? code})`)
        this.emit('exit', code, signal)
        resolve({ code, signal })
      })
    })
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  get isAlive(): boolean {
    return this.alive
  }

  sendUser(content: UserInput['message']['content'], extra: { uuid?: string } = {}): Promise<void> {
    return this.write({
      type: 'user',
      message: { role: 'user', content },
      parent_tool_use_id: null,
      session_id: '',
      ...extra,
    })
  }

  setModel(model: string) {
    return this.control.setModel(model)
  }

  setPermissionMode(mode: PermissionMode) {
    return this.control.setPermissionMode(mode)
  }

  /** The control request keeps the process alive for the next turn; SIGINT only when that fails. */
  async interrupt(): Promise<void> {
    try {
      await this.control.request('interrupt', {}, 5_000)
    } catch {
      if (this.alive) this.child.kill('SIGINT')
    }
  }

  /** Closing stdin ends the CLI cleanly (exit 0); SIGKILL if it has not after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.alive) return
    this.transport.end()
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs)
    await this.exited
    clearTimeout(timer)
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.child.kill(signal)
  }

  private write(line: HostLine): Promise<void> {
    if (!this.alive) return Promise.reject(new ControlClosedError('the CLI is not running'))
    const text = encodeLine(hostLineSchema, line)
    return text instanceof InvalidLineError ? Promise.reject(text) : this.transport.write(text)
  }
}
