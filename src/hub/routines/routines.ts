// Routines (issue 25, docs/routines.md): what the surfaces call to add, pause, fire and test them,
// and the work each is for one hub at a time. The hub holding a routine's lease takes its events
// (a durable subscriber `routine:<name>`, fenced by that lease) into runs and moves its runs along
// (runner.ts): a tick on every change it makes or hears of, and one a second for due times.
import type * as z from 'zod'
import type { routineTestSchema, webhookRequestSchema } from '../../core/api/schemas.js'
import { cronMatches, lastMatchBetween, MINUTE, parseCron } from '../../core/cron.js'
import { conflict, forbidden, invalid, notFound } from '../../core/errors.js'
import { type NewEvent, type StoredEvent, topicMatches } from '../../core/event.js'
import { newId } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import {
  type AddedRoutine,
  type DryRun,
  eventDocument,
  failedCondition,
  joinableStates,
  OPEN_RUN_STATES,
  type RoutineRun,
  type RoutineSpec,
  type RoutineView,
  routineProblems,
  routineSpecSchema,
  routineSubscriber,
  runKey,
  startFolderText,
} from '../../core/routines.js'
import { isReservedSource } from '../../core/sources.js'
import { type PresetOutcome, webhookDryRun } from '../../sources/webhook/index.js'
import type { Lease, RoutineRecord } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import type { WorkSource } from '../core/lease-keeper.js'
import type { SessionManager } from '../sessions/session-manager.js'
import { ROUTINE_SOURCE, Runner, runPrompt } from './runner.js'

type RoutineTest = z.infer<typeof routineTestSchema>
type WebhookRequest = z.infer<typeof webhookRequestSchema>

const TICK_MS = 1_000
/** A pending run waits for its storm to settle, but no longer than this many windows after its first event. */
const MAX_WINDOWS = 10

export const routineLease = (name: string) => `routine:${name}`

/** A routine as stored, its spec read again through the schema (its defaults filled). */
function viewOf(record: RoutineRecord): RoutineView {
  return { ...record, spec: routineSpecSchema.parse(record.spec) }
}

export class Routines {
  private readonly runner: Runner
  /** The routines whose lease this hub holds, by name, with their timers. */
  private readonly held = new Map<string, { spec: RoutineSpec; timer: NodeJS.Timeout }>()
  /** One pass at a time per routine; a kick during one runs another after it. */
  private readonly ticking = new Map<string, Promise<void>>()
  private readonly again = new Set<string>()

  constructor(
    private readonly hub: Hub,
    sessions: SessionManager,
    private readonly log: Logger,
    {
      worktrees,
      overallCap,
      hasGitHubToken,
      now = Date.now,
    }: {
      /** Where runs' worktrees go (`<home>/worktrees`). */
      worktrees: string
      /** How many runs of all routines may be under way at once (the routineRuns setting). */
      overallCap: () => number
      /** Whether a GitHub token is set, for routines that comment there. */
      hasGitHubToken: () => boolean
      /** The clock schedules are read by (a test's own). */
      now?: () => number
    },
  ) {
    this.now = now
    this.hasGitHubToken = hasGitHubToken
    this.runner = new Runner(hub.store, hub, sessions, log, worktrees, overallCap)
  }
  private readonly now: () => number
  private readonly hasGitHubToken: () => boolean

  // --- what the surfaces call ------------------------------------------------------------------

  async add(input: unknown): Promise<AddedRoutine> {
    const problems = routineProblems(input)
    if (problems.length) throw invalid(problems.join('\n'))
    const spec = routineSpecSchema.parse(input)
    const record = await this.hub.store.addRoutine({ name: spec.name, spec })
    if (!record) throw conflict(`a routine named "${spec.name}" exists; remove it first`)
    if (spec.trigger.kind === 'events')
      await this.hub.store.registerSubscriber(routineSubscriber(spec.name), spec.trigger.topics, {
        peer: spec.trigger.peer ?? false,
      })
    await this.hub.leases.tickNow()
    return { ...viewOf(record), warnings: this.warningsFor(spec) }
  }

  /** What is added but will not work as written until a setting is given. */
  private warningsFor(spec: RoutineSpec): string[] {
    const warnings: string[] = []
    if (spec.action.kind === 'start' && spec.action.commentOnGitHub && !this.hasGitHubToken())
      warnings.push(
        'commentOnGitHub is set but the hub has no githubToken: each comment will be a dead letter ' +
          'until SWITCHBOARD_GITHUB_TOKEN or githubToken in config.json is set and the hub restarted',
      )
    return warnings
  }

  async list(): Promise<RoutineView[]> {
    return (await this.hub.store.listRoutines()).map(viewOf)
  }

  async get(name: string): Promise<RoutineView> {
    const record = await this.hub.store.getRoutine(name)
    if (!record) throw notFound(`no routine named "${name}"`)
    return viewOf(record)
  }

  /** A paused routine takes no events and starts no runs; its events wait in its queue. */
  async pause(name: string, paused: boolean): Promise<RoutineView> {
    if (!(await this.hub.store.pauseRoutine(name, paused))) throw notFound(`no routine named "${name}"`)
    await this.hub.leases.tickNow()
    return this.get(name)
  }

  async remove(name: string): Promise<void> {
    await this.get(name)
    await this.hub.forget(routineSubscriber(name))
    await this.hub.store.removeRoutine(name)
    await this.hub.leases.tickNow()
  }

  async runs(name: string | undefined, limit: number): Promise<RoutineRun[]> {
    if (name !== undefined) await this.get(name)
    return this.hub.store.routineRuns({ routine: name, limit })
  }

  /**
   * Operators fire and replay runs from any surface, the routine's gate and budget holding; one whose
   * sessions run tools without asking was the admin's to allow (--allow-pre-approval), and so is
   * starting it, with an event of the caller's choosing.
   */
  async mayStart(name: string, admin: boolean): Promise<void> {
    if (admin) return
    const { spec } = await this.get(name)
    if (spec.action.kind === 'start' && spec.action.allowPreApproval)
      throw forbidden(
        `routine ${name} starts sessions whose tools run without asking: only the admin token fires or replays it`,
      )
  }

  /** A person fires the routine, with an event of their own or an empty one: the filter is not asked. */
  async fire(name: string, given: Partial<StoredEvent> = {}, by = 'cli'): Promise<RoutineRun> {
    const { spec } = await this.get(name)
    const event = manualEvent(given, by)
    const { run } = await this.take(spec, event, 'manual')
    return run
  }

  /** An ended run (a failed one, say) again: a new run with its events, started as any other. */
  async replay(name: string, runId: string): Promise<RoutineRun> {
    await this.get(name)
    const run = await this.hub.store.getRoutineRun(runId)
    if (run?.routine !== name) throw notFound(`no run "${runId}" of routine ${name}`)
    if (OPEN_RUN_STATES.includes(run.state))
      throw conflict(`run ${runId} is ${run.state}; only a run that ended is replayed`)
    const replayed = await this.hub.store.replayRoutineRun(runId, newId('run'), Date.now())
    if (!replayed) throw conflict(`a run of key "${run.key}" is under way; replay once it ends`)
    this.kick(name)
    return replayed
  }

  /**
   * What an event would do now: whether it matches, its key, the run it joins, the prompt. A webhook
   * request is first made into events by its source's preset, as a delivery would be, and each is
   * also asked whether its topic is one the routine takes; the first the routine would take answers.
   */
  async test(name: string, given: RoutineTest): Promise<DryRun> {
    const { spec } = await this.get(name)
    if (given.event && given.webhook) throw invalid('give an event or a webhook request, not both')
    if (!given.webhook) return this.dryRun(spec, manualEvent(given.event ?? {}, 'test'), false)
    const made = await this.webhookEvents(given.webhook)
    if ('ignored' in made) return noRun(spec, made.ignored)
    const tried = await Promise.all(made.events.map((event) => this.dryRun(spec, storedNow(event), true)))
    return tried.find((t) => t.matched) ?? tried[0] ?? noRun(spec, 'the request made no event')
  }

  private async webhookEvents(request: WebhookRequest): Promise<PresetOutcome> {
    const source = isReservedSource(request.source) ? null : await this.hub.store.getSource(request.source)
    if (!source)
      throw notFound(`unknown source "${request.source}" (switchboard source list shows the sources)`)
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
    )
    return webhookDryRun(source, headers, Buffer.from(request.body))
  }

  /** `delivered`: the event would come as a delivery, so the routine's topics are asked too. */
  private async dryRun(spec: RoutineSpec, event: StoredEvent, delivered: boolean): Promise<DryRun> {
    const doc = eventDocument(event)
    const trigger = spec.trigger
    const why = !delivered
      ? null
      : trigger.kind !== 'events'
        ? `the routine takes no events (it runs ${trigger.kind === 'schedule' ? 'on its schedule' : 'when fired'})`
        : !topicMatches(trigger.topics, event.topic)
          ? `its topic ${event.topic} is not one the routine takes (${trigger.topics.join(', ')})`
          : null
    const failed = why ? null : failedCondition(spec.filter, doc)
    const matched = !why && !failed
    const key = runKey(spec, doc)
    const open = await this.hub.store.routineRuns({
      routine: spec.name,
      states: joinableStates(spec),
      limit: 1000,
    })
    const joins = matched ? (open.find((r) => r.key === key)?.id ?? null) : null
    const action = spec.action
    return {
      event: { topic: event.topic, source: event.source, content: event.content, meta: event.meta },
      matched,
      why: why ?? (failed ? `the condition ${JSON.stringify(failed)} does not hold` : null),
      key,
      joins,
      gate: spec.gate,
      prompt: !matched || action.kind !== 'start' ? null : runPrompt(action, [event]),
      deliverTo: action.kind === 'deliver' ? action.session : null,
      folder: action.kind !== 'start' ? null : startFolderText(action),
    }
  }

  // --- the work of one hub at a time --------------------------------------------------------------

  /** Each routine not paused is work under its own lease: its events taken, its runs moved along. */
  work(): WorkSource {
    return {
      wanted: async () =>
        new Map(
          (await this.hub.store.listRoutines())
            .filter((r) => !r.paused)
            .map((record) => {
              const { spec } = viewOf(record)
              return [
                routineLease(spec.name),
                {
                  start: (lease: Lease) => this.hold(spec, lease),
                  stop: async () => this.release(spec.name),
                },
              ] as const
            }),
        ),
    }
  }

  /**
   * The hub stops: no run moves any more here (the sessions it stops next would read as runs
   * stopped); the leases, freed after, let another hub go on with them.
   */
  halt(): void {
    for (const name of [...this.held.keys()]) this.release(name)
  }

  private async hold(spec: RoutineSpec, lease: Lease): Promise<void> {
    const timer = setInterval(() => {
      if (spec.trigger.kind === 'schedule')
        this.scheduleTick(spec).catch((err) =>
          this.log.error({ err, routine: spec.name }, 'schedule tick failed'),
        )
      this.kick(spec.name)
    }, TICK_MS)
    timer.unref()
    this.held.set(spec.name, { spec, timer })
    if (spec.trigger.kind === 'events')
      await this.hub.attachConsumer(
        routineSubscriber(spec.name),
        async (event) => {
          // A run's end told as an event would start runs of a routine on `*` without end.
          if (event.source === ROUTINE_SOURCE) return
          // Offered before its commit (Hub.publish): taken once written, so the take's ack is the one.
          await this.hub.settled()
          if (!failedCondition(spec.filter, eventDocument(event))) await this.take(spec, event, 'event')
        },
        lease,
      )
    if (spec.trigger.kind === 'schedule') await this.catchUp(spec)
    this.kick(spec.name)
  }

  /**
   * The minute the schedule names now fires: once, since its event's id is the minute's, whichever
   * tick or hub takes it first.
   */
  async scheduleTick(spec: RoutineSpec): Promise<void> {
    if (spec.trigger.kind !== 'schedule') return
    const minute = Math.floor(this.now() / MINUTE) * MINUTE
    if (cronMatches(parseCron(spec.trigger.cron), minute, spec.trigger.timeZone))
      await this.fireScheduled(spec, minute)
  }

  /**
   * Taken by a hub (started, or the last holder died): a minute the schedule named since the
   * routine's last run, before this one, runs once with `missed: once`; with `skip` it is let go.
   */
  async catchUp(spec: RoutineSpec): Promise<void> {
    if (spec.trigger.kind !== 'schedule' || spec.trigger.missed !== 'once') return
    const [latest] = await this.hub.store.routineRuns({ routine: spec.name, limit: 1 })
    const record = await this.hub.store.getRoutine(spec.name)
    const since = Math.max(latest?.createdAt ?? 0, record?.createdAt ?? 0)
    const thisMinute = Math.floor(this.now() / MINUTE) * MINUTE
    const missed = lastMatchBetween(
      parseCron(spec.trigger.cron),
      spec.trigger.timeZone,
      since,
      thisMinute - 1,
    )
    if (missed !== null) await this.fireScheduled(spec, missed)
  }

  private async fireScheduled(spec: RoutineSpec, minute: number): Promise<void> {
    const at = new Date(minute).toISOString()
    await this.take(
      spec,
      {
        id: `sched_${spec.name}_${minute}`,
        seq: 0,
        topic: `routines.${spec.name}.schedule`,
        source: 'schedule',
        sender: null,
        chat_id: null,
        content: `scheduled for ${at}`,
        meta: { scheduled_at: at },
        created_at: minute,
      },
      'schedule',
    )
  }

  private release(name: string): void {
    const held = this.held.get(name)
    if (!held) return
    clearInterval(held.timer)
    this.held.delete(name)
    this.hub.detach(routineSubscriber(name))
  }

  private async take(spec: RoutineSpec, event: StoredEvent, trigger: RoutineRun['trigger']) {
    const now = this.now()
    const window = spec.debounceSeconds * 1000
    const taken = await this.hub.store.takeRoutineEvent({
      routine: spec.name,
      runId: newId('run'),
      key: runKey(spec, eventDocument(event)),
      event,
      trigger,
      joins: joinableStates(spec),
      now,
      dueAt: now + window,
      maxWaitMs: window * MAX_WINDOWS,
      delivery: event.seq > 0 ? { subscriber: routineSubscriber(spec.name), seq: event.seq } : undefined,
    })
    if (!taken.duplicate)
      this.log.info(
        { routine: spec.name, event: event.id, run: taken.run.id, joined: taken.joined },
        'routine took an event',
      )
    this.kick(spec.name)
    return taken
  }

  /** Moves the routine's runs along now, if this hub holds it. */
  kick(name: string): void {
    const held = this.held.get(name)
    if (!held) return
    if (this.ticking.has(name)) {
      this.again.add(name)
      return
    }
    const pass = this.runner
      .tick(held.spec)
      .catch((err) => this.log.error({ err, routine: name }, 'routine tick failed'))
      .finally(() => {
        this.ticking.delete(name)
        if (this.again.delete(name)) this.kick(name)
      })
    this.ticking.set(name, pass)
  }
}

/** An event a person gives (`routine fire`/`test --event`): their fields over an empty one. */
/** A dry run that tried no event: a webhook request that makes none (GitHub's ping). */
function noRun(spec: RoutineSpec, why: string): DryRun {
  return {
    event: null,
    matched: false,
    why,
    key: '',
    joins: null,
    gate: spec.gate,
    prompt: null,
    deliverTo: null,
    folder: null,
  }
}

/** An event a preset made, as the store would keep it (a dry run stores nothing). */
function storedNow(event: NewEvent): StoredEvent {
  return {
    id: newId('evt'),
    seq: 0,
    topic: event.topic,
    source: event.source,
    sender: event.sender,
    chat_id: event.chat_id,
    content: event.content,
    meta: event.meta,
    created_at: Date.now(),
  }
}

function manualEvent(given: Partial<StoredEvent>, by: string): StoredEvent {
  return {
    id: given.id ?? newId('evt'),
    seq: 0,
    topic: given.topic ?? 'routine.fire',
    source: given.source ?? 'manual',
    sender: given.sender ?? by,
    chat_id: given.chat_id ?? null,
    content: given.content ?? '',
    meta: given.meta ?? {},
    created_at: given.created_at ?? Date.now(),
  }
}
