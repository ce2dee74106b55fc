// Sessions at terminals, reached through Claude Code's hooks (POST /api/claude-hooks/:event): a
// permission dialog, a question or a plan becomes a decision every operator may answer while the hook
// waits; "waiting for you" and "finished" become notices unless the person is at that terminal (only
// what they typed or answered there says so: a turn a channel's message started is someone else's,
// and its end is told whoever is there, saying who started it); each session is registered, and
// takes the events waiting for it with the prompt or after a tool call.
// Whatever goes wrong, or takes too long, the answer is `{}`: the dialog stays the terminal's, and a
// hook never allows on its own. Gemini CLI's BeforeTool (core/gemini-hooks.ts) is the same dialog in
// another agent's words: answered `allow` or `deny`, and `ask` where Claude Code's would get `{}`.
import { basename } from 'node:path'
import { channelMessage } from '../../claude/channel-tag.js'
import type { Agent } from '../../core/agents.js'
import {
  contextOutput,
  type HookInput,
  type HookOutput,
  NOTHING,
  PLAN_TOOL,
  permissionDeniedSchema,
  permissionOutput,
  preToolAllow,
  QUESTION_TOOL,
  RETRY_OUTPUT,
} from '../../core/claude-hooks.js'
import { GEMINI_ASK, GEMINI_HOOK_EVENT, geminiOutput } from '../../core/gemini-hooks.js'
import type { Logger } from '../../core/log.js'
import { type RespondInput, respondSchema } from '../../core/session-api.js'
import { promptTitle } from '../../core/session-name.js'
import type { Decision } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import { canonicalJson } from '../people/rules.js'
import type { HookDeliveries } from './hook-deliveries.js'
import { RetryGrants } from './retry-grants.js'
import { type StartedBy, startedBy, starterText } from './turn-starter.js'

/** The settings that time the hooks (core/settings/table.ts), read at each hook. */
export interface HookTimes {
  hookWaitSeconds: number
  presenceSeconds: number
  escalateSeconds: number
}

/** One hook call as it reached the hub. */
export interface HookCall {
  /** Aborted when Claude Code stops waiting: the dialog was answered at the terminal, or the session ended. */
  signal: AbortSignal
  /** The hook's own timeout as installed, in seconds (the hub answers before it); null: not said. */
  timeoutSeconds: number | null
  /**
   * The subscriber name the session's environment asks for (SWITCHBOARD_CHANNEL_NAME), taken only
   * when the session is first heard of and no other session holds it (hub/names/session-names.ts).
   */
  name: string | null
  /**
   * Whose hook this is: Claude Code's, another agent's that speaks the same PermissionRequest
   * (Codex's), or Gemini CLI's BeforeTool. Said in the decision it opens, so every surface names the
   * agent; unset: Claude Code.
   */
  agent?: Agent
}

/** How a dialog's end goes back to the hook that asked: a person's answer, or none (the terminal's). */
interface Answers {
  given(answer: RespondInput): HookOutput
  none: HookOutput
}

/** Gemini CLI's words for it: `allow`/`deny`, and `ask` for its own dialog. */
const GEMINI_ANSWERS: Answers = { given: geminiOutput, none: GEMINI_ASK }

/** The hub answers this long before the hook's own timeout, so Claude Code never times it out. */
export const HOOK_MARGIN_MS = 5_000
export const ANSWERED_AT_TERMINAL = 'answered at the terminal'
/** How long after its decision's timeout a hook still waits for it, within HOOK_MARGIN_MS of its own end. */
const END_GUARD_MS = 2_000
const NOT_IN_TIME = 'not answered in time; the dialog stays at the terminal'
const DENIAL_NOT_IN_TIME = 'not answered in time; the call stays denied'
const SESSION_ENDED = 'its session ended'
/** A session heard from this recently is not written again for each hook (PostToolUse comes often). */
const SEEN_WRITE_MS = 30_000
/** The longest last message a notice carries. */
const NOTICE_TEXT = 1_500
/** The most of a plan a decision's request holds (all of it goes back to Claude Code when approved). */
export const PLAN_TEXT = 20_000

/**
 * How a wait ended: answered, or closed for a reason (`via`: what said so, for the log; `terminal`:
 * the person answered there).
 */
type Ending = { answered: Decision } | { closed: string; via: string; terminal: boolean }

interface Waiting {
  tool: string
  input: Record<string, unknown>
  close(reason: string, terminal: boolean): void
}

export class TerminalHooks {
  /** When the person last typed or answered at each session's terminal. */
  private readonly lastActive = new Map<string, number>()
  /** A "waiting for you" held back while the person was there, told if they do not come back in time. */
  private readonly escalations = new Map<string, NodeJS.Timeout>()
  /** A turn's end was told and nobody has been active since: the idle reminder after it is not. */
  private readonly finishedTold = new Set<string>()
  /** The dialogs each session's hooks wait on here, by decision id. */
  private readonly waiting = new Map<string, Map<string, Waiting>>()
  private readonly written = new Map<string, number>()
  /** Sessions whose title (from their first prompt) is recorded. */
  private readonly titled = new Set<string>()
  /** Each session's latest turn: its prompt_id, and who started it. */
  private readonly turns = new Map<string, { promptId: string | null; by: StartedBy }>()
  /** Calls auto mode denied that operators allowed a retry of: each lets its retry through once. */
  private readonly retries = new RetryGrants()

  constructor(
    private readonly hub: Hub,
    private readonly log: Logger,
    private readonly times: () => HookTimes,
    private readonly deliveries: HookDeliveries,
  ) {}

  async handle(event: string, input: HookInput, call: HookCall): Promise<HookOutput> {
    // A session the hub drives asks through the control protocol; its hooks would ask twice.
    if (await this.hub.store.getSession(input.session_id))
      return call.agent === 'gemini' ? GEMINI_ASK : NOTHING
    // The hook acts for its own session only: the name bound to it, whatever a later hook asks for.
    const name = await this.hub.names.ofHookSession(input.session_id, input.cwd, call.name)
    const by =
      event === 'UserPromptSubmit' && typeof input.prompt === 'string'
        ? await startedBy(input.prompt, this.hub.store)
        : null
    await this.saw(event, input, name, by)
    switch (event) {
      case 'PermissionRequest':
        return this.dialog(input, call, name, claudeAnswers(input))
      case GEMINI_HOOK_EVENT:
        return call.agent === 'gemini' ? this.dialog(input, call, name, GEMINI_ANSWERS) : NOTHING
      case 'PermissionDenied':
        return this.denied(input, call, name)
      case 'PreToolUse':
        return this.retried(input)
      case 'Notification':
        await this.waitingNotice(input)
        return NOTHING
      case 'Stop':
        this.hub.activity.tell({
          kind: 'turn-end',
          session: name,
          costUsd: null,
          durationMs: null,
          failed: false,
        })
        this.settleAll(input.session_id, ANSWERED_AT_TERMINAL, true)
        this.wentOn(input.session_id)
        await this.finishedNotice(input)
        return NOTHING
      case 'SessionEnd':
        await this.ended(input, name)
        return NOTHING
      case 'UserPromptSubmit': {
        const starter = by ?? { kind: 'person' }
        this.turns.set(input.session_id, { promptId: input.prompt_id ?? null, by: starter })
        // Only what the person typed says they are there: a channel's message started this turn.
        const typed = starter.kind === 'person' && (input.source === undefined || input.source === 'user')
        if (typed) this.active(input.session_id)
        else this.wentOn(input.session_id)
        this.settleAll(input.session_id, ANSWERED_AT_TERMINAL, typed)
        return this.context(event, name, input, call)
      }
      case 'PostToolUse':
        if (typeof input.tool_name === 'string')
          this.hub.activity.tell({
            kind: 'tool',
            session: name,
            tool: input.tool_name,
            input: input.tool_input ?? null,
          })
        this.settleCall(input)
        // A subagent's tool may run while the session's own dialog still waits.
        if (input.agent_id === undefined) this.wentOn(input.session_id)
        return this.context(event, name, input, call)
      default:
        return NOTHING
    }
  }

  /** The person is at this terminal now. */
  private active(session: string): void {
    this.lastActive.set(session, Date.now())
    this.finishedTold.delete(session)
    this.wentOn(session)
  }

  /** The session is not waiting any more (a tool ran, the turn ended): a wait held back is not told later. */
  private wentOn(session: string): void {
    const timer = this.escalations.get(session)
    if (timer) clearTimeout(timer)
    this.escalations.delete(session)
  }

  private present(session: string): boolean {
    const at = this.lastActive.get(session)
    return at !== undefined && Date.now() - at < this.times().presenceSeconds * 1000
  }

  /**
   * Registers the session (SessionStart: with what it runs; the first prompt its person typed: with
   * the title every surface names it by, never a channel's text), and refreshes it now and then.
   */
  private async saw(event: string, input: HookInput, name: string, by: StartedBy | null): Promise<void> {
    if (event === 'SessionEnd') return
    const now = Date.now()
    const starting = event === 'SessionStart'
    const prompt =
      typeof input.prompt === 'string' && by?.kind === 'person' && !this.titled.has(input.session_id)
        ? input.prompt
        : null
    const title = prompt === null ? null : promptTitle(prompt)
    if (!starting && title === null && now - (this.written.get(input.session_id) ?? 0) < SEEN_WRITE_MS) return
    this.written.set(input.session_id, now)
    if (title !== null) this.titled.add(input.session_id)
    const project = await this.hub.projects.of(input.cwd)
    const { repository } = project
    await this.hub.store.sawTerminalSession(
      {
        sessionId: input.session_id,
        folder: input.cwd,
        name,
        branch: project.branch,
        repository: repository ? `${repository.owner}/${repository.name}` : null,
        title,
        model: input.model ?? null,
        channel: this.hub.isConnected(name),
      },
      now,
    )
    // What waits for the session (about its project, or for it) reaches it with its next prompt or
    // tool call (the hook rung). A channel of the same session registered what it takes itself.
    if (starting && !this.hub.isConnected(name)) {
      const { topics, ...scoped } = await this.hub.projects.interest(input.cwd)
      await this.hub.store.registerSubscriber(name, topics, scoped)
    }
  }

  private async ended(input: HookInput, name: string): Promise<void> {
    const session = input.session_id
    this.settleAll(session, SESSION_ENDED, false)
    this.wentOn(session)
    this.lastActive.delete(session)
    this.finishedTold.delete(session)
    this.written.delete(session)
    this.titled.delete(session)
    this.turns.delete(session)
    this.retries.forget(session)
    await this.hub.store.endTerminalSession(session, input.reason ?? 'ended', Date.now())
    this.hub.names.forget(session)
    this.hub.sessionEnded(name, input.reason ?? null)
  }

  /** The events waiting for the session, as text the model is given; none: nothing to say. */
  private async context(event: string, name: string, input: HookInput, call: HookCall): Promise<HookOutput> {
    const events = await this.deliveries.take(name, input, call)
    if (!events.length) return NOTHING
    const text = [
      `Switchboard delivered ${events.length} event${events.length === 1 ? '' : 's'} while you worked.`,
      channelMessage(events),
    ].join('\n')
    return contextOutput(event, text)
  }

  /**
   * A dialog on screen: a permission, a question (AskUserQuestion) or a plan to approve
   * (ExitPlanMode). The person at the terminal and the operators race; the first answer wins.
   */
  private dialog(input: HookInput, call: HookCall, name: string, answers: Answers): Promise<HookOutput> {
    const tool = input.tool_name ?? ''
    const toolInput = input.tool_input ?? {}
    const kind = tool === QUESTION_TOOL ? 'question' : tool === PLAN_TOOL ? 'plan' : 'permission'
    return this.ask(kind, input, call, name, answers.given)
      .then((output) => output ?? answers.none)
      .catch((err) => {
        this.log.error({ err, session: input.session_id, tool, input: toolInput }, 'hook decision failed')
        return answers.none
      })
  }

  /**
   * A call Claude Code's auto mode denied (PermissionDenied): a `denied` decision while the hook
   * waits. "Allow a retry" tells the model it may retry and lets that very retry through once
   * (answered `allow` at its PreToolUse, before the classifier would judge it again); "Leave it
   * denied", no answer in time, or any doubt: `{}`, as without the hook.
   */
  private denied(input: HookInput, call: HookCall, name: string): Promise<HookOutput> {
    const parsed = permissionDeniedSchema.safeParse(input)
    if (!parsed.success) {
      this.log.warn(
        { session: input.session_id, why: parsed.error.message },
        'PermissionDenied hook unreadable',
      )
      return Promise.resolve(NOTHING)
    }
    const { tool_name: tool, tool_input: toolInput, reason } = parsed.data
    const session = input.session_id
    const retry = (answer: RespondInput, by: string): HookOutput => {
      if (answer.behavior !== 'allow') return NOTHING
      this.retries.grant(session, tool, toolInput, by)
      this.log.info({ session, tool, by }, 'retry of a denied call allowed')
      return RETRY_OUTPUT
    }
    return this.ask('denied', input, call, name, retry, { denied_reason: reason })
      .then((output) => output ?? NOTHING)
      .catch((err) => {
        this.log.error({ err, session, tool }, 'denied call decision failed')
        return NOTHING
      })
  }

  /** PreToolUse: a call operators allowed a retry of runs; every other call goes on as without the hook. */
  private retried(input: HookInput): HookOutput {
    if (typeof input.tool_name !== 'string' || !input.tool_input) return NOTHING
    const by = this.retries.take(input.session_id, input.tool_name, input.tool_input)
    if (by === null) return NOTHING
    this.log.info({ session: input.session_id, tool: input.tool_name, by }, 'allowed retry let through')
    return preToolAllow(`${by} allowed a retry after auto mode denied it (Switchboard)`)
  }

  /**
   * A decision operators answer while the hook waits, within the hook's deadline. `name`: the
   * session's subscriber name, when its channel may relay the same dialog (one decision, never two).
   * `extra`: more of the request operators are shown (a denied call's reason).
   */
  private async ask(
    kind: 'permission' | 'question' | 'plan' | 'denied',
    input: HookInput,
    call: HookCall,
    name: string | null,
    output: (answer: RespondInput, by: string) => HookOutput,
    extra: Record<string, unknown> = {},
  ): Promise<HookOutput | null> {
    const waitMs = deadline(this.times().hookWaitSeconds, call.timeoutSeconds)
    if (waitMs <= 0 || call.signal.aborted) return null
    const session = input.session_id
    const tool = input.tool_name ?? ''
    const toolInput = input.tool_input ?? {}
    const decisions = this.hub.decisions
    let settle: (ending: Ending) => void = () => {}
    const ended = new Promise<Ending>((resolve) => {
      settle = resolve
    })
    const onAnswer = (d: Decision) => settle({ answered: d })
    // The session's channel relayed this very dialog already: its prompt stands for both. (A denied
    // call has no dialog to relay.)
    const twin = kind === 'denied' ? null : await decisions.channelTwin(session, tool, toolInput)
    let decision: Decision
    if (twin) {
      decision = twin
      decisions.watch(twin.id, onAnswer)
      // Answered between the look and the watch: the watch came too late to hear it.
      const now = await this.hub.store.getDecision(twin.id)
      if (now?.status === 'answered') onAnswer(now)
      else if (now?.status !== 'open')
        settle({ closed: ANSWERED_AT_TERMINAL, via: 'the channel’s prompt closed', terminal: true })
      this.log.info({ session, decision: twin.code }, 'hook waits on its channel’s prompt')
    } else {
      decision = await decisions.openAwaited(
        {
          kind,
          owner: session,
          request: {
            tool_name: tool,
            input: shownInput(tool, toolInput),
            cwd: input.cwd,
            project: basename(input.cwd),
            claude_session: session,
            source: 'hook',
            ...extra,
            ...(call.agent && call.agent !== 'claude' ? { agent: call.agent } : {}),
            ...(name ? { name } : {}),
          },
          folder: input.cwd,
          boundMs: waitMs,
        },
        onAnswer,
      )
    }
    const waits = this.waiting.get(session) ?? new Map<string, Waiting>()
    this.waiting.set(session, waits)
    waits.set(decision.id, {
      tool,
      input: toolInput,
      close: (reason, terminal) => settle({ closed: reason, via: 'the session’s next hook', terminal }),
    })
    // A decision opened here ends by its own timeout (hub/people/decisions.ts, at most waitMs): this
    // timer only stands guard a moment after it. One waited on as a channel's twin ends here.
    const ends = twin ? null : decision.expiresAt
    const timer = setTimeout(
      () =>
        settle({
          closed: kind === 'denied' ? DENIAL_NOT_IN_TIME : NOT_IN_TIME,
          via: 'the deadline',
          terminal: false,
        }),
      ends === null ? waitMs : ends - Date.now() + END_GUARD_MS,
    )
    const aborted = () =>
      settle({ closed: ANSWERED_AT_TERMINAL, via: 'Claude Code closed the request', terminal: true })
    call.signal.addEventListener('abort', aborted)
    // Closed while the decision was being opened: the listener came too late to hear it.
    if (call.signal.aborted) aborted()
    const ending = await ended
    clearTimeout(timer)
    call.signal.removeEventListener('abort', aborted)
    waits.delete(decision.id)
    if (!waits.size) this.waiting.delete(session)
    if ('answered' in ending) {
      const answer = respondSchema.safeParse(ending.answered.answer ?? {})
      return answer.success ? output(answer.data, ending.answered.answeredBy ?? 'an operator') : null
    }
    if (ending.terminal) this.active(session)
    if (twin) decisions.unwatch(twin.id, onAnswer)
    else await decisions.cancelAwaited([decision.id], ending.closed)
    this.log.info(
      { session, tool, decision: decision.code, why: ending.closed, via: ending.via },
      'hook stopped waiting',
    )
    return null
  }

  /**
   * A tool ran (PostToolUse) that a dialog here waited on: it was answered at the terminal, whether or
   * not Claude Code told the waiting hook. A question's input comes back with the answers given there
   * (which the operators' copies then show); a plan's, with whatever the plan file held by then.
   */
  private settleCall(input: HookInput): void {
    const waits = this.waiting.get(input.session_id)
    if (!waits) return
    const ran = input.tool_input ?? {}
    for (const w of waits.values())
      if (w.tool === input.tool_name && sameDialog(w.tool, w.input, ran))
        w.close(answeredAtTerminal(w.tool, ran), true)
  }

  /** The session went on (a prompt, the turn's end, its end): no dialog of it is open any more. */
  private settleAll(session: string, reason: string, terminal: boolean): void {
    for (const w of this.waiting.get(session)?.values() ?? []) w.close(reason, terminal)
  }

  private async waitingNotice(input: HookInput): Promise<void> {
    const session = input.session_id
    // Operators have its prompt already; and after a turn's end was told, the idle reminder is not news.
    if (this.waiting.get(session)?.size) return
    if (input.notification_type === 'idle_prompt' && this.finishedTold.has(session)) return
    const by = this.starterOf(input)
    const who = by && input.notification_type !== 'idle_prompt' ? starterText(by) : null
    const text = `Claude is waiting for you${who ? ` in the turn ${who} started` : ''}`
    if (!this.present(session)) return this.notice(input, 'waiting', text, input.message, by)
    const seconds = this.times().escalateSeconds
    // Said in the log, so an operator who got no ping can see why.
    this.log.info({ session, escalateSeconds: seconds }, 'wait not told: its person is at the terminal')
    if (seconds <= 0 || this.escalations.has(session)) return
    // The person was there a moment ago: they are told only if the session still waits on them later.
    const timer = setTimeout(() => {
      this.escalations.delete(session)
      this.notice(input, 'waiting', text, input.message, by).catch((err) =>
        this.log.error({ err, session }, 'escalation not sent'),
      )
    }, seconds * 1000)
    timer.unref()
    this.escalations.set(session, timer)
  }

  /**
   * A turn's end: told unless its person is at the terminal and started it. One a channel's message
   * started is told whoever is there: they did not ask for it, whoever did is elsewhere.
   */
  private async finishedNotice(input: HookInput): Promise<void> {
    const by = this.starterOf(input)
    const who = by && starterText(by)
    if (!who && this.present(input.session_id)) {
      this.log.info({ session: input.session_id }, 'turn end not told: its person is at the terminal')
      return
    }
    this.finishedTold.add(input.session_id)
    const text = who ? `Claude finished the turn ${who} started` : 'Claude finished its turn'
    await this.notice(input, 'finished', text, input.last_assistant_message, by)
  }

  /** Who started the turn a hook is of; null when the hub did not see it start (it restarted meanwhile). */
  private starterOf(input: HookInput): StartedBy | null {
    const turn = this.turns.get(input.session_id)
    if (!turn) return null
    const id = input.prompt_id ?? null
    return id === null || turn.promptId === null || id === turn.promptId ? turn.by : null
  }

  /** A notice about the session, headed by its name: "api · fix the flaky test: Claude finished its turn". */
  private async notice(
    input: HookInput,
    kind: 'waiting' | 'finished',
    what: string,
    message: string | undefined,
    by: StartedBy | null,
  ): Promise<void> {
    const said = message?.trim()
    const cut = said && said.length > NOTICE_TEXT ? `${said.slice(0, NOTICE_TEXT - 1)}…` : said
    const session = await this.hub.directory.describe(input.session_id)
    const headline = `${session.name}: ${what}`
    await this.hub.decisions.toOperators({
      kind: 'notice',
      body: {
        id: `${kind}:${input.session_id}`,
        kind,
        session: session.key,
        session_name: session.name,
        claude_session: input.session_id,
        project: basename(input.cwd),
        cwd: input.cwd,
        text: cut ? `${headline}\n\n${cut}` : headline,
        ...(said ? { message: said } : {}),
        ...(by ? { started_by: by } : {}),
      },
    })
  }

  /** The hub stops: nothing is told later. */
  close(): void {
    for (const timer of this.escalations.values()) clearTimeout(timer)
    this.escalations.clear()
    this.deliveries.close()
  }
}

/** Claude Code's words (Codex's too): its PermissionRequest output, and `{}` for its own dialog. */
function claudeAnswers(input: HookInput): Answers {
  const asks = { tool: input.tool_name ?? '', input: input.tool_input ?? {} }
  return { given: (answer) => permissionOutput(answer, asks), none: NOTHING }
}

/** How long the hub may wait: the configured time, ended before the hook's own timeout. */
export function deadline(configuredSeconds: number, hookTimeoutSeconds: number | null): number {
  const configured = configuredSeconds * 1000
  if (hookTimeoutSeconds === null) return configured
  return Math.max(0, Math.min(configured, hookTimeoutSeconds * 1000 - HOOK_MARGIN_MS))
}

/** What operators are shown of a dialog's input: a plan cut to a size a prompt can carry. */
function shownInput(tool: string, input: Record<string, unknown>): Record<string, unknown> {
  const plan = input.plan
  if (tool !== PLAN_TOOL || typeof plan !== 'string' || plan.length <= PLAN_TEXT) return input
  const cut = `${plan.slice(0, PLAN_TEXT)}\n\n… (${plan.length - PLAN_TEXT} more characters in ${String(input.planFilePath ?? 'the plan file')})`
  return { ...input, plan: cut }
}

/**
 * A tool that ran is the dialog a hook waits on: a question with the same questions (its input comes
 * back with the answers added), any plan of the session (one is asked at a time), else the same input.
 */
function sameDialog(tool: string, waited: Record<string, unknown>, ran: Record<string, unknown>): boolean {
  if (tool === PLAN_TOOL) return true
  if (tool === QUESTION_TOOL)
    return canonicalJson(waited.questions ?? null) === canonicalJson(ran.questions ?? null)
  return canonicalJson(waited) === canonicalJson(ran)
}

/** What operators' copies say of a dialog the person answered at the terminal: a question's answers too. */
function answeredAtTerminal(tool: string, ran: Record<string, unknown>): string {
  const answers = ran.answers
  if (tool !== QUESTION_TOOL || !answers || typeof answers !== 'object') return ANSWERED_AT_TERMINAL
  const said = Object.entries(answers as Record<string, unknown>)
    .map(([q, a]) => `${q} → ${Array.isArray(a) ? a.join(', ') : String(a)}`)
    .join('; ')
  return said ? `${ANSWERED_AT_TERMINAL} (${said})` : ANSWERED_AT_TERMINAL
}
