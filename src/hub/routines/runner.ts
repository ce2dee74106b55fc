// A routine's runs, moved along by the hub that holds the routine's lease (routines.ts): a run
// past its debounce is gated or started within the caps; a gated one reads its decision; a
// starting one (a crash in between) starts its session only if it is not on record; a running one
// is sent the events that joined it, stopped over budget, and ended once its session is idle.
// Every move is a compare-and-set in the store, so a tick that races another changes nothing twice.
// Operators are told of each run's start and end (notices they choose: run-started, run-ended).
import { channelMessage } from '../../claude/channel-tag.js'
import { AGENT_LABELS } from '../../core/agents.js'
import { isDomainError } from '../../core/errors.js'
import { type StoredEvent, toMeta } from '../../core/event.js'
import type { Logger } from '../../core/log.js'
import { formatUsd, roundUsd } from '../../core/money.js'
import {
  branchName,
  eventDocument,
  githubThreadOf,
  type RoutineRun,
  type RoutineSpec,
  renderTemplate,
  runKey,
  type StartAction,
  sessionOptionsOf,
  UNDER_WAY_RUN_STATES,
} from '../../core/routines.js'
import type { Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import { projectName } from '../projects/projects.js'
import { endedWithItsHub, type SessionManager } from '../sessions/session-manager.js'
import { overBudget, overBudgetLine } from '../sessions/usage-meter.js'
import { addWorktree, removeWorktree, worktreePath, worktreeState } from './worktree.js'

/** The source of the events that tell a run's end: a routine never takes them (no loops). */
export const ROUTINE_SOURCE = 'routine'

const ENDED = new Set(['completed', 'stopped', 'error', 'interrupted'])

/** What a run's session is told when its CLI is started again after its hub went mid-run. */
const CARRY_ON =
  'The hub running this session restarted while you were working. Carry on with the task where you left off.'

/** The session a run starts: known before its CLI is spawned, so a crash cannot start it twice. */
export const sessionOfRun = (runId: string) => `ses_${runId.replace(/^run_/, '')}`

/** The most uncommitted paths a run's end notice lists (its text says how many there are). */
const UNCOMMITTED_LISTED = 50

/** A run's worktree as its end finds it; `uncommitted` null: git could not say. */
interface WorktreeAtEnd {
  path: string
  branch: string | null
  uncommitted: string[] | null
  /** Left where it is: its cleanup says so, or it holds what nothing else does. */
  kept: boolean
}

/** The prompt a run's session starts with: the routine's, then every event as untrusted data. */
export function runPrompt(action: StartAction, events: StoredEvent[]): string {
  const first = events[0]
  const head = first ? renderTemplate(action.prompt, eventDocument(first)) : action.prompt
  return events.length ? `${head}\n\n${channelMessage(events)}` : head
}

export class Runner {
  private admitting: Promise<void> = Promise.resolve()

  constructor(
    private readonly store: Store,
    private readonly hub: Hub,
    private readonly sessions: SessionManager,
    private readonly log: Logger,
    /** Where runs' worktrees go (`<home>/worktrees`). */
    private readonly worktrees: string,
    /** How many runs of all routines may be under way at once (the routineRuns setting). */
    private readonly overallCap: () => number,
  ) {}

  /** One pass over a routine's open runs. */
  async tick(spec: RoutineSpec): Promise<void> {
    const open = await this.store.routineRuns({
      routine: spec.name,
      states: ['pending', 'gated', 'starting', 'running'],
      limit: 1000,
    })
    // Oldest first: the storm that began first starts first.
    for (const run of open.reverse()) {
      try {
        await this.step(spec, run)
      } catch (err) {
        this.log.error(
          { err, routine: spec.name, run: run.id },
          'a routine run did not move; the next tick tries again',
        )
      }
    }
  }

  private async step(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    switch (run.state) {
      case 'pending': {
        if (run.dueAt > Date.now()) return
        const starting = await this.admit(() => this.takeSlot(spec, run))
        if (starting && spec.action.kind === 'start')
          await this.createSession(spec, spec.action, starting, sessionOfRun(run.id))
        return
      }
      case 'gated':
        return this.gateAnswered(spec, run)
      case 'starting':
        return this.resumeStart(spec, run)
      case 'running':
        return this.watch(spec, run)
    }
  }

  /**
   * Counting the slots and taking one are one step on this hub, whichever routine asks: two
   * routines' passes would otherwise both see the last slot free.
   */
  private admit<T>(step: () => Promise<T>): Promise<T> {
    const taken = this.admitting.then(step, step)
    this.admitting = taken.then(
      () => {},
      () => {},
    )
    return taken
  }

  /** A due run takes a free slot: it is gated, or delivered, or `starting` (returned: its session is next). */
  private async takeSlot(spec: RoutineSpec, run: RoutineRun): Promise<RoutineRun | null> {
    if (!(await this.slotFree(spec, run))) return null
    if (await this.endedOverBudget(spec, run, ['pending'])) return null
    if (spec.gate) {
      await this.ask(spec, run)
      return null
    }
    if (spec.action.kind === 'deliver') {
      await this.deliver(spec, run, ['pending'])
      return null
    }
    return this.claimStart(run, ['pending'])
  }

  /** To `starting`, with the session the run will create on record first: a crash cannot start it twice. */
  private claimStart(run: RoutineRun, from: RoutineRun['state'][]): Promise<RoutineRun | null> {
    return this.store.moveRoutineRun(run.id, from, 'starting', {
      sessionId: sessionOfRun(run.id),
      startedAt: Date.now(),
    })
  }

  private async slotFree(spec: RoutineSpec, run: RoutineRun): Promise<boolean> {
    const busy = await this.store.routineRuns({ states: UNDER_WAY_RUN_STATES, limit: 1000 })
    if (busy.length >= this.overallCap()) return false
    const mine = busy.filter((r) => r.routine === spec.name)
    // The next run of a key (a gated routine's, whose events came after the gate) waits for the one under way.
    if (mine.some((r) => r.key === run.key)) return false
    return mine.length < spec.concurrency
  }

  private async ask(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    const gated = await this.store.moveRoutineRun(run.id, ['pending'], 'gated')
    if (gated) await this.openGate(spec, gated)
  }

  /** The gate's question to operators; asked again for a run left gated without one (a crash between). */
  private async openGate(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    const events = (await this.store.runEvents(run.id)).map((e) => e.event)
    const action = spec.action
    const folder = action.kind === 'start' ? (action.folder ?? action.worktree?.repo) : undefined
    // The agent is named where it is not Claude Code, as every surface names it (core/agents.ts).
    const agent = action.kind === 'start' && action.agent !== 'claude' ? action.agent : null
    const what =
      action.kind === 'start'
        ? { folder, prompt: runPrompt(action, events), ...(agent ? { agent } : {}) }
        : { session: action.session, events: events.length }
    const session = agent ? `a ${AGENT_LABELS[agent]} session` : 'a session'
    const count = `${run.events} event${run.events === 1 ? '' : 's'}`
    const decision = await this.hub.decisions.openQuestion(`routine:${spec.name}`, {
      // Shown where the run's session will speak: its thread, from the gate on.
      session_key: `session:${sessionOfRun(run.id)}`,
      tool_name: 'StartRoutine',
      input: { routine: spec.name, run: run.id, key: run.key, ...what },
      description:
        action.kind === 'start'
          ? `routine ${spec.name} would start ${session} in ${folder} (run ${run.id}, ${count})`
          : `routine ${spec.name} would deliver ${count} to ${action.session}`,
    })
    await this.store.updateRoutineRun(run.id, { decisionId: decision.id })
    this.log.info({ routine: spec.name, run: run.id, decision: decision.code }, 'routine run gated')
  }

  private async gateAnswered(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    if (!run.decisionId) return this.openGate(spec, run)
    const decision = await this.store.getDecision(run.decisionId)
    if (!decision || decision.status === 'open') return
    const allowed = decision.status === 'answered' && decision.answer?.behavior === 'allow'
    if (allowed) return this.start(spec, run, ['gated'])
    const reason =
      decision.status === 'answered'
        ? `the gate was denied by ${decision.answeredBy ?? 'an operator'}`
        : `the gate was ${decision.status}`
    await this.end(spec, run, ['gated'], 'stopped', reason)
  }

  /** `from`: the state the run is in now; the move to starting records the session first. */
  private async start(spec: RoutineSpec, run: RoutineRun, from: RoutineRun['state'][]): Promise<void> {
    const action = spec.action
    if (action.kind === 'deliver') return this.deliver(spec, run, from)
    if (await this.endedOverBudget(spec, run, from)) return
    const starting = await this.claimStart(run, from)
    if (starting) await this.createSession(spec, action, starting, sessionOfRun(run.id))
  }

  /**
   * A run that would start a session of a project over its day's budget ends here, unstarted, and
   * every operator is told why (as of a run over its own budget). True when it ended.
   */
  private async endedOverBudget(
    spec: RoutineSpec,
    run: RoutineRun,
    from: RoutineRun['state'][],
  ): Promise<boolean> {
    if (spec.action.kind !== 'start') return false
    const over = await overBudget(this.store, await this.projectOf(spec.action))
    if (!over) return false
    await this.end(spec, run, from, 'stopped', `not started: ${overBudgetLine(over)}`, { everyone: true })
    return true
  }

  /** The project a routine's sessions count against: its folder's, or its worktrees' repository's. */
  private async projectOf(action: StartAction): Promise<string | null> {
    const folder = action.folder ?? action.worktree?.repo
    return folder ? projectName(await this.hub.projects.of(folder), folder) : null
  }

  /** A run left starting (the hub died in between): its session is started unless it is on record. */
  private async resumeStart(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    const action = spec.action
    if (action.kind !== 'start' || !run.sessionId) return
    if (await this.store.getSession(run.sessionId)) {
      const running = await this.store.moveRoutineRun(run.id, ['starting'], 'running')
      if (running) await this.noticeStarted(spec, running)
      return
    }
    await this.createSession(spec, action, run, run.sessionId)
  }

  private async createSession(
    spec: RoutineSpec,
    action: StartAction,
    run: RoutineRun,
    sessionId: string,
  ): Promise<void> {
    const events = await this.store.runEvents(run.id)
    try {
      const cwd = await this.folderOf(spec, action, run, events[0]?.event)
      await this.sessions.create(
        runPrompt(
          action,
          events.map((e) => e.event),
        ),
        { cwd, ...sessionOptionsOf(action) },
        { id: sessionId, agent: action.agent, routine: spec.name, project: await this.projectOf(action) },
      )
    } catch (err) {
      await this.end(
        spec,
        run,
        ['starting'],
        'failed',
        `the session did not start: ${(err as Error).message}`,
      )
      return
    }
    await this.store.markRunEventsSent(
      run.id,
      events.map((e) => e.n),
    )
    const running = await this.store.moveRoutineRun(run.id, ['starting'], 'running')
    this.log.info({ routine: spec.name, run: run.id, session: sessionId }, 'routine run started its session')
    if (running) await this.noticeStarted(spec, running)
  }

  /** The session's folder: the routine's, or the run's own worktree, added now if it is not there. */
  private async folderOf(
    spec: RoutineSpec,
    action: StartAction,
    run: RoutineRun,
    first: StoredEvent | undefined,
  ): Promise<string> {
    if (!action.worktree) return action.folder as string
    const template = action.worktree.branch
    const branch = branchName(
      template && first
        ? runKey({ key: template }, eventDocument(first))
        : `routine/${spec.name}/${run.id.replace(/^run_/, '')}`,
    )
    const path = worktreePath(this.worktrees, run.id)
    await addWorktree(action.worktree.repo, path, branch)
    return path
  }

  private async deliver(spec: RoutineSpec, run: RoutineRun, from: RoutineRun['state'][]): Promise<void> {
    if (spec.action.kind !== 'deliver') return
    const to = spec.action.session
    const running = await this.store.moveRoutineRun(run.id, from, 'running', {
      sessionId: to,
      startedAt: Date.now(),
    })
    if (!running) return
    const events = await this.store.runEvents(run.id)
    try {
      await this.sendTo(
        to,
        events.map((e) => e.event),
      )
    } catch (err) {
      await this.end(spec, run, ['running'], 'failed', `not delivered to ${to}: ${(err as Error).message}`)
      return
    }
    await this.store.markRunEventsSent(
      run.id,
      events.map((e) => e.n),
    )
    await this.end(spec, run, ['running'], 'done', `delivered to ${to}`)
  }

  /** A driven session is sent the events as a message; any other subscriber gets them as a direct message. */
  private async sendTo(to: string, events: StoredEvent[]): Promise<void> {
    if (await this.store.getSession(to)) {
      await this.sessions.send(to, channelMessage(events))
      return
    }
    for (const e of events)
      await this.hub.publish({
        topic: e.topic,
        source: e.source,
        sender: e.sender,
        chat_id: e.chat_id,
        target: to,
        content: e.content,
        meta: e.meta,
        idempotencyKey: `routine:${e.id}:${to}`,
      })
  }

  private async watch(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    if (spec.action.kind !== 'start' || !run.sessionId) return
    const session = await this.store.getSession(run.sessionId)
    if (!session) return this.end(spec, run, ['running'], 'failed', 'its session was removed')
    await this.store.updateRoutineRun(run.id, { costUsd: session.costUsd, turns: session.turns })
    const budget = spec.action.maxBudgetUsd
    if (budget !== undefined && session.costUsd > budget) {
      const reason = `over budget: ${formatUsd(session.costUsd)} of ${formatUsd(budget)} spent`
      await this.sessions.stop(session.id, `routine ${spec.name}: ${reason}`).catch(() => {})
      // Told to every operator, whatever notices they chose: it cost more than it was allowed.
      await this.end(spec, run, ['running'], 'stopped', reason, { everyone: true })
      return
    }
    if (session.status === 'idle') {
      const unsent = await this.store.runEvents(run.id, { unsent: true })
      if (unsent.length) {
        await this.sessions.send(session.id, channelMessage(unsent.map((e) => e.event)))
        await this.store.markRunEventsSent(
          run.id,
          unsent.map((e) => e.n),
        )
        return
      }
      await this.sessions.stop(session.id, `routine ${spec.name}: the run is done`).catch(() => {})
      return this.end(spec, run, ['running'], 'done', outcomeOf(session.lastResult))
    }
    // Its CLI went with a hub (stopped, or killed and found so by the next): the run is not over.
    if (endedWithItsHub(session)) {
      // Its CLI went before it began a Claude session, so there is none to resume: started anew.
      if (!session.claudeSessionId) {
        await this.sessions.prune([session.id])
        await this.store.moveRoutineRun(run.id, ['running'], 'starting')
        return
      }
      await this.sessions.send(session.id, CARRY_ON).catch(async (err) => {
        // Another hub of the database still holds the session (it is stopping): asked again next pass.
        if (isDomainError(err) && err.kind === 'conflict') return
        await this.end(
          spec,
          run,
          ['running'],
          'failed',
          `its session did not resume: ${(err as Error).message}`,
        )
      })
      return
    }
    if (ENDED.has(session.status))
      await this.end(
        spec,
        run,
        ['running'],
        session.status === 'error' ? 'failed' : 'stopped',
        session.reason ?? `its session is ${session.status}`,
      )
  }

  /**
   * A run's end, as an event on `routines.<name>` (what outbound webhooks and sessions subscribe
   * to; never taken by a routine, see routines.ts), and as a reply to the chat its first event came
   * from, if any.
   */
  private async tell(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    const text = `routine ${spec.name}: run ${run.id} ${run.state}${run.reason ? `: ${run.reason}` : ''}`
    const [first] = await this.store.runEvents(run.id)
    // Where github-comments.ts posts it: only for an event GitHub signed, which names the thread.
    const thread =
      spec.action.kind === 'start' && spec.action.commentOnGitHub && first
        ? await this.githubThread(run, first.event)
        : null
    await this.hub.publish({
      topic: `routines.${spec.name}`,
      source: ROUTINE_SOURCE,
      sender: null,
      chat_id: null,
      target: null,
      content: text,
      meta: toMeta({
        routine: spec.name,
        run: run.id,
        state: run.state,
        key: run.key,
        session: run.sessionId,
        cost_usd: roundUsd(run.costUsd),
        turns: run.turns,
        github_thread: thread,
      }),
      idempotencyKey: `${run.id}:${run.state}`,
    })
    const chat = first?.event.chat_id
    if (chat) {
      const said = await this.hub.reply(`routine:${spec.name}`, chat, text)
      if (!said.ok)
        this.log.warn({ run: run.id, chat, why: said.message }, 'the run’s end not told to its chat')
    }
  }

  /**
   * The GitHub thread of a run's first event: one a routine took from a source of the github preset
   * (the payload's signature checked), never one a person fired or replayed with meta of their choosing.
   */
  private async githubThread(run: RoutineRun, event: StoredEvent): Promise<string | null> {
    if (run.trigger !== 'event') return null
    const source = await this.store.getSource(event.source)
    return source?.preset === 'github' ? githubThreadOf(event) : null
  }

  private async end(
    spec: RoutineSpec,
    run: RoutineRun,
    from: RoutineRun['state'][],
    to: 'done' | 'failed' | 'stopped',
    reason: string | null,
    { everyone = false }: { everyone?: boolean } = {},
  ): Promise<void> {
    const ended = await this.store.moveRoutineRun(run.id, from, to, { reason, endedAt: Date.now() })
    if (!ended) return
    this.log.info({ routine: run.routine, run: run.id, state: to, reason }, 'routine run ended')
    const worktree = await this.worktreeAtEnd(spec, ended)
    // Told before the run closes its thread (a session stopped first may have closed it already).
    await this.noticeEnded(spec, ended, worktree, everyone).catch((err) =>
      this.log.warn({ err, run: run.id }, 'operators were not told of the run’s end'),
    )
    // Its thread (the gate's, then its session's) gets a last line and is closed.
    this.hub.sessionEnded(`session:${sessionOfRun(run.id)}`, reason ?? to)
    await this.tell(spec, ended).catch((err) =>
      this.log.warn({ err, run: run.id }, 'the run’s end was not told'),
    )
    if (!worktree || worktree.kept || spec.action.kind !== 'start' || !spec.action.worktree) return
    await removeWorktree(spec.action.worktree.repo, worktree.path).catch((err) =>
      this.log.warn({ err, run: run.id }, 'the run’s worktree was not removed'),
    )
  }

  /**
   * The run's worktree at its end, and whether it stays: its cleanup keeps it, or the session left
   * changes in it that it did not commit (removing it would lose them: the branch has only what was
   * committed), or git could not say. Null: the run has none (it never started its session).
   */
  private async worktreeAtEnd(spec: RoutineSpec, run: RoutineRun): Promise<WorktreeAtEnd | null> {
    const worktree = spec.action.kind === 'start' ? spec.action.worktree : undefined
    if (!worktree) return null
    const path = worktreePath(this.worktrees, run.id)
    const removable =
      worktree.cleanup === 'always' || (worktree.cleanup === 'on-success' && run.state === 'done')
    try {
      const state = await worktreeState(path)
      if (!state) return null
      return { path, ...state, kept: !removable || state.uncommitted.length > 0 }
    } catch (err) {
      this.log.warn(
        { err, run: run.id, path },
        'the run’s worktree is kept: git could not say what is uncommitted',
      )
      return { path, branch: null, uncommitted: null, kept: true }
    }
  }

  /**
   * Operators who chose it are told a run's session started: what they may follow, in its thread.
   * Nothing that fails here stops the run.
   */
  private async noticeStarted(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    await this.tellStarted(spec, run).catch((err) =>
      this.log.warn({ err, run: run.id }, 'operators were not told of the run’s start'),
    )
  }

  private async tellStarted(spec: RoutineSpec, run: RoutineRun): Promise<void> {
    const session = await this.hub.directory.describe(`session:${sessionOfRun(run.id)}`)
    await this.hub.decisions.toOperators({
      kind: 'notice',
      body: {
        ...runAbout(spec, run, session),
        id: `run-started:${run.id}`,
        kind: 'run-started',
        text: `${session.name}: ${runTitle(spec, run)} started`,
      },
    })
  }

  /** Operators who chose it are told a run's end: its state, cost, outcome, and a worktree it kept. */
  private async noticeEnded(
    spec: RoutineSpec,
    run: RoutineRun,
    worktree: WorktreeAtEnd | null,
    everyone: boolean,
  ): Promise<void> {
    const session = await this.hub.directory.describe(`session:${sessionOfRun(run.id)}`)
    const cost = run.turns > 0 || run.costUsd > 0 ? `, ${formatUsd(run.costUsd)}` : ''
    const head = `${session.name}: ${runTitle(spec, run)} ${run.state}${cost}`
    const kept = worktree?.kept ? worktreeLine(worktree) : null
    await this.hub.decisions.toOperators(
      {
        kind: 'notice',
        body: {
          ...runAbout(spec, run, session),
          id: `run-ended:${run.id}`,
          kind: 'run-ended',
          state: run.state,
          cost_usd: run.costUsd,
          turns: run.turns,
          outcome: run.reason,
          ...(worktree
            ? {
                worktree: {
                  path: worktree.path,
                  branch: worktree.branch,
                  kept: worktree.kept,
                  uncommitted: worktree.uncommitted?.slice(0, UNCOMMITTED_LISTED) ?? null,
                },
              }
            : {}),
          text: [head, run.reason, kept].filter(Boolean).join('\n\n'),
        },
      },
      { everyone },
    )
  }
}

/** What every notice of a run carries: the routine, the run, its key, and its session by key and name. */
function runAbout(spec: RoutineSpec, run: RoutineRun, session: { key: string; name: string }) {
  return { routine: spec.name, run: run.id, key: run.key, session: session.key, session_name: session.name }
}

/** "run run_… of routine alerts (g1)": a run as a notice names it. */
function runTitle(spec: RoutineSpec, run: RoutineRun): string {
  return `run ${run.id} of routine ${spec.name}${run.key ? ` (${run.key})` : ''}`
}

/** Where a kept worktree is, and why it is kept, as the end notice says it. */
function worktreeLine(w: WorktreeAtEnd): string {
  const where = `${w.path}${w.branch ? `, on branch ${w.branch}` : ''}`
  if (w.uncommitted === null)
    return `The worktree is kept, as git could not say what in it is uncommitted: ${where}`
  const n = w.uncommitted.length
  if (n) return `The worktree has uncommitted changes (${n} file${n === 1 ? '' : 's'}) and is kept: ${where}`
  return `The worktree is kept: ${where}`
}

/**
 * A run's outcome: the session's last answer, at most 500 characters, cut between words, so no
 * token is left half there for a redactor to miss (a comment on GitHub is public).
 */
function outcomeOf(answer: string | null): string | null {
  if (answer === null || answer.length <= 500) return answer
  return `${answer.slice(0, 500).replace(/\S*$/, '').trimEnd()} …`
}
