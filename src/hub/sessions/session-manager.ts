// Sessions the hub drives: one Claude Code process each (started, resumed, interrupted here), their
// state and every line they print kept in the store, and their tool prompts turned into decisions
// that any surface may answer.
import { EventEmitter } from 'node:events'
import type { WebSocket } from 'ws'
import type { z } from 'zod'
import { channelMessage } from '../../claude/channel-tag.js'
import { discoverSessions } from '../../claude/discovery.js'
import type { CanUseTool, CliLine, PermissionAnswer } from '../../claude/messages.js'
import {
  type ClaudeOptions,
  ClaudeProcess,
  claudeOptionsSchema,
  type SpawnEnv,
} from '../../claude/process.js'
import { dialHost } from '../../core/config.js'
import { newId, newSecret, safeEqual } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import {
  type ListedSession,
  type PendingInput,
  type RespondInput,
  respondSchema,
  type SessionSetup,
  type SessionView,
  sessionSetupSchema,
} from '../../core/session-api.js'
import type { Decision, SessionRecord, SessionStatus, Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import { inputPreview, toolCallText } from '../core/tool-call-text.js'

type StoredConfig = { options: ClaudeOptions; setup: z.infer<typeof sessionSetupSchema>; peer?: boolean }

interface Live {
  process: ClaudeProcess
  interrupting: boolean
  pending: Map<string, PendingInput>
}

function kindOf(tool: string): PendingInput['kind'] {
  if (tool === 'AskUserQuestion') return 'question'
  if (tool === 'ExitPlanMode') return 'plan'
  return 'permission'
}

function promptFor(req: CanUseTool): string {
  if (req.tool_name === 'AskUserQuestion') return 'Claude asks a question'
  if (req.tool_name === 'ExitPlanMode') return 'Claude asks you to review its plan'
  const said = req.description ?? (typeof req.input.description === 'string' ? req.input.description : null)
  return toolCallText(req.tool_name, inputPreview(req.tool_name, req.input), said)
}

export class SessionManager {
  private readonly live = new Map<string, Live>()
  private readonly changes = new EventEmitter()

  /** Sessions on the `--sdk-url` transport whose CLI has not connected yet: token and hand-over. */
  private readonly sdkWaiting = new Map<string, { token: string; connect(ws: WebSocket): void }>()
  private hubAddress = ''

  constructor(
    private readonly store: Store,
    private readonly hub: Hub,
    private readonly log: Logger,
    private readonly spawnEnv: { env?: NodeJS.ProcessEnv } = {},
  ) {
    this.changes.setMaxListeners(0)
  }

  /** Where CLIs on the `--sdk-url` transport connect: the hub's own address, known once it listens. */
  listeningOn(host: string, port: number): void {
    this.hubAddress = `ws://${dialHost(host)}:${port}`
  }

  /** The hub's upgrade handler asks here; a right token gets the connection handed to its session. */
  sdkConnection(sessionId: string, token: string | null): ((ws: WebSocket) => void) | null {
    const waiting = this.sdkWaiting.get(sessionId)
    if (!waiting || !token || !safeEqual(token, waiting.token)) return null
    this.sdkWaiting.delete(sessionId)
    return waiting.connect
  }

  /**
   * `topics`: events on them are written into the session as `<channel>` messages (rung 2).
   * `peer`: other sessions may message it; off by default, since whatever a peer writes becomes a
   * user turn of this session.
   */
  async create(
    prompt: string,
    options: ClaudeOptions,
    extra: { topics?: string[]; setup?: SessionSetup; peer?: boolean } = {},
  ): Promise<SessionView> {
    const config: StoredConfig = {
      options: claudeOptionsSchema.parse(options),
      setup: sessionSetupSchema.parse(extra.setup ?? { transport: 'stdio' }),
      peer: extra.peer ?? false,
    }
    const record = await this.store.createSession({
      id: newId('ses'),
      cwd: config.options.cwd,
      config,
      status: 'running',
    })
    await this.start(record, config.options, config.setup)
    await this.sendToLive(record.id, prompt)
    await this.subscribe(record.id, extra.topics ?? [], config.peer === true)
    return this.view(record.id)
  }

  /**
   * After a hub restart: every session it drove is a subscriber again, so what waits for one (a
   * peer message, an event on its topics) is written to it, resuming its process.
   */
  async restore(): Promise<void> {
    const subscribers = new Map((await this.store.listSubscribers()).map((s) => [s.name, s.topics]))
    for (const session of await this.store.listSessions()) {
      const topics = subscribers.get(`session:${session.id}`)
      if (topics) await this.subscribe(session.id, topics, (session.config as StoredConfig).peer === true)
    }
  }

  /**
   * Makes the session a durable subscriber of the hub: each event is written to it as a user
   * message (resuming it if its process ended) and acknowledged once written.
   */
  private async subscribe(id: string, topics: string[], peer: boolean): Promise<void> {
    const name = `session:${id}`
    await this.store.registerSubscriber(name, topics, { peer })
    await this.hub.attachConsumer(name, async (event) => {
      await this.send(id, channelMessage([event]))
    })
  }

  /** A message to a session; one whose process ended is resumed first (same Claude session id). */
  async send(id: string, text: string, options: { fork?: boolean } = {}): Promise<SessionView> {
    const record = await this.require(id)
    if (!this.live.has(record.id)) {
      if (!record.claudeSessionId) throw new Error(`session ${id} never started; create a new one`)
      const stored = record.config as StoredConfig
      const config = { ...stored.options, resume: record.claudeSessionId, forkSession: options.fork }
      await this.start(record, config, stored.setup)
    }
    await this.sendToLive(record.id, text)
    return this.view(record.id)
  }

  async interrupt(id: string): Promise<SessionView> {
    const record = await this.require(id)
    const live = this.live.get(record.id)
    if (!live) throw new Error(`session ${id} is not running`)
    live.interrupting = true
    await live.process.interrupt()
    return this.view(record.id)
  }

  async setModel(id: string, model: string): Promise<void> {
    await (await this.liveOf(id)).process.setModel(model)
  }

  async setPermissionMode(id: string, mode: NonNullable<ClaudeOptions['permissionMode']>): Promise<void> {
    await (await this.liveOf(id)).process.setPermissionMode(mode)
  }

  /** Answers a pending input of this session, by decision id or code. */
  async respond(
    id: string,
    decisionIdOrCode: string,
    answer: RespondInput,
    by: string,
  ): Promise<SessionView> {
    const record = await this.require(id)
    const pending = [...(this.live.get(record.id)?.pending.values() ?? [])].find(
      (p) => p.decision === decisionIdOrCode || p.code === decisionIdOrCode,
    )
    if (!pending) throw new Error(`no pending input "${decisionIdOrCode}" in session ${id}`)
    const decision = await this.store.getDecision(pending.decision)
    if (!decision) throw new Error(`decision ${pending.decision} is gone`)
    await this.hub.decisions.answer(decision, answer, by)
    return this.view(record.id)
  }

  async view(id: string): Promise<SessionView> {
    const record = await this.require(id)
    const live = this.live.get(record.id)
    return { ...record, live: !!live, pendingInputs: [...(live?.pending.values() ?? [])] }
  }

  /** The session now, or as soon as it changes (up to `waitSeconds`) when it is busy. */
  async status(id: string, waitSeconds = 0): Promise<SessionView> {
    const record = await this.require(id)
    if (waitSeconds > 0 && record.status === 'running') {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          this.changes.off(record.id, done)
          resolve()
        }
        const timer = setTimeout(done, waitSeconds * 1000)
        this.changes.on(record.id, done)
      })
    }
    return this.view(record.id)
  }

  async list(): Promise<SessionView[]> {
    const records = await this.store.listSessions()
    return Promise.all(records.map((r) => this.view(r.id)))
  }

  /**
   * The hub's sessions and every other session found on disk, newest first. Any of them can be
   * resumed: a discovered one by creating a session with `resume: <claudeSessionId>`.
   */
  async listAll(options: { cwd?: string; claudeDir?: string } = {}): Promise<ListedSession[]> {
    const managed = (await this.list()).filter((s) => !options.cwd || s.cwd === options.cwd)
    const known = new Set(managed.map((s) => s.claudeSessionId))
    const listed: ListedSession[] = managed.map((s) => ({
      id: s.id,
      claudeSessionId: s.claudeSessionId,
      cwd: s.cwd,
      status: s.status,
      managed: true,
      lastActivity: s.updatedAt,
      summary: s.lastResult,
      sources: ['hub'],
    }))
    for (const d of discoverSessions(options)) {
      if (known.has(d.sessionId)) continue
      listed.push({
        id: d.sessionId,
        claudeSessionId: d.sessionId,
        cwd: d.cwd,
        status: 'on_disk',
        managed: false,
        lastActivity: d.lastActivity,
        summary: d.firstPrompt,
        sources: d.sources,
      })
    }
    return listed.sort((a, b) => b.lastActivity - a.lastActivity)
  }

  lines(id: string, afterSeq: number) {
    return this.store.sessionLines(id, afterSeq, 100_000)
  }

  onLine(listener: (id: string, seq: number, line: CliLine) => void): () => void {
    const wrapped = (id: string, seq: number, line: CliLine) => listener(id, seq, line)
    this.changes.on('line', wrapped)
    return () => this.changes.off('line', wrapped)
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((l) => l.process.stop(3_000)))
  }

  // --- internals -------------------------------------------------------------------------------

  private async require(id: string): Promise<SessionRecord> {
    const record = await this.store.getSession(id)
    if (!record) throw new Error(`no session "${id}"`)
    return record
  }

  private async liveOf(id: string): Promise<Live> {
    const record = await this.require(id)
    const live = this.live.get(record.id)
    if (!live) throw new Error(`session ${id} is not running`)
    return live
  }

  private async setStatus(
    id: string,
    status: SessionStatus,
    extra: Partial<SessionRecord> = {},
  ): Promise<void> {
    await this.store.updateSession(id, { status, ...extra })
    this.changes.emit(id)
  }

  /** `id` is a record's own id, read by the caller: its process was just started or runs. */
  private async sendToLive(id: string, text: string): Promise<void> {
    const live = this.live.get(id)
    if (!live) throw new Error(`session ${id} is not running`)
    live.interrupting = false
    await this.setStatus(id, 'running')
    await live.process.sendUser(text)
  }

  private async start(
    record: SessionRecord,
    options: ClaudeOptions,
    setup: StoredConfig['setup'],
  ): Promise<void> {
    const id = record.id
    const spawnEnv: SpawnEnv = { ...this.spawnEnv, bin: setup.claudePath }
    if (setup.transport === 'sdk-url') {
      if (!this.hubAddress) throw new Error('the hub is not listening yet')
      const token = newSecret('sbk')
      const connection = new Promise<WebSocket>((connect) => this.sdkWaiting.set(id, { token, connect }))
      spawnEnv.sdkUrl = { url: `${this.hubAddress}/sdk/${id}`, token, connection }
    }
    const live: Live = {
      interrupting: false,
      pending: new Map(),
      process: new ClaudeProcess(
        options,
        { canUseTool: (req, signal) => this.ask(id, req, signal) },
        spawnEnv,
      ),
    }
    this.live.set(id, live)
    const p = live.process
    // Lines are stored in the order they came; the chain keeps that order across awaits.
    let chain = Promise.resolve()
    p.on('line', (line) => {
      chain = chain
        .then(() => this.record(id, line))
        .catch((err) => this.log.error({ err, session: id }, 'line not stored'))
    })
    p.on('skipped', (reason, line) =>
      this.log.warn({ session: id, reason, line }, 'unreadable line from the CLI'),
    )
    p.on('stderr', (text) => this.log.debug({ session: id, text }, 'CLI stderr'))
    p.on('exit', (code, signal) => {
      chain = chain.then(() => this.exited(id, live, code, signal))
    })
  }

  private async record(id: string, line: CliLine): Promise<void> {
    const seq = await this.store.appendSessionLine(id, line)
    this.changes.emit('line', id, seq, line)
    if (line.type === 'system' && line.subtype === 'init' && typeof line.session_id === 'string') {
      await this.store.updateSession(id, { claudeSessionId: line.session_id })
    }
    if (line.type === 'result') {
      const session = await this.require(id)
      const live = this.live.get(id)
      const interrupted = live?.interrupting && line.subtype === 'error_during_execution'
      await this.setStatus(id, interrupted ? 'interrupted' : 'idle', {
        costUsd: session.costUsd + (typeof line.total_cost_usd === 'number' ? line.total_cost_usd : 0),
        turns: session.turns + (typeof line.num_turns === 'number' ? line.num_turns : 0),
        lastResult: typeof line.result === 'string' ? line.result : session.lastResult,
      })
    }
  }

  private async exited(
    id: string,
    live: Live,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): Promise<void> {
    if (this.live.get(id) === live) this.live.delete(id)
    this.sdkWaiting.delete(id)
    await this.hub.decisions.cancelAwaited([...live.pending.values()].map((p) => p.decision))
    live.pending.clear()
    const session = await this.store.getSession(id)
    const clean = code === 0 && signal === null
    const status: SessionStatus = clean ? (session?.status === 'running' ? 'error' : 'completed') : 'error'
    this.log.info({ session: id, code, signal, status }, 'CLI exited')
    await this.setStatus(id, status)
  }

  /** `can_use_tool` → a decision in the hub; resolves with the first answer from any surface. */
  private async ask(id: string, req: CanUseTool, signal: AbortSignal): Promise<PermissionAnswer> {
    const live = this.live.get(id)
    if (!live) return { behavior: 'deny', message: 'session is stopping' }
    const kind = kindOf(req.tool_name)
    let settle: (d: Decision) => void = () => {}
    const answered = new Promise<Decision>((resolve) => {
      settle = resolve
    })
    const request = {
      tool_name: req.tool_name,
      input: req.input,
      ...(req.description ? { description: req.description } : {}),
    }
    const decision = await this.hub.decisions.openAwaited(
      { kind, owner: id, request, prompt: promptFor(req) },
      (d) => settle(d),
    )
    live.pending.set(decision.id, { decision: decision.id, code: decision.code, kind, ...request })
    await this.setStatus(id, 'waiting_for_input')
    signal.addEventListener('abort', () => void this.hub.decisions.cancelAwaited([decision.id]))
    const done = await answered
    live.pending.delete(decision.id)
    if (live.pending.size === 0) await this.setStatus(id, 'running')
    return toPermissionAnswer(req, done.answer ?? {})
  }
}

/** A stored answer in the shape the CLI expects for this tool. */
export function toPermissionAnswer(req: CanUseTool, answer: Record<string, unknown>): PermissionAnswer {
  const parsed = respondSchema.safeParse(answer)
  if (!parsed.success) return { behavior: 'deny', message: 'unreadable answer' }
  const a = parsed.data
  if (a.behavior === 'deny') return { behavior: 'deny', message: a.message }
  if (a.answers) return { behavior: 'allow', updatedInput: { ...req.input, answers: a.answers } }
  return { behavior: 'allow', updatedInput: a.updatedInput ?? req.input }
}
