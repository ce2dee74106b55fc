// A Codex session behind the seam: one `codex app-server` process (shared/AGENTS.md §1e), its
// thread started (or resumed by id, in a new process) with approvals on request in a read-only
// sandbox, each prompt a turn. What it says becomes the session's lines (lines.ts); its command
// approvals become the session's prompts (approval.ts); an interrupt is turn/interrupt. A message
// sent with a uuid gets Claude Code's receipts for it, `command_lifecycle` lines: `queued` when a turn
// runs (Codex adds it to that turn: a turn/start mid-turn steers it, losing nothing and keeping the
// order), `started` once the thread's rollout file shows it in the model's input (rollout.ts).
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { EventEmitter } from 'node:events'
import * as z from 'zod'
import type { CliLine } from '../../claude/messages.js'
import type { SpawnEnv } from '../../claude/process.js'
import type { ClaudeOptions } from '../../core/claude-options.js'
import { conflict, unavailable } from '../../core/errors.js'
import { onPath } from '../../core/on-path.js'
import { VERSION } from '../../core/version.js'
import { spawnAgent, stopAgent } from '../agent-child.js'
import type { AgentHandlers, AgentProcess, AgentProcessEvents } from '../agent-process.js'
import { COMMAND_APPROVAL, commandApprovalSchema, decisionOf, promptOf } from './approval.js'
import { CodexLines } from './lines.js'
import { RolloutFile } from './rollout.js'
import { RpcPeer } from './rpc.js'

/** `CODEX_PATH`, else `codex` on PATH. */
export function findCodex(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CODEX_PATH) return env.CODEX_PATH
  const found = onPath('codex', env)
  if (found) return found
  throw unavailable('Codex CLI not found: install it (npm i -g @openai/codex) or set CODEX_PATH')
}

/**
 * Codex asks before any command that leaves its read-only sandbox (writes, the network): the
 * closest to Claude Code's default mode, where every command and edit waits for a person.
 */
const THREAD_SETTINGS = { approvalPolicy: 'on-request', sandbox: 'read-only' } as const

const threadAnswerSchema = z.object({
  /** `path`: the thread's rollout file (null for an ephemeral thread, which keeps none). */
  thread: z.object({ id: z.string().min(1), path: z.string().min(1).nullable().optional() }),
  model: z.string().optional(),
})
const turnAnswerSchema = z.object({ turn: z.object({ id: z.string().min(1) }) })
const resolvedSchema = z.object({ requestId: z.union([z.string(), z.number()]) })
const turnIdSchema = z.object({ turn: z.object({ id: z.string() }) })

const FILE_CHANGE_APPROVAL = 'item/fileChange/requestApproval'

/** How often the rollout file is looked at while a message waits to be seen in it. */
const ROLLOUT_POLL_MS = 150

export class CodexAgent extends EventEmitter<AgentProcessEvents> implements AgentProcess {
  readonly agent = 'codex' as const
  private readonly child: ChildProcessWithoutNullStreams
  private readonly rpc: RpcPeer
  private readonly lines: CodexLines
  private readonly exited: Promise<void>
  /** Settles once the thread is open: every turn waits for it. */
  private readonly ready: Promise<void>
  private threadId = ''
  private turnId: string | null = null
  private model: string | undefined
  private alive = true
  /** Approvals Codex may withdraw (an interrupt resolves them), by its request id. */
  private readonly asking = new Map<string | number, AbortController>()
  /** Codex's record of the thread, where a message's receipt is read. */
  private rollout: RolloutFile | null = null
  /** Messages sent with a uuid that the rollout file does not show yet. */
  private readonly unconfirmed = new Set<string>()
  private rolloutTimer: NodeJS.Timeout | null = null

  constructor(
    private readonly options: ClaudeOptions,
    private readonly handlers: AgentHandlers,
    spawnEnv: SpawnEnv = {},
  ) {
    super()
    const env = spawnEnv.env ?? process.env
    this.model = options.model
    this.child = spawnAgent(spawnEnv.bin ?? findCodex(env), ['app-server'], { cwd: options.cwd, env })
    this.lines = new CodexLines(() => this.threadId)
    this.rpc = new RpcPeer((line) => this.write(line), {
      notification: (method, params) => this.heard(method, params),
      request: (method, params, id) => this.asked(method, params, id),
      skipped: (reason, line) => this.emit('skipped', reason, line),
    })
    this.child.stdout.on('data', (chunk: Buffer) => this.rpc.push(chunk))
    this.child.stderr.on('data', (chunk: Buffer) => this.emit('stderr', chunk.toString('utf8')))
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => this.emit('stderr', `failed to start Codex: ${err.message}`))
      this.child.on('close', (code, signal) => {
        this.alive = false
        this.stopLooking()
        this.rpc.close(`Codex exited (${signal ?? code})`)
        for (const controller of this.asking.values()) controller.abort()
        this.emit('exit', code, signal)
        resolve()
      })
    })
    this.ready = this.open()
    // A thread that never opens fails the first turn, which reports why; nothing else waits on it.
    this.ready.catch(() => {})
  }

  async sendUser(text: string, extra: { uuid?: string } = {}): Promise<void> {
    await this.ready
    const { uuid } = extra
    // Waited for before it is sent: a look for another message may read this one's lines.
    if (uuid && this.rollout) this.unconfirmed.add(uuid)
    if (uuid && this.turnId) this.emit('line', lifecycle(uuid, 'queued'))
    let answer: Record<string, unknown>
    try {
      answer = await this.rpc.request('turn/start', {
        threadId: this.threadId,
        input: [{ type: 'text', text, text_elements: [] }],
        ...(uuid ? { clientUserMessageId: uuid } : {}),
        ...(this.model ? { model: this.model } : {}),
      })
    } catch (err) {
      if (uuid) this.unconfirmed.delete(uuid)
      throw err
    }
    const turn = turnAnswerSchema.safeParse(answer)
    if (turn.success) this.turnId = turn.data.turn.id
    if (uuid && this.unconfirmed.has(uuid)) this.lookForReceipts()
  }

  async interrupt(): Promise<void> {
    if (!this.turnId || !this.alive) return
    await this.rpc.request('turn/interrupt', { threadId: this.threadId, turnId: this.turnId })
  }

  /** Codex takes a model per turn: the next turn starts with it. */
  async setModel(model: string): Promise<void> {
    this.model = model
  }

  async setPermissionMode(): Promise<void> {
    throw conflict('a Codex session has no permission modes: it asks before leaving its read-only sandbox')
  }

  /** Closing stdin ends app-server (exit 0); SIGKILL if it has not after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.alive) return
    await stopAgent(this.child, this.exited, graceMs)
  }

  private async open(): Promise<void> {
    await this.rpc.request('initialize', {
      clientInfo: { name: 'switchboard', title: 'Switchboard', version: VERSION },
      capabilities: { experimentalApi: true },
    })
    await this.rpc.notify('initialized')
    const o = this.options
    const settings = {
      cwd: o.cwd,
      ...THREAD_SETTINGS,
      ...(o.model ? { model: o.model } : {}),
      ...(o.systemPrompt ? { baseInstructions: o.systemPrompt } : {}),
      ...(o.appendSystemPrompt ? { developerInstructions: o.appendSystemPrompt } : {}),
    }
    const answer = o.resume
      ? await this.rpc.request('thread/resume', { threadId: o.resume, ...settings })
      : await this.rpc.request('thread/start', settings)
    const thread = threadAnswerSchema.safeParse(answer)
    if (!thread.success)
      throw unavailable(`Codex answered ${o.resume ? 'thread/resume' : 'thread/start'} without a thread`)
    this.threadId = thread.data.thread.id
    const path = thread.data.thread.path
    if (path) {
      this.rollout = new RolloutFile(path, (uuid) => this.inContext(uuid))
      await this.rollout.begin()
    }
    this.emit('line', this.lines.init({ cwd: o.cwd, model: o.model ?? thread.data.model }))
  }

  /** The rollout file shows the message in the model's input: Claude Code's `started`. */
  private inContext(uuid: string): void {
    if (!this.unconfirmed.delete(uuid)) return
    this.emit('line', lifecycle(uuid, 'started'))
    if (this.unconfirmed.size === 0) this.stopLooking()
  }

  /** Looks at the rollout file now, and every ROLLOUT_POLL_MS while a message waits to be seen there. */
  private lookForReceipts(): void {
    const rollout = this.rollout
    if (!rollout || !this.alive) return
    void rollout.look()
    this.rolloutTimer ??= setInterval(() => void rollout.look(), ROLLOUT_POLL_MS)
  }

  private stopLooking(): void {
    if (this.rolloutTimer) clearInterval(this.rolloutTimer)
    this.rolloutTimer = null
  }

  private heard(method: string, params: Record<string, unknown>): void {
    if (method === 'turn/started') this.turnId = turnIdSchema.safeParse(params).data?.turn.id ?? this.turnId
    if (method === 'turn/completed') this.turnId = null
    if (method === 'serverRequest/resolved') {
      const resolved = resolvedSchema.safeParse(params)
      if (resolved.success) this.asking.get(resolved.data.requestId)?.abort()
    }
    for (const line of this.lines.heard(method, params)) this.emit('line', line)
  }

  /**
   * Codex asks its client: a command approval is the session's prompt; a file change outside the
   * sandbox is declined (not yet a prompt of its own); anything else is answered with an error.
   */
  private async asked(
    method: string,
    params: Record<string, unknown>,
    id: string | number,
  ): Promise<Record<string, unknown>> {
    if (method === FILE_CHANGE_APPROVAL) return { decision: 'decline' }
    if (method !== COMMAND_APPROVAL) throw new Error(`Switchboard does not answer ${method}`)
    const parsed = commandApprovalSchema.safeParse(params)
    if (!parsed.success) return { decision: 'decline' }
    const prompt = promptOf(parsed.data)
    // The tool_use line comes before its prompt, as Claude Code's does.
    for (const line of this.lines.toolUse(parsed.data.itemId, prompt.input.command as string))
      this.emit('line', line)
    const controller = new AbortController()
    this.asking.set(id, controller)
    try {
      const answer = await this.handlers.canUseTool(prompt, controller.signal)
      return { decision: controller.signal.aborted ? 'cancel' : decisionOf(prompt, answer) }
    } finally {
      this.asking.delete(id)
    }
  }

  private write(line: string): Promise<void> {
    if (!this.alive) return Promise.reject(unavailable('Codex is not running'))
    return new Promise((resolve, reject) =>
      this.child.stdin.write(`${line}\n`, (err) => (err ? reject(err) : resolve())),
    )
  }
}

/** Claude Code's receipt line for a message sent with `uuid` (docs/transcript-receipts.md §4). */
function lifecycle(uuid: string, state: 'queued' | 'started'): CliLine {
  return { type: 'command_lifecycle', command_uuid: uuid, state }
}
