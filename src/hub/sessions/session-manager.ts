// Sessions the hub drives: one agent process each (Claude Code's, or Codex's, behind the seam in
// agents/), started, resumed and steered here. This is the face the surfaces call; the parts beside
// it each do one job: supervision.ts (the process and its end), sdk-handoff.ts (the --sdk-url
// transport), recording.ts (lines and status), prompts.ts (tool prompts into decisions and back),
// idle-policy.ts, ide-binding.ts, history.ts (listing and pages of lines), leases.ts (which hub
// runs a session), session-events.ts (who hears what).
// Every failure a caller can act on is a DomainError: no session is not_found; not running, never
// started, runs on another hub, settings changed is a conflict; a CLI that cannot start or does not
// answer is unavailable.
import type { WebSocket } from 'ws'
import { channelMessage } from '../../claude/channel-tag.js'
import { ideFolder as defaultIdeFolder } from '../../claude/ide.js'
import type { CanUseTool, CliLine, PermissionAnswer } from '../../claude/messages.js'
import type { SpawnEnv } from '../../claude/process.js'
import { agentOptionsProblem } from '../../core/agent-options.js'
import { AGENT_LABELS, type DrivenAgent, drivenAgentOf } from '../../core/agents.js'
import type { PartialPiece } from '../../core/api/rows.js'
import { type ClaudeOptions, claudeOptionsSchema } from '../../core/claude-options.js'
import { conflict, invalid, notFound, unavailable } from '../../core/errors.js'
import { newId } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import {
  LINES_PER_PAGE,
  type LinesPage,
  type ListedSession,
  type RespondInput,
  SESSION_PROMPT_KEPT,
  type SessionSetup,
  type SessionView,
  sessionSetupSchema,
} from '../../core/session-api.js'
import type { SessionRecord, SessionStatus, Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import type { WorkSource } from '../core/lease-keeper.js'
import { type Projects, projectName } from '../projects/projects.js'
import { DrivenReceipts, neverEntered } from './driven-receipts.js'
import { linesPage, listAll } from './history.js'
import { bindIde } from './ide-binding.js'
import { IdlePolicy } from './idle-policy.js'
import { SessionLeases, subscriberOf } from './leases.js'
import type { LiveSession } from './live-session.js'
import { Prompts } from './prompts.js'
import { Recorder } from './recording.js'
import { SdkHandoff } from './sdk-handoff.js'
import { SessionEvents } from './session-events.js'
import { openSealed, type SessionConfig, sealConfig, TAMPERED } from './session-seal.js'
import { exitOutcome, LIVE_STATUSES, Supervisor } from './supervision.js'
import { overBudget, overBudgetLine, UsageMeter } from './usage-meter.js'

/** How long a failed write waits for the CLI's end to be recorded, to report why it died. */
const DEATH_WAIT_MS = 3_000
const ORPHANED = 'its CLI ended with the hub that ran it; the next message resumes it'
const HUB_STOPPED = 'the hub stopped; the next message resumes it'

/** Whether the session's CLI ended because the hub running it went (stopped, or killed), not for itself. */
export function endedWithItsHub(session: Pick<SessionRecord, 'status' | 'reason'>): boolean {
  return session.status === 'stopped' && (session.reason === ORPHANED || session.reason === HUB_STOPPED)
}
const ENDED_STATUSES: ReadonlySet<SessionStatus> = new Set(['stopped', 'completed', 'error'])

export class SessionManager {
  private readonly events: SessionEvents
  private readonly handoff = new SdkHandoff()
  private readonly recorder: Recorder
  private readonly supervisor: Supervisor
  private readonly prompts: Prompts
  private readonly idle: IdlePolicy
  private readonly leases: SessionLeases
  private readonly receipts: DrivenReceipts
  private readonly meter: UsageMeter
  private readonly projects: Projects
  /** Set once the hub stops: the sessions it stops have not ended for anyone. */
  private stopping = false

  constructor(
    private readonly store: Store,
    hub: Hub,
    private readonly log: Logger,
    /** The admin token: what seals a session's stored settings (see session-seal.ts). */
    private readonly sealKey: string,
    /** The agents' environment: `env`, or an agent's own in `byAgent` (claude/env.ts). */
    private readonly spawnEnv: {
      env?: NodeJS.ProcessEnv
      byAgent?: Partial<Record<DrivenAgent, NodeJS.ProcessEnv>>
    } = {},
    /** How long a CLI may sit idle before it is stopped (the next message resumes it); 0: never. */
    idleMinutes = 0,
    /** Where IDEs leave their lock files (`~/.claude/ide`). */
    private readonly ideFolder = defaultIdeFolder(),
  ) {
    this.events = new SessionEvents((err) => log.error({ err }, 'a session listener failed'))
    this.recorder = new Recorder(store, this.events)
    this.projects = hub.projects
    this.meter = new UsageMeter(store, hub, log, (id, reason) => this.stop(id, reason))
    this.prompts = new Prompts(store, hub.decisions, this.recorder)
    this.idle = new IdlePolicy(idleMinutes)
    this.leases = new SessionLeases(store, hub)
    this.receipts = new DrivenReceipts(hub)
    this.supervisor = new Supervisor(log, {
      canUseTool: (live, request, signal) => this.ask(live, request, signal),
      line: (live, line) => this.heard(live, line),
      exited: (live, code, signal) => this.exited(live, code, signal),
    })
  }

  // --- the --sdk-url hand-off (sdk-handoff.ts) ---------------------------------------------------

  /** Where CLIs on the `--sdk-url` transport connect: the hub's own address, known once it listens. */
  listeningOn(host: string, port: number): void {
    this.handoff.listeningOn(host, port)
  }

  /** The hub's upgrade handler asks here; a right token gets the connection handed to its session. */
  sdkConnection(sessionId: string, token: string | null): ((ws: WebSocket) => void) | null {
    return this.handoff.connection(sessionId, token)
  }

  // --- starting, messaging, steering -----------------------------------------------------------

  /**
   * `topics`: events on them are written into the session as `<channel>` messages (rung 2).
   * `peer`: other sessions may message it; off by default, since whatever a peer writes becomes a
   * user turn of this session. `id`: given by a caller that must know it before the CLI starts (a
   * routine's run records it first, to start its session once across a crash).
   */
  async create(
    prompt: string,
    options: ClaudeOptions,
    extra: {
      topics?: string[]
      setup?: SessionSetup
      peer?: boolean
      id?: string
      agent?: DrivenAgent
      /** The routine whose run starts it. */
      routine?: string
      /** Who starts it (a sender's name, `cli`): what its usage counts against. */
      startedBy?: string
      /** The project its usage counts against, when not its folder's (a routine's worktree: its repository's). */
      project?: string | null
    } = {},
  ): Promise<SessionView> {
    const agent = extra.agent ?? 'claude'
    const problem = agentOptionsProblem(agent, options, extra.setup)
    if (problem) throw invalid(problem)
    const project =
      extra.project !== undefined
        ? extra.project
        : projectName(await this.projects.of(options.cwd), options.cwd)
    await this.refuseOverBudget(project)
    const config: SessionConfig = {
      options: claudeOptionsSchema.parse(options),
      setup: sessionSetupSchema.parse(extra.setup ?? { transport: 'stdio' }),
      peer: extra.peer ?? false,
      // Claude Code's sessions keep the settings they always had, so their seals stay as they were.
      ...(agent === 'claude' ? {} : { agent }),
    }
    const id = extra.id ?? newId('ses')
    const record = await this.store.createSession({
      id,
      cwd: config.options.cwd,
      config: sealConfig(this.sealKey, id, config),
      status: 'running',
      firstPrompt: prompt.slice(0, SESSION_PROMPT_KEPT),
      project,
      routine: extra.routine ?? null,
      startedBy: extra.startedBy ?? null,
    })
    await this.start(record, agent, config.options, config.setup)
    await this.sendToLive(record.id, prompt)
    await this.leases.subscribe(record.id, extra.topics ?? [], config.peer === true)
    return this.view(record.id)
  }

  /** Names the session for people (null: by its folder and first prompt again). */
  async setTitle(id: string, title: string | null): Promise<SessionView> {
    const record = await this.require(id)
    await this.store.updateSession(record.id, { title })
    return this.view(record.id)
  }

  /** A message to a session; one whose process ended is resumed first (same Claude session id). */
  async send(
    id: string,
    text: string,
    options: { fork?: boolean; uuid?: string } = {},
  ): Promise<SessionView> {
    const record = await this.require(id)
    await this.refuseOverBudget(record.project)
    await this.revive(record, options.fork)
    await this.carryUnconfirmed(record.id)
    await this.sendToLive(record.id, text, options.uuid)
    return this.view(record.id)
  }

  /** Starts a stopped session's CLI again (`--resume`), to wait for its next message. */
  async resume(id: string): Promise<SessionView> {
    const record = await this.require(id)
    if (await this.revive(record)) {
      await this.recorder.setStatus(record.id, 'idle', { reason: null })
      const live = this.supervisor.get(record.id)
      if (live) this.idleFrom(live)
    }
    return this.view(record.id)
  }

  async interrupt(id: string): Promise<SessionView> {
    const live = await this.liveOf(id)
    live.interrupting = true
    await live.process.interrupt()
    return this.view(live.id)
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
    await this.prompts.respond(id, this.supervisor.get(record.id), decisionIdOrCode, answer, by)
    return this.view(record.id)
  }

  /** Ends the session's CLI; the session stays, and the next message resumes it. */
  async stop(id: string, reason = 'stopped on request'): Promise<SessionView> {
    const live = await this.liveOf(id)
    await this.supervisor.stop(live, reason)
    return this.view(live.id)
  }

  /** Forgets sessions whose CLI is not running: every one, or the ones named. Returns those removed. */
  async prune(ids?: string[]): Promise<string[]> {
    const removable = (await this.store.listSessions()).filter(
      (s) => !this.supervisor.has(s.id) && (!ids || ids.includes(s.id)),
    )
    const removed: string[] = []
    for (const session of removable) {
      await this.leases.forget(session.id)
      if (await this.store.removeSession(session.id)) removed.push(session.id)
    }
    return removed
  }

  /**
   * Binds the session's CLI to a live IDE (its port or name), as Claude Code's /ide does (see
   * ide-binding.ts). Lasts as long as this CLI; null unbinds.
   */
  async bindIde(id: string, which: string | null): Promise<SessionView> {
    const live = await this.liveOf(id)
    await bindIde(live, which, this.ideFolder)
    return this.view(live.id)
  }

  async stopAll(): Promise<void> {
    this.stopping = true
    await this.supervisor.stopAll(HUB_STOPPED, 3_000)
  }

  // --- what a session is, was, and says ----------------------------------------------------------

  async view(id: string): Promise<SessionView> {
    return this.viewOf(await this.require(id))
  }

  /** The session now, or as soon as its status changes (up to `waitSeconds`) when it is busy. */
  async status(id: string, waitSeconds = 0): Promise<SessionView> {
    const record = await this.require(id)
    if (waitSeconds > 0 && record.status === 'running') {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          off()
          resolve()
        }
        const timer = setTimeout(done, waitSeconds * 1000)
        const off = this.events.status.of(record.id, done)
      })
    }
    return this.view(record.id)
  }

  async list(): Promise<SessionView[]> {
    return (await this.store.listSessions()).map((r) => this.viewOf(r))
  }

  /** The hub's sessions and every other session found on disk, newest first (see history.ts). */
  async listAll(options: { cwd?: string; claudeDir?: string } = {}): Promise<ListedSession[]> {
    return listAll(await this.list(), options)
  }

  /** A page of the session's stored lines after `afterSeq` (see history.ts). */
  async lines(id: string, afterSeq: number, limit = LINES_PER_PAGE): Promise<LinesPage> {
    return linesPage(this.store, id, afterSeq, limit)
  }

  /** Every session's lines as they are stored. */
  onLine(listener: (id: string, seq: number, line: CliLine) => void): () => void {
    return this.events.lines.all(listener)
  }

  /** One session's lines as they are stored. */
  onLinesOf(id: string, listener: (seq: number, line: CliLine) => void): () => void {
    return this.events.lines.of(id, listener)
  }

  /**
   * The assistant text as it streams in, piece by piece, in order with the lines (a piece at 0 starts
   * over; an empty one at 0 means none is in progress). Live only: never stored, never replayed.
   */
  onPartial(listener: (id: string, piece: PartialPiece) => void): () => void {
    return this.events.partial.all(listener)
  }

  /** One session's pieces of assistant text, as onPartial. */
  onPartialOf(id: string, listener: (piece: PartialPiece) => void): () => void {
    return this.events.partial.of(id, listener)
  }

  /**
   * Sessions whose CLI ended while this hub runs on (a person stopped it, it sat idle, it exited or
   * failed), with the reason; not those the hub's own stop ended, nor those found dead with another hub.
   */
  onEnded(listener: (id: string, reason: string | null) => void): () => void {
    return this.events.status.all((id, status) => {
      if (this.stopping || !ENDED_STATUSES.has(status)) return
      void this.store
        .getSession(id)
        .then((record) => {
          if (record && record.reason !== ORPHANED) listener(id, record.reason)
        })
        .catch((err) => this.log.warn({ err, session: id }, 'an ended session not told'))
    })
  }

  /** One session's status as it changes. */
  onStatus(id: string, listener: (status: SessionStatus) => void): () => void {
    return this.events.status.of(id, listener)
  }

  /** The assistant text streamed so far and not yet a line of its own, if any. */
  partial(id: string): PartialPiece | null {
    return this.supervisor.get(id)?.partial.snapshot() ?? null
  }

  liveCount(): number {
    return this.supervisor.size
  }

  /**
   * Every session subscribed to the hub is work for one hub at a time (see leases.ts). The hub that
   * takes one also finds it whose CLI died with its hub (killed, or another hub that stopped
   * answering) and marks it stopped: the next message resumes it there.
   */
  work(): WorkSource {
    return this.leases.work({
      taken: (id) => this.markOrphaned(id),
      message: async (id, event) => {
        // Sent with a uuid: the CLI's command_lifecycle lines for it are the event's receipts.
        const uuid = this.receipts.sending(event, subscriberOf(id))
        try {
          await this.send(id, channelMessage([event]), { uuid })
        } catch (err) {
          this.receipts.forget(uuid)
          throw err
        }
        await this.receipts.written(uuid)
      },
    })
  }

  // --- internals -------------------------------------------------------------------------------

  private viewOf(record: SessionRecord): SessionView {
    const live = this.supervisor.get(record.id)
    const ide = live?.ide ? { port: live.ide.port, name: live.ide.name } : null
    return {
      ...record,
      agent: drivenAgentOf(record.config),
      live: !!live,
      pendingInputs: [...(live?.pending.values() ?? [])],
      ide,
    }
  }

  private async require(id: string): Promise<SessionRecord> {
    const record = await this.store.getSession(id)
    if (!record) throw notFound(`no session "${id}"`)
    return record
  }

  /** A session whose CLI runs; not_found for no session, a conflict for one whose CLI does not run. */
  private async liveOf(id: string): Promise<LiveSession> {
    return this.supervisor.require((await this.require(id)).id)
  }

  private async markOrphaned(id: string): Promise<void> {
    const record = await this.store.getSession(id)
    if (!record || this.supervisor.has(id) || !LIVE_STATUSES.has(record.status)) return
    await this.recorder.setStatus(id, 'stopped', { reason: ORPHANED })
  }

  /** A session whose CLI is not running gets one resuming its Claude session. True if one started. */
  private async revive(record: SessionRecord, fork?: boolean): Promise<boolean> {
    if (this.supervisor.has(record.id)) return false
    if (!record.claudeSessionId) throw conflict(`session ${record.id} never started; create a new one`)
    const config = await this.storedConfig(record)
    const agent = config.agent ?? 'claude'
    if (fork && agent !== 'claude') throw conflict(`a ${AGENT_LABELS[agent]} session cannot fork`)
    await this.leases.claim(record.id)
    await this.start(
      record,
      agent,
      { ...config.options, resume: record.claudeSessionId, forkSession: fork },
      config.setup,
    )
    return true
  }

  /** The settings a session was created with; a conflict (and the reason on the record) if they were changed. */
  private async storedConfig(record: SessionRecord): Promise<SessionConfig> {
    try {
      return openSealed(this.sealKey, record)
    } catch (err) {
      this.log.warn({ session: record.id }, `session not resumed: ${TAMPERED}`)
      await this.recorder.setStatus(record.id, 'error', { reason: `not resumed: ${TAMPERED}` })
      throw err
    }
  }

  private async start(
    record: SessionRecord,
    agent: DrivenAgent,
    options: ClaudeOptions,
    setup: SessionConfig['setup'],
  ) {
    const spawnEnv: SpawnEnv = {
      env: this.spawnEnv.byAgent?.[agent] ?? this.spawnEnv.env,
      bin: setup.claudePath,
    }
    if (setup.transport === 'sdk-url') spawnEnv.sdkUrl = this.handoff.prepare(record.id)
    try {
      return this.supervisor.start(record.id, agent, options, spawnEnv)
    } catch (err) {
      await this.recorder.setStatus(record.id, 'error', {
        reason: `the CLI did not start: ${(err as Error).message}`,
      })
      throw err
    }
  }

  /** `id` is a record's own id, read by the caller: its process was just started or runs. */
  private async sendToLive(id: string, text: string, uuid?: string): Promise<void> {
    const live = this.supervisor.require(id)
    live.interrupting = false
    this.idle.busy(live)
    await this.recorder.setStatus(id, 'running', { reason: null })
    try {
      await live.process.sendUser(text, uuid ? { uuid } : {})
    } catch (err) {
      // A CLI that died at once (not found, refused its flags) breaks the pipe: say why it died.
      await settledWithin(live.ended, DEATH_WAIT_MS)
      throw unavailable((await this.store.getSession(id))?.reason ?? (err as Error).message)
    }
    // The CLI does not echo what it was sent: the transcript keeps it, so every page shows the prompt.
    await this.recorder.record(id, {
      type: 'user',
      message: { role: 'user', content: text },
      origin: 'switchboard',
    })
  }

  /**
   * The driven rung's way down the ladder: what the session's CLI never took into the conversation
   * (it ended first, or refused the line; not what an agent only could not tell of) goes in before
   * the session's next line, each event on a
   * line of its own with a uuid, so its receipt says again how far it got. Taken once.
   */
  private async carryUnconfirmed(id: string): Promise<void> {
    const subscriber = subscriberOf(id)
    for (const event of await this.store.takeUnconfirmed(subscriber, 100, Date.now())) {
      const before = (await this.store.eventReceipts(event.id)).find((r) => r.subscriber === subscriber)
      if (!neverEntered(before?.reason ?? null)) continue
      const uuid = this.receipts.sending(event, subscriber, (before?.tries ?? 0) + 1)
      try {
        await this.sendToLive(id, channelMessage([event]), uuid)
      } catch (err) {
        this.receipts.forget(uuid)
        throw err
      }
      await this.receipts.written(uuid)
    }
  }

  /** The CLI's turn ended: the idle policy's clock starts. */
  private idleFrom(live: LiveSession): void {
    this.idle.idle(live, (reason) => {
      if (this.supervisor.get(live.id) !== live) return
      this.supervisor
        .stop(live, reason)
        .catch((err) => this.log.error({ err, session: live.id }, 'idle stop failed'))
    })
  }

  private async ask(live: LiveSession, request: CanUseTool, signal: AbortSignal): Promise<PermissionAnswer> {
    if (this.supervisor.get(live.id) !== live) return { behavior: 'deny', message: 'session is stopping' }
    return this.prompts.ask(live, request, signal)
  }

  private async heard(live: LiveSession, line: CliLine): Promise<void> {
    if (line.type === 'stream_event') return this.recorder.streamed(live, line)
    await this.receipts.heard(line, subscriberOf(live.id))
    const turnEnded = await this.recorder.record(live.id, line, live)
    if (turnEnded && this.supervisor.get(live.id) === live) this.idleFrom(live)
    // Not awaited: at the budget's limit the meter stops this CLI, whose lines this handler reads.
    if (turnEnded)
      void this.meter
        .turnEnded(live.id, line)
        .catch((err) => this.log.error({ err, session: live.id }, 'a turn’s usage was not counted'))
  }

  /** No session of a project over its day's budget starts or takes a message (usage-meter.ts). */
  private async refuseOverBudget(project: string | null): Promise<void> {
    const over = await overBudget(this.store, project)
    if (over) throw conflict(`${overBudgetLine(over)}; raise it with switchboard budget set`)
  }

  private async exited(live: LiveSession, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const { id } = live
    this.idle.busy(live)
    // A CLI that died mid-message leaves no line to replace its text: pages drop it.
    this.recorder.dropPartial(live)
    this.handoff.forget(id)
    await this.prompts.withdrawAll(live)
    const session = await this.store.getSession(id)
    const outcome = exitOutcome({
      code,
      signal,
      stopping: live.stopping,
      status: session?.status,
      lastWords: live.lastWords(),
    })
    this.log.info({ session: id, code, signal, status: outcome.status }, 'CLI exited')
    await this.recorder.setStatus(id, outcome.status, { reason: outcome.reason })
    await this.receipts
      .ended(subscriberOf(id), outcome.reason ?? 'it completed')
      .catch((err) => this.log.error({ err, session: id }, 'the receipts of an ended CLI not recorded'))
  }
}

/** Waits for `promise`, but no longer than `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}
