// Sessions the hub drives: one Claude Code process each (started, resumed, interrupted here), their
// state and every line they print kept in the store, and their tool prompts turned into decisions
// that any surface may answer.
import { EventEmitter } from 'node:events'
import type { WebSocket } from 'ws'
import { channelMessage } from '../../claude/channel-tag.js'
import { discoverSessions } from '../../claude/discovery.js'
import {
  configuredServers,
  ideFolder as defaultIdeFolder,
  findIde,
  type Ide,
  ideServer,
  listIdes,
} from '../../claude/ide.js'
import type { CanUseTool, CliLine, PermissionAnswer } from '../../claude/messages.js'
import { ClaudeProcess, type SpawnEnv } from '../../claude/process.js'
import type { PartialPiece } from '../../core/api/rows.js'
import { type ClaudeOptions, claudeOptionsSchema } from '../../core/claude-options.js'
import { dialHost } from '../../core/config.js'
import type { StoredEvent } from '../../core/event.js'
import { newId, newSecret, safeEqual } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import {
  LINES_PER_PAGE,
  type LinesPage,
  type ListedSession,
  MAX_LINE_CHARS,
  PAGE_CHARS,
  type PendingInput,
  type RespondInput,
  respondSchema,
  type SessionSetup,
  type SessionView,
  sessionSetupSchema,
} from '../../core/session-api.js'
import type { Decision, SessionRecord, SessionStatus, Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import { type ExclusiveWork, subscriberLease, type WorkSource } from '../core/lease-keeper.js'
import { PartialText } from './partial-text.js'
import { openSealed, type SessionConfig, sealConfig, TAMPERED } from './session-seal.js'

interface Live {
  process: ClaudeProcess
  interrupting: boolean
  pending: Map<string, PendingInput>
  /** Set when the hub ends the CLI on purpose: why, for the record. */
  stopping: string | null
  /** The CLI's last words on stderr, for the reason when it dies. */
  stderrTail: string
  idleTimer: NodeJS.Timeout | null
  /** Settles once the hub has recorded the CLI's end (status and reason). */
  ended: Promise<void>
  /** The IDE this CLI is bound to (its MCP server is the dynamic `ide` server), if any. */
  ide: Ide | null
  /** The assistant text streaming in, before its line arrives. */
  partial: PartialText
  /** The MCP servers it was started with (checked, see session-seal.ts): an IDE is bound beside them. */
  mcpConfig: string | undefined
}

/** How long a failed write waits for the CLI's end to be recorded, to report why it died. */
const DEATH_WAIT_MS = 3_000
/** A session in one of these has a CLI running somewhere, as far as its record says. */
const LIVE_STATUSES: ReadonlySet<SessionStatus> = new Set(['running', 'waiting_for_input', 'idle'])

/** How much of the CLI's stderr is kept, for the reason when it dies. */
const STDERR_TAIL = 2_000

function kindOf(tool: string): PendingInput['kind'] {
  if (tool === 'AskUserQuestion') return 'question'
  if (tool === 'ExitPlanMode') return 'plan'
  return 'permission'
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
    /** The admin token: what seals a session's stored settings (see session-seal.ts). */
    private readonly sealKey: string,
    private readonly spawnEnv: { env?: NodeJS.ProcessEnv } = {},
    /** How long a CLI may sit idle before it is stopped (the next message resumes it); 0: never. */
    private readonly idleMinutes = 0,
    /** Where IDEs leave their lock files (`~/.claude/ide`). */
    private readonly ideFolder = defaultIdeFolder(),
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
    const config: SessionConfig = {
      options: claudeOptionsSchema.parse(options),
      setup: sessionSetupSchema.parse(extra.setup ?? { transport: 'stdio' }),
      peer: extra.peer ?? false,
    }
    const id = newId('ses')
    const record = await this.store.createSession({
      id,
      cwd: config.options.cwd,
      config: sealConfig(this.sealKey, id, config),
      status: 'running',
    })
    await this.start(record, config.options, config.setup)
    await this.sendToLive(record.id, prompt)
    await this.subscribe(record.id, extra.topics ?? [], config.peer === true)
    return this.view(record.id)
  }

  /**
   * Every session subscribed to the hub is work for one hub at a time: what waits for it (a peer
   * message, an event on its topics) is written to it, resuming its process, on the hub holding its
   * subscriber's lease. That hub also finds a session whose CLI died with its hub (killed, or
   * another hub that stopped answering) and marks it stopped: the next message resumes it there.
   */
  work(): WorkSource {
    return {
      wanted: async () => {
        const subscribed = new Set((await this.store.listSubscribers()).map((s) => s.name))
        const work = new Map<string, ExclusiveWork>()
        for (const session of await this.store.listSessions()) {
          const name = `session:${session.id}`
          if (!subscribed.has(name)) continue
          work.set(subscriberLease(name), {
            start: async (lease) => {
              await this.markOrphaned(session.id)
              await this.hub.attachConsumer(name, (event) => this.consume(session.id, event), lease)
            },
            stop: async () => this.hub.detach(name),
          })
        }
        return work
      },
    }
  }

  private async markOrphaned(id: string): Promise<void> {
    const record = await this.store.getSession(id)
    if (!record || this.live.has(id) || !LIVE_STATUSES.has(record.status)) return
    await this.setStatus(id, 'stopped', {
      reason: 'its CLI ended with the hub that ran it; the next message resumes it',
    })
  }

  private async consume(id: string, event: StoredEvent): Promise<void> {
    await this.send(id, channelMessage([event]))
  }

  /** Makes the session a durable subscriber of the hub, fed by the hub holding its lease (work()). */
  private async subscribe(id: string, topics: string[], peer: boolean): Promise<void> {
    await this.store.registerSubscriber(`session:${id}`, topics, { peer })
    await this.hub.leases.tickNow()
  }

  /** A message to a session; one whose process ended is resumed first (same Claude session id). */
  async send(id: string, text: string, options: { fork?: boolean } = {}): Promise<SessionView> {
    const record = await this.require(id)
    await this.revive(record, options.fork)
    await this.sendToLive(record.id, text)
    return this.view(record.id)
  }

  /** Starts a stopped session's CLI again (`--resume`), to wait for its next message. */
  async resume(id: string): Promise<SessionView> {
    const record = await this.require(id)
    if (await this.revive(record)) {
      await this.setStatus(record.id, 'idle', { reason: null })
      const live = this.live.get(record.id)
      if (live) this.stopWhenIdle(record.id, live)
    }
    return this.view(record.id)
  }

  /** A session whose CLI is not running gets one resuming its Claude session. True if one started. */
  private async revive(record: SessionRecord, fork?: boolean): Promise<boolean> {
    if (this.live.has(record.id)) return false
    if (!record.claudeSessionId) throw new Error(`session ${record.id} never started; create a new one`)
    const config = await this.storedConfig(record)
    // Of the hubs on one database, the one holding the session's lease runs its CLI: never two.
    if (!(await this.hub.leases.take(subscriberLease(`session:${record.id}`))))
      throw new Error(`session ${record.id} runs on another hub; ask that hub`)
    await this.start(
      record,
      { ...config.options, resume: record.claudeSessionId, forkSession: fork },
      config.setup,
    )
    return true
  }

  async interrupt(id: string): Promise<SessionView> {
    const { record, live } = await this.liveOf(id)
    live.interrupting = true
    await live.process.interrupt()
    return this.view(record.id)
  }

  async setModel(id: string, model: string): Promise<void> {
    await (await this.liveOf(id)).live.process.setModel(model)
  }

  async setPermissionMode(id: string, mode: NonNullable<ClaudeOptions['permissionMode']>): Promise<void> {
    await (await this.liveOf(id)).live.process.setPermissionMode(mode)
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
    const ide = live?.ide ? { port: live.ide.port, name: live.ide.name } : null
    return { ...record, live: !!live, pendingInputs: [...(live?.pending.values() ?? [])], ide }
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

  /**
   * A page of the session's stored lines after `afterSeq`: at most `limit`, about PAGE_CHARS, an
   * over-long line cut. A transcript can be tens of MB; no caller holds more than a page of it.
   */
  async lines(id: string, afterSeq: number, limit = LINES_PER_PAGE): Promise<LinesPage> {
    const page = await this.store.sessionLines(id, afterSeq, {
      limit,
      maxChars: PAGE_CHARS,
      maxLineChars: MAX_LINE_CHARS,
    })
    return { lines: page.lines, next: page.more ? (page.lines.at(-1)?.seq ?? afterSeq) : null }
  }

  onLine(listener: (id: string, seq: number, line: CliLine) => void): () => void {
    const wrapped = (id: string, seq: number, line: CliLine) => listener(id, seq, line)
    this.changes.on('line', wrapped)
    return () => this.changes.off('line', wrapped)
  }

  /**
   * The assistant text as it streams in, piece by piece, in order with the lines (a piece at 0 starts
   * over; an empty one at 0 means none is in progress). Live only: never stored, never replayed.
   */
  onPartial(listener: (id: string, piece: PartialPiece) => void): () => void {
    const wrapped = (id: string, piece: PartialPiece) => listener(id, piece)
    this.changes.on('partial', wrapped)
    return () => this.changes.off('partial', wrapped)
  }

  /** The assistant text streamed so far and not yet a line of its own, if any. */
  partial(id: string): PartialPiece | null {
    return this.live.get(id)?.partial.snapshot() ?? null
  }

  /** Ends the session's CLI; the session stays, and the next message resumes it. */
  async stop(id: string, reason = 'stopped on request'): Promise<SessionView> {
    const { record, live } = await this.liveOf(id)
    live.stopping = reason
    await live.process.stop(5_000)
    await live.ended
    return this.view(record.id)
  }

  /** Forgets sessions whose CLI is not running: every one, or the ones named. Returns those removed. */
  async prune(ids?: string[]): Promise<string[]> {
    const removable = (await this.store.listSessions()).filter(
      (s) => !this.live.has(s.id) && (!ids || ids.includes(s.id)),
    )
    const removed: string[] = []
    for (const session of removable) {
      await this.hub.forget(`session:${session.id}`)
      if (await this.store.removeSession(session.id)) removed.push(session.id)
    }
    return removed
  }

  /**
   * Binds the session's CLI to a live IDE (its port or name), as Claude Code's /ide does: the `ide`
   * entry joins the session's dynamic MCP servers. Lasts as long as this CLI; null unbinds.
   */
  async bindIde(id: string, which: string | null): Promise<SessionView> {
    const { record, live } = await this.liveOf(id)
    const ide = which === null ? null : findIde(listIdes(this.ideFolder), which)
    const servers = configuredServers(live.mcpConfig)
    const answer = await live.process.control.mcpSetServers(
      ide ? { ...servers, ide: ideServer(ide) } : servers,
    )
    // Newer CLIs (seen: 2.1.330) take no IDE from outside and say so; older ones connect at once.
    const refused = (answer.errors as Record<string, string> | undefined)?.ide
    if (refused) throw new Error(`this Claude Code took no IDE: ${refused}`)
    live.ide = ide
    return this.view(record.id)
  }

  liveCount(): number {
    return this.live.size
  }

  async stopAll(): Promise<void> {
    for (const live of this.live.values()) live.stopping = 'the hub stopped; the next message resumes it'
    await Promise.all([...this.live.values()].map((l) => l.process.stop(3_000)))
  }

  // --- internals -------------------------------------------------------------------------------

  /** The settings a session was created with, or an error (and the reason on the record) if they were changed. */
  private async storedConfig(record: SessionRecord): Promise<SessionConfig> {
    try {
      return openSealed(this.sealKey, record)
    } catch (err) {
      this.log.warn({ session: record.id }, `session not resumed: ${TAMPERED}`)
      await this.setStatus(record.id, 'error', { reason: `not resumed: ${TAMPERED}` })
      throw err
    }
  }

  private async require(id: string): Promise<SessionRecord> {
    const record = await this.store.getSession(id)
    if (!record) throw new Error(`no session "${id}"`)
    return record
  }

  /** A session whose CLI runs, with its record; an error for one that does not. */
  private async liveOf(id: string): Promise<{ record: SessionRecord; live: Live }> {
    const record = await this.require(id)
    const live = this.live.get(record.id)
    if (!live) throw new Error(`session ${id} is not running`)
    return { record, live }
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
    if (live.idleTimer) clearTimeout(live.idleTimer)
    await this.setStatus(id, 'running', { reason: null })
    try {
      await live.process.sendUser(text)
      // The CLI does not echo what it was sent: the transcript keeps it, so every page shows the prompt.
      await this.record(id, { type: 'user', message: { role: 'user', content: text }, origin: 'switchboard' })
    } catch (err) {
      // A CLI that died at once (not found, refused its flags) breaks the pipe: say why it died.
      await Promise.race([live.ended, new Promise((r) => setTimeout(r, DEATH_WAIT_MS))])
      throw new Error((await this.store.getSession(id))?.reason ?? (err as Error).message)
    }
  }

  private async start(
    record: SessionRecord,
    options: ClaudeOptions,
    setup: SessionConfig['setup'],
  ): Promise<void> {
    const id = record.id
    const spawnEnv: SpawnEnv = { ...this.spawnEnv, bin: setup.claudePath }
    if (setup.transport === 'sdk-url') {
      if (!this.hubAddress) throw new Error('the hub is not listening yet')
      const token = newSecret('sbk')
      const connection = new Promise<WebSocket>((connect) => this.sdkWaiting.set(id, { token, connect }))
      spawnEnv.sdkUrl = { url: `${this.hubAddress}/sdk/${id}`, token, connection }
    }
    let process: ClaudeProcess
    try {
      process = new ClaudeProcess(
        // Partial messages let the dashboard show the text as it is written (stream_event lines).
        { ...options, includePartialMessages: options.includePartialMessages ?? true },
        { canUseTool: (req, signal) => this.ask(id, req, signal) },
        spawnEnv,
      )
    } catch (err) {
      await this.setStatus(id, 'error', { reason: `the CLI did not start: ${(err as Error).message}` })
      throw err
    }
    let ended = () => {}
    const live: Live = {
      interrupting: false,
      pending: new Map(),
      process,
      stopping: null,
      stderrTail: '',
      idleTimer: null,
      ended: new Promise((resolve) => {
        ended = resolve
      }),
      ide: null,
      partial: new PartialText(),
      mcpConfig: options.mcpConfig,
    }
    this.live.set(id, live)
    const p = live.process
    // Lines are stored in the order they came; the chain keeps that order across awaits.
    let chain = Promise.resolve()
    p.on('line', (line) => {
      chain = chain
        .then(() => (line.type === 'stream_event' ? this.streamed(id, live, line) : this.record(id, line)))
        .catch((err) => this.log.error({ err, session: id }, 'line not stored'))
    })
    p.on('skipped', (reason, line) =>
      this.log.warn({ session: id, reason, line }, 'unreadable line from the CLI'),
    )
    p.on('stderr', (text) => {
      live.stderrTail = (live.stderrTail + text).slice(-STDERR_TAIL)
      this.log.debug({ session: id, text }, 'CLI stderr')
    })
    p.on('exit', (code, signal) => {
      chain = chain
        .then(() => this.exited(id, live, code, signal))
        .catch((err) => this.log.error({ err, session: id }, 'CLI end not recorded'))
        .finally(ended)
    })
  }

  /** A partial message (stream_event): passed on live, never stored. */
  private streamed(id: string, live: Live, line: CliLine): void {
    const piece = live.partial.apply(line)
    if (piece) this.changes.emit('partial', id, piece)
  }

  private async record(id: string, line: CliLine): Promise<void> {
    const seq = await this.store.appendSessionLine(id, line)
    // The finished message (or the turn's end) takes the place of the text streamed so far.
    if (line.type === 'assistant' || line.type === 'result') this.live.get(id)?.partial.clear()
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
      if (live) this.stopWhenIdle(id, live)
    }
  }

  /** An idle CLI holds memory and a process for nothing: it is stopped, and resumed by the next message. */
  private stopWhenIdle(id: string, live: Live): void {
    if (live.idleTimer) clearTimeout(live.idleTimer)
    if (this.idleMinutes <= 0) return
    live.idleTimer = setTimeout(() => {
      if (this.live.get(id) !== live) return
      live.stopping = `stopped after ${this.idleMinutes} minutes idle; the next message resumes it`
      live.process.stop(5_000).catch((err) => this.log.error({ err, session: id }, 'idle stop failed'))
    }, this.idleMinutes * 60_000)
    live.idleTimer.unref()
  }

  private async exited(
    id: string,
    live: Live,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): Promise<void> {
    if (this.live.get(id) === live) this.live.delete(id)
    if (live.idleTimer) clearTimeout(live.idleTimer)
    // A CLI that died mid-message leaves no line to replace its text: pages drop it.
    if (live.partial.clear()) this.changes.emit('partial', id, { at: 0, text: '' })
    this.sdkWaiting.delete(id)
    await this.hub.decisions.cancelAwaited([...live.pending.values()].map((p) => p.decision))
    live.pending.clear()
    const session = await this.store.getSession(id)
    const clean = code === 0 && signal === null
    const midTurn = session?.status === 'running' || session?.status === 'waiting_for_input'
    const lastWords = live.stderrTail.trim().split('\n').at(-1)
    let status: SessionStatus = 'completed'
    let reason: string | null = null
    if (live.stopping) [status, reason] = ['stopped', live.stopping]
    else if (!clean) {
      status = 'error'
      reason = `the CLI exited with ${signal ? `signal ${signal}` : `code ${code}`}${lastWords ? `: ${lastWords}` : ''}`
    } else if (midTurn) [status, reason] = ['error', 'the CLI ended in the middle of a turn']
    this.log.info({ session: id, code, signal, status }, 'CLI exited')
    await this.setStatus(id, status, { reason })
  }

  /** `can_use_tool` → a decision in the hub; resolves with the first answer from any surface. */
  private async ask(id: string, req: CanUseTool, signal: AbortSignal): Promise<PermissionAnswer> {
    const live = this.live.get(id)
    if (!live) return { behavior: 'deny', message: 'session is stopping' }
    const kind = kindOf(req.tool_name)
    let settle: (d: Decision) => void = () => {}
    let settledEarly: Decision | null = null
    const answered = new Promise<Decision>((resolve) => {
      settle = (d) => {
        settledEarly = d
        resolve(d)
      }
    })
    const request = {
      tool_name: req.tool_name,
      input: req.input,
      ...(req.description ? { description: req.description } : {}),
    }
    const decision = await this.hub.decisions.openAwaited(
      {
        kind,
        owner: id,
        request,
        folder: (await this.store.getSession(id))?.cwd ?? null,
      },
      (d) => settle(d),
    )
    // Answered before anyone was asked (an always-allow rule): nothing waits for a person, so it is
    // no pending input; the transcript says who answered, since no surface showed the prompt.
    const early = settledEarly as Decision | null
    if (early) {
      await this.record(id, {
        type: 'system',
        subtype: 'decision_answered',
        origin: 'switchboard',
        tool_name: req.tool_name,
        behavior: (early.answer as { behavior?: string } | null)?.behavior ?? 'allow',
        answered_by: early.answeredBy,
      })
      return toPermissionAnswer(req, early.answer ?? {})
    }
    live.pending.set(decision.id, { decision: decision.id, code: decision.code, kind, ...request })
    await this.setStatus(id, 'waiting_for_input')
    // The CLI withdrew the request (an interrupt): nobody is asked any more, and nothing waits.
    const withdrawn = new Promise<null>((resolve) =>
      signal.addEventListener('abort', () => {
        live.pending.delete(decision.id)
        void this.hub.decisions.cancelAwaited([decision.id])
        resolve(null)
      }),
    )
    const done = await Promise.race([answered, withdrawn])
    live.pending.delete(decision.id)
    if (!done) return { behavior: 'deny', message: 'the request was withdrawn' }
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
