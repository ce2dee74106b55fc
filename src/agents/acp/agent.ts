// An agent that speaks the Agent Client Protocol (Gemini CLI, OpenCode), behind the seam: one
// process per session, spoken to with the protocol's SDK over its stdio. The session is opened with
// `session/new`, or `session/load` by id in a new process (a resume); each prompt is a
// `session/prompt`, one at a time (a prompt sent during a turn waits its turn here, and an event's
// receipt says `queued`); what the agent says becomes the session's lines (lines.ts); its
// permission requests become the session's prompts (permission.ts); an interrupt is
// `session/cancel`. What differs per agent (how to start it, its record) is its profile.
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { Readable, Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import * as acp from '@agentclientprotocol/sdk'
import * as z from 'zod'
import type { CliLine } from '../../claude/messages.js'
import type { SpawnEnv } from '../../claude/process.js'
import type { ClaudeOptions } from '../../core/claude-options.js'
import { conflict, unavailable } from '../../core/errors.js'
import { VERSION } from '../../core/version.js'
import { spawnAgent, stopAgent } from '../agent-child.js'
import type { AgentHandlers, AgentProcess, AgentProcessEvents } from '../agent-process.js'
import { AcpLines } from './lines.js'
import { outcomeOf, promptOf } from './permission.js'
import type { AcpProfile, SessionRecordReader } from './profile.js'

/** How often the agent's record is read while a prompt's receipt waits for it. */
const RECORD_LOOK_MS = 200
/** How long after its turn ended a prompt may still show up in the record (it is written as it goes). */
const RECORD_GRACE_MS = 5_000
/**
 * A loaded session's history replay is over once the agent has been this quiet: Gemini CLI streams
 * it without waiting, so it may go on after `session/load` has answered.
 */
const REPLAY_QUIET_MS = 300

/** The model a session opened with, where the agent says (Gemini CLI's draft `models`). */
const modelsSchema = z.object({ models: z.object({ currentModelId: z.string() }) })

interface Prompt {
  text: string
  uuid?: string
}

export class AcpAgent extends EventEmitter<AgentProcessEvents> implements AgentProcess {
  readonly agent: AcpProfile['agent']
  private readonly child: ChildProcessWithoutNullStreams
  private readonly connection: acp.ClientConnection
  private readonly lines: AcpLines
  private readonly exited: Promise<void>
  private readonly env: NodeJS.ProcessEnv
  private readonly record: SessionRecordReader | null
  /** Settles once the session is open: every prompt waits for it. */
  private readonly ready: Promise<void>
  private sessionId = ''
  private alive = true
  /** Prompts waiting for the turn in progress to end. */
  private readonly queue: Prompt[] = []
  private pumping = false
  private turnRunning = false
  /** Updates heard so far, in or out of a turn (a replay's end is when they stop coming). */
  private heardUpdates = 0
  /** Permission requests still waiting for a person; an interrupt withdraws them. */
  private readonly asking = new Set<AbortController>()

  constructor(
    private readonly profile: AcpProfile,
    private readonly options: ClaudeOptions,
    private readonly handlers: AgentHandlers,
    spawnEnv: SpawnEnv = {},
  ) {
    super()
    this.agent = profile.agent
    const command = profile.command(options.cwd, spawnEnv.env ?? process.env)
    this.env = { ...(spawnEnv.env ?? process.env), ...command.env }
    this.record = profile.record?.(this.env) ?? null
    this.child = spawnAgent(spawnEnv.bin ?? command.bin, command.args, { cwd: options.cwd, env: this.env })
    this.lines = new AcpLines(profile.agent, () => this.sessionId)
    const client = acp
      .client({ name: 'switchboard' })
      .onRequest('session/request_permission', ({ params }) => this.asked(params))
      .onNotification('session/update', ({ params }) => this.updated(params))
    this.connection = client.connect(
      acp.ndJsonStream(
        Writable.toWeb(this.child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(this.child.stdout) as ReadableStream<Uint8Array>,
      ),
    )
    this.child.stderr.on('data', (chunk: Buffer) => this.emit('stderr', chunk.toString('utf8')))
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => this.emit('stderr', `failed to start ${profile.label}: ${err.message}`))
      this.child.on('close', (code, signal) => {
        this.alive = false
        this.connection.close(unavailable(`${profile.label} exited (${signal ?? code})`))
        for (const controller of this.asking) controller.abort()
        this.emit('exit', code, signal)
        resolve()
      })
    })
    this.ready = this.open()
    // A session that never opens fails the prompts waiting for it, which say why.
    this.ready.catch(() => {})
  }

  async sendUser(text: string, extra: { uuid?: string } = {}): Promise<void> {
    if (!this.alive) throw unavailable(`${this.profile.label} is not running`)
    const prompt: Prompt = { text, ...(extra.uuid ? { uuid: extra.uuid } : {}) }
    // ACP takes one prompt at a time: one sent during a turn waits here for the turn to end.
    if (prompt.uuid && (this.turnRunning || this.queue.length > 0)) this.lifecycle(prompt.uuid, 'queued')
    this.queue.push(prompt)
    void this.pump()
  }

  async interrupt(): Promise<void> {
    if (!this.turnRunning || !this.alive) return
    // The protocol asks the client to answer the turn's open permission requests `cancelled`.
    for (const controller of this.asking) controller.abort()
    await this.connection.agent.notify('session/cancel', { sessionId: this.sessionId })
  }

  async setModel(): Promise<void> {
    throw conflict(`a ${this.profile.label} session keeps the model it started with`)
  }

  async setPermissionMode(): Promise<void> {
    throw conflict(
      `a ${this.profile.label} session has no permission modes: it asks before each tool it runs`,
    )
  }

  /** Closing stdin ends the agent; SIGKILL to its group if it has not after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.alive) return
    await stopAgent(this.child, this.exited, graceMs)
  }

  private async open(): Promise<void> {
    const agent = this.connection.agent
    await agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'switchboard', title: 'Switchboard', version: VERSION },
    })
    const { cwd, resume } = this.options
    let answer: Record<string, unknown>
    if (resume) {
      this.sessionId = resume
      await this.profile.beforeLoad?.(resume, this.env, (why) => this.line(this.lines.notice(why)))
      answer = (await agent.request('session/load', { sessionId: resume, cwd, mcpServers: [] })) ?? {}
      await this.replayEnded()
    } else {
      const opened = await agent.request('session/new', { cwd, mcpServers: [] })
      this.sessionId = opened.sessionId
      answer = opened
    }
    const model = modelsSchema.safeParse(answer).data?.models.currentModelId
    this.line(this.lines.init({ cwd, ...(model ? { model } : {}) }))
  }

  /** Resolves once the agent has said nothing for REPLAY_QUIET_MS. */
  private async replayEnded(): Promise<void> {
    let seen: number
    do {
      seen = this.heardUpdates
      await sleep(REPLAY_QUIET_MS)
    } while (seen !== this.heardUpdates && this.alive)
  }

  /** Sends the waiting prompts one after another, each once the turn before it ended. */
  private async pump(): Promise<void> {
    if (this.pumping) return
    this.pumping = true
    try {
      await this.ready
      for (let next = this.queue.shift(); next; next = this.queue.shift()) await this.turn(next)
    } catch (err) {
      // The session never opened: every waiting prompt fails, saying why.
      const why = `${this.profile.label} could not open the session: ${(err as Error).message}`
      for (const prompt of this.queue.splice(0)) {
        if (prompt.uuid) this.lifecycle(prompt.uuid, 'unconfirmed', why)
        for (const line of this.lines.failed(why)) this.line(line)
      }
    } finally {
      this.pumping = false
    }
  }

  private async turn(prompt: Prompt): Promise<void> {
    const before = prompt.uuid && this.record ? await this.countInRecord(prompt.text) : 0
    this.turnRunning = true
    const ended = new AbortController()
    if (prompt.uuid) void this.confirm(prompt, before, ended.signal)
    try {
      const response = await this.connection.agent.request('session/prompt', {
        sessionId: this.sessionId,
        prompt: [{ type: 'text', text: prompt.text }],
      })
      this.turnRunning = false
      for (const line of this.lines.ended(response.stopReason, response as Record<string, unknown>))
        this.line(line)
    } catch (err) {
      this.turnRunning = false
      for (const line of this.lines.failed((err as Error).message)) this.line(line)
    } finally {
      ended.abort()
    }
  }

  /**
   * An event's receipt from the agent's own record: `started` once the record holds the prompt's
   * text one more time than it did before the prompt was sent; `unconfirmed` when it never does
   * (within a while of the turn's end), or when the agent keeps no record Switchboard reads.
   */
  private async confirm(prompt: Prompt, before: number, turnEnded: AbortSignal): Promise<void> {
    const uuid = prompt.uuid as string
    if (!this.record) {
      this.lifecycle(
        uuid,
        'unconfirmed',
        this.profile.unreadable ?? `${this.profile.label} keeps no record to read`,
      )
      return
    }
    let deadline = Number.POSITIVE_INFINITY
    while (Date.now() < deadline) {
      if ((await this.countInRecord(prompt.text)) > before) return this.lifecycle(uuid, 'started')
      if (turnEnded.aborted && deadline === Number.POSITIVE_INFINITY) deadline = Date.now() + RECORD_GRACE_MS
      if (!this.alive) break
      await sleep(RECORD_LOOK_MS)
    }
    this.lifecycle(uuid, 'unconfirmed', `${this.profile.label}'s record of the session never showed it`)
  }

  private async countInRecord(text: string): Promise<number> {
    if (!this.record || !this.sessionId) return 0
    const texts = await this.record.userTexts(this.sessionId).catch(() => [])
    return texts.filter((t) => t === text).length
  }

  /** A receipt line for `uuid`, in Claude Code's words (docs/transcript-receipts.md). */
  private lifecycle(uuid: string, state: 'queued' | 'started' | 'unconfirmed', reason?: string): void {
    this.line({
      type: 'command_lifecycle',
      command_uuid: uuid,
      state,
      ...(reason ? { reason } : {}),
      session_id: this.sessionId,
    })
  }

  /**
   * What the agent says of the session. Only a prompt's own updates count: those outside a turn
   * are the history a `session/load` replays (which may trail its answer), already in the session.
   */
  private updated(notification: acp.SessionNotification): void {
    this.heardUpdates++
    if (!this.turnRunning || notification.sessionId !== this.sessionId) return
    for (const line of this.lines.update(notification.update)) this.line(line)
  }

  /** The agent asks before a tool: the session's prompt, answered with the option of that kind. */
  private async asked(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
    const prompt = promptOf(request)
    // The tool_use line comes before its prompt, as Claude Code's does.
    for (const line of this.lines.toolUse(request.toolCall)) this.line(line)
    const controller = new AbortController()
    this.asking.add(controller)
    try {
      const answer = await this.handlers.canUseTool(prompt, controller.signal)
      return outcomeOf(request, prompt, controller.signal.aborted ? null : answer)
    } finally {
      this.asking.delete(controller)
    }
  }

  private line(line: CliLine): void {
    if (this.alive) this.emit('line', line)
  }
}
