// Decisions people answer: a channel's permission prompt, a driven session's tool call, question or
// plan review. Each is stored, put to every operator, and settled by the first answer, wherever it
// comes from; the answer then goes to whoever waits for it.
import { randomBytes } from 'node:crypto'
import { namedWithAgent } from '../../core/agents.js'
import {
  outcomeOf,
  spanText,
  TIMEOUT_ANSWERER,
  type TimeoutOutcome,
  timedOutText,
  timeoutDenial,
  timeoutLine,
} from '../../core/decision-timeout.js'
import { conflict, forbidden, notFound } from '../../core/errors.js'
import type { Behavior, PermissionRequest, ServerMessage } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import {
  kindsOfChoice,
  NOTICE_KINDS,
  type NoticeKind,
  rememberedChoice,
  rememberedNoticeChoiceSchema,
} from '../../core/notices.js'
import {
  type MessageOf,
  type NoticeBody,
  type OutboxMessage,
  PROMPT_KINDS,
  type PromptBody,
  type PromptKind,
} from '../../core/outbox.js'
import { ruleText } from '../../core/rule-match.js'
import { previewedInput, promptText, toolCallText } from '../../core/tool-call-text.js'
import type { Decision, Sender, Store } from '../../store/store.js'
import type { SessionDirectory } from '../names/session-directory.js'
import { canonicalJson, inputOf, Rules } from './rules.js'
import type { SenderOutbox } from './sender-outbox.js'

/** A connected channel, as far as relaying a verdict to it goes. */
export interface VerdictSink {
  send(message: ServerMessage): void
}

/** A decision's timeout as the settings say it (core/settings/table.ts), read when a decision opens. */
export interface DecisionTimes {
  /** decisionTimeout in seconds; null: off. */
  timeoutSeconds: number | null
  outcome: TimeoutOutcome
  /** decisionWarning in seconds; null: off. */
  warningSeconds: number | null
}

const NO_TIMEOUT: DecisionTimes = { timeoutSeconds: null, outcome: 'terminal', warningSeconds: null }

/**
 * When an awaited decision ends unanswered, and what happens then. `boundMs`: the longest its asker
 * can wait (a terminal's hook); past it the dialog is the terminal's whatever the outcome. A driven
 * session has no bound and no terminal: it is denied at its timeout, or waits on.
 */
export function endOf(
  times: DecisionTimes,
  boundMs: number | null,
  now: number,
): { at: number; outcome: TimeoutOutcome } | null {
  const own = times.timeoutSeconds === null ? null : times.timeoutSeconds * 1000
  if (boundMs === null)
    return own !== null && times.outcome === 'deny' ? { at: now + own, outcome: 'deny' } : null
  return own !== null && own <= boundMs
    ? { at: now + own, outcome: times.outcome }
    : { at: now + boundMs, outcome: 'terminal' }
}

export class Decisions {
  /** In-process waiters (driven sessions), by decision id. */
  private readonly resolvers = new Map<string, (d: Decision) => void>()
  /** The warning and the end of each decision with a timeout opened here, by decision id. */
  private readonly clocks = new Map<string, NodeJS.Timeout[]>()
  /** Others told of an answer besides its waiter (a terminal's hook waiting on its channel's prompt). */
  private readonly watchers = new Map<string, Set<(d: Decision) => void>>()
  readonly rules: Rules

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly outbox: SenderOutbox,
    private readonly connections: ReadonlyMap<string, VerdictSink>,
    private readonly directory: Pick<SessionDirectory, 'describe'>,
    private readonly times: () => DecisionTimes = () => NO_TIMEOUT,
  ) {
    this.rules = new Rules(store)
  }

  /**
   * A request with the session it is about, as every surface shows it: its key (the subscriber its
   * thread is kept under) and its name. A request may name its session (a routine's gate names the
   * session its run will start).
   */
  private async named<R extends Record<string, unknown>>(ref: string, request: R): Promise<R> {
    const session = await this.directory.describe(
      typeof request.session_key === 'string' ? request.session_key : ref,
    )
    return { ...request, session_key: session.key, session_name: session.name }
  }

  /** A rule answers this call (allows or denies it): the decision is answered before anyone is asked. */
  private async answeredByRule(decision: Decision, folder: string | null): Promise<boolean> {
    if (decision.kind !== 'permission' || typeof decision.request.tool_name !== 'string') return false
    const rule = await this.rules.answering(decision.request.tool_name, inputOf(decision.request), {
      session: decision.owner,
      folder,
      startedBy: (await this.store.getSession(decision.owner))?.startedBy ?? null,
    })
    if (!rule) return false
    await this.store.countRuleUse(rule.id)
    const by = `rule ${rule.id} (made by ${rule.createdBy})`
    await this.answer(
      decision,
      rule.effect === 'deny'
        ? {
            behavior: 'deny',
            message: `Denied by rule ${rule.id} (${ruleText(rule)}, made by ${rule.createdBy})`,
          }
        : { behavior: 'allow' },
      by,
    )
    return true
  }

  /**
   * A channel relays Claude Code's permission prompt: it becomes a decision operators see.
   * `claudeSession`: the Claude Code session the channel serves, when it said.
   */
  async requestPermission(
    subscriber: string,
    request: PermissionRequest,
    claudeSession?: string,
  ): Promise<Decision> {
    const again = (await this.store.openDecisionsByCode('permission', request.request_id, Date.now())).find(
      (d) => d.owner === subscriber,
    )
    if (again) return again // the channel re-sent it after a reconnect
    const hooked = claudeSession ? await this.hookTwin(claudeSession, request) : null
    const decision = await this.store.openDecision({
      kind: 'permission',
      code: request.request_id,
      owner: subscriber,
      request: await this.named(subscriber, {
        ...request,
        ...(claudeSession ? { claude_session: claudeSession } : {}),
        ...(hooked ? { twin: hooked.id } : {}),
      }),
      expiresAt: null,
    })
    if (hooked) {
      // The session's hook put this very dialog to operators already: its answer is this one's too.
      this.watch(hooked.id, (d) => {
        if (d.answer) this.answer(decision, d.answer, d.answeredBy ?? 'hook').catch(() => {})
      })
      return decision
    }
    if (await this.answeredByRule(decision, null)) return decision
    await this.toOperators(promptOf(decision, 'permission'))
    return decision
  }

  /** An operator's `yes <id>` / `no <id>`. A wrong id changes nothing and says so. */
  async answerPermission(sender: Sender, code: string, behavior: Behavior): Promise<Decision> {
    if (!sender.operator) throw forbidden('only operators may answer permission requests')
    const open = await this.store.openDecisionsByCode('permission', code, Date.now())
    const [decision] = open
    if (!decision) throw notFound(`no open permission request "${code}"; nothing was changed`)
    if (open.length > 1)
      throw conflict(`"${code}" is open in ${open.length} sessions at once; answer it in the terminal`)
    return this.answer(decision, { behavior }, sender.name)
  }

  /** The one open prompt (permission, question or plan) a code names, across sessions; null when none. */
  async openPromptByCode(code: string): Promise<Decision | null> {
    const now = Date.now()
    const open = (
      await Promise.all(PROMPT_KINDS.map((kind) => this.store.openDecisionsByCode(kind, code, now)))
    ).flat()
    if (open.length > 1) throw conflict(`"${code}" is open in ${open.length} sessions at once`)
    return open[0] ?? null
  }

  /**
   * Records the first answer to a decision and hands it to whoever waits for it: a driven session's
   * resolver, or the channel that relayed the prompt. Later answers get 409.
   */
  async answer(decision: Decision, answer: Record<string, unknown>, by: string): Promise<Decision> {
    const answered = await this.store.answerDecision(decision.id, answer, by)
    if (!answered) throw conflict(`"${decision.code}" was answered already`)
    this.stopClocks(answered.id)
    this.log.info({ decision: answered.id, code: answered.code, by }, 'decision answered')
    const resolve = this.resolvers.get(answered.id)
    if (resolve) {
      this.resolvers.delete(answered.id)
      resolve(answered)
    } else if (answered.kind === 'permission') {
      await this.relayVerdict(answered)
    }
    this.tellWatchers(answered)
    await this.toOperators({
      kind: 'decision',
      body: {
        id: answered.code,
        kind: answered.kind,
        owner: answered.owner,
        session: sessionOfDecision(answered).key,
        status: 'answered',
        answer,
        answered_by: by,
        ...(by === TIMEOUT_ANSWERER
          ? { reason: timedOutText(outcomeOf(answered.request) ?? 'deny', waitedOf(answered)) }
          : {}),
      },
    })
    return answered
  }

  /** A decision that someone in this process waits for (a driven session's tool call). */
  async openAwaited(
    input: {
      kind: PromptKind
      owner: string
      /** The call (and whatever else operators are shown of it: a terminal session's folder, say). */
      request: {
        tool_name: string
        input: Record<string, unknown>
        description?: string
        [more: string]: unknown
      }
      /** Where the session works: a rule for a folder applies there. */
      folder?: string | null
      /** The longest the asker can wait, in ms (a terminal's hook); none: as long as it takes. */
      boundMs?: number
    },
    onAnswer: (d: Decision) => void,
  ): Promise<Decision> {
    const code = await this.freeCode()
    const times = this.times()
    const end = endOf(times, input.boundMs ?? null, Date.now())
    const decision = await this.store.openDecision({
      kind: input.kind,
      code,
      owner: input.owner,
      request: await this.named(input.owner, {
        ...input.request,
        ...(end ? { on_timeout: end.outcome } : {}),
      }),
      expiresAt: end?.at ?? null,
    })
    this.resolvers.set(decision.id, onAnswer)
    if (await this.answeredByRule(decision, input.folder ?? null)) return decision
    if (end) this.startClocks(decision, end, times.warningSeconds)
    await this.toOperators(promptOf(decision, input.kind))
    return decision
  }

  /**
   * The warning before a decision's end, once, to the operators it was put to; and at the end, the
   * decision answered by the timeout.
   */
  private startClocks(
    decision: Decision,
    end: { at: number; outcome: TimeoutOutcome },
    warningSeconds: number | null,
  ): void {
    const clocks: NodeJS.Timeout[] = []
    const left = end.at - Date.now()
    const warnIn = warningSeconds === null ? -1 : left - warningSeconds * 1000
    if (warnIn > 0)
      clocks.push(
        setTimeout(() => {
          this.warn(decision, end).catch((err) =>
            this.log.error({ err, decision: decision.id }, 'warning not sent'),
          )
        }, warnIn),
      )
    clocks.push(
      setTimeout(() => {
        this.clocks.delete(decision.id)
        this.timedOut(decision, end.outcome).catch((err) =>
          this.log.error({ err, decision: decision.id }, 'decision timeout not answered'),
        )
      }, left),
    )
    for (const clock of clocks) clock.unref()
    if (clocks.length) this.clocks.set(decision.id, clocks)
  }

  private stopClocks(id: string): void {
    for (const clock of this.clocks.get(id) ?? []) clearTimeout(clock)
    this.clocks.delete(id)
  }

  /** Tells the operators a decision still open ends soon: its session, its tool, and what happens when. */
  private async warn(decision: Decision, end: { at: number; outcome: TimeoutOutcome }): Promise<void> {
    if ((await this.store.getDecision(decision.id))?.status !== 'open') return
    const { key, name } = sessionOfDecision(decision)
    const tool = typeof decision.request.tool_name === 'string' ? decision.request.tool_name : decision.kind
    const left = spanText(end.at - Date.now())
    await this.toOperators({
      kind: 'notice',
      body: {
        id: `expiring:${decision.code}`,
        session: key,
        session_name: name,
        text: `${namedWithAgent(name, decision.request.agent)}: ${tool} is still waiting for an answer. ${timeoutLine(end.at, end.outcome)} (in ${left}) — reply "yes ${decision.code}" or "no ${decision.code}"`,
      },
    })
    this.log.info({ decision: decision.id, code: decision.code, at: end.at }, 'decision timeout warned')
  }

  /**
   * Nobody answered in time: recorded as the timeout's answer. A deny's message tells the model why;
   * `terminal` is no verdict (`{on_timeout: "terminal"}`): the hook that waits gives the dialog back.
   */
  private async timedOut(decision: Decision, outcome: TimeoutOutcome): Promise<void> {
    const answer =
      outcome === 'deny'
        ? { behavior: 'deny', message: timeoutDenial(waitedOf(decision)) }
        : { on_timeout: 'terminal' }
    try {
      await this.answer(decision, answer, TIMEOUT_ANSWERER)
    } catch (err) {
      // Answered a moment before (here or on another hub): that answer stands.
      if ((err as { kind?: string }).kind !== 'conflict') throw err
    }
  }

  /**
   * A question for operators that nothing in this process waits for and no rule answers (a routine's
   * gate, hub/routines/): its asker reads the answer from the store.
   */
  async openQuestion(owner: string, request: Record<string, unknown>): Promise<Decision> {
    const decision = await this.store.openDecision({
      kind: 'permission',
      code: await this.freeCode(),
      owner,
      request: await this.named(owner, request),
      expiresAt: null,
    })
    await this.toOperators(promptOf(decision, 'permission'))
    return decision
  }

  /**
   * Another hub answered a decision: a waiter here gets the answer, and a permission whose channel
   * is connected here is relayed to it. `id` null: anything may have been answered (a missed notice).
   */
  async answeredElsewhere(id: string | null): Promise<void> {
    const ids = id === null ? [...new Set([...this.resolvers.keys(), ...this.watchers.keys()])] : [id]
    for (const decisionId of ids) {
      const decision = await this.store.getDecision(decisionId)
      if (decision?.status !== 'answered') continue
      this.stopClocks(decisionId)
      this.tellWatchers(decision)
      const resolve = this.resolvers.get(decisionId)
      if (resolve) {
        this.resolvers.delete(decisionId)
        resolve(decision)
      } else if (decision.kind === 'permission' && this.connections.has(decision.owner))
        await this.relayPendingVerdicts(decision.owner)
    }
    if (id === null) for (const name of this.connections.keys()) await this.relayPendingVerdicts(name)
  }

  /** `listener` hears of each prompt put to operators, once, on this hub (not one another hub put). */
  /** `tell` hears the decision's answer, besides whoever waits for it. */
  watch(id: string, tell: (d: Decision) => void): void {
    const set = this.watchers.get(id) ?? new Set()
    set.add(tell)
    this.watchers.set(id, set)
  }

  unwatch(id: string, tell: (d: Decision) => void): void {
    const set = this.watchers.get(id)
    set?.delete(tell)
    if (set && !set.size) this.watchers.delete(id)
  }

  private tellWatchers(decision: Decision): void {
    const set = this.watchers.get(decision.id)
    if (!set) return
    this.watchers.delete(decision.id)
    for (const tell of set) tell(decision)
  }

  /**
   * The open prompt a session's channel relayed for the same call a hook of that session now asks
   * about (a session running both): the hook waits on it rather than putting it to operators again.
   * Only within one Claude Code session: the same call in another session is another dialog, whatever
   * its folder or subscriber is called.
   */
  async channelTwin(
    claudeSession: string,
    tool: string,
    input: Record<string, unknown>,
  ): Promise<Decision | null> {
    const open = await this.store.listDecisions({ kind: 'permission', status: 'open' })
    return (
      open.find(
        (d) =>
          d.request.source !== 'hook' &&
          d.request.claude_session === claudeSession &&
          Date.now() - d.createdAt < TWIN_WINDOW_MS &&
          sameCall(d.request, tool, input),
      ) ?? null
    )
  }

  /** The other way round: the hook of the channel's session asked first. */
  private async hookTwin(claudeSession: string, request: PermissionRequest): Promise<Decision | null> {
    const open = await this.store.listDecisions({ kind: 'permission', status: 'open' })
    return (
      open.find(
        (d) =>
          d.request.source === 'hook' &&
          d.request.claude_session === claudeSession &&
          Date.now() - d.createdAt < TWIN_WINDOW_MS &&
          sameCall(request, String(d.request.tool_name), inputOf(d.request) ?? {}),
      ) ?? null
    )
  }

  /** Stops waiting for decisions whose asker went away; `reason`, what operators' copies then say. */
  async cancelAwaited(ids: string[], reason?: string): Promise<void> {
    for (const id of ids) {
      this.resolvers.delete(id)
      this.stopClocks(id)
    }
    if (!ids.length) return
    const open = (await Promise.all(ids.map((id) => this.store.getDecision(id)))).filter(
      (d): d is Decision => d?.status === 'open',
    )
    await this.store.cancelDecisions(ids)
    await this.announceCancelled(open, reason)
  }

  /** Operators' copies of a prompt nobody can answer any more say so (a chat edits its buttons away). */
  private async announceCancelled(decisions: Decision[], reason?: string): Promise<void> {
    for (const d of decisions)
      await this.toOperators({
        kind: 'decision',
        body: {
          id: d.code,
          kind: d.kind,
          owner: d.owner,
          session: sessionOfDecision(d).key,
          status: 'cancelled',
          ...(reason ? { reason } : {}),
        },
      })
  }

  private async freeCode(): Promise<string> {
    for (;;) {
      const code = permissionCode()
      const clash = (await this.store.openDecisionsByCode('permission', code, Date.now())).length
      if (!clash) return code
    }
  }

  /** Hands an answered permission to its channel now, or when it next connects. */
  async relayVerdict(decision: Decision): Promise<void> {
    const connection = this.connections.get(decision.owner)
    const behavior = decision.answer?.behavior as Behavior | undefined
    if (!connection || !behavior) return
    // Claimed first, sent after: another relay that read it unrelayed meanwhile finds it taken.
    if (!(await this.store.markRelayed(decision.id))) return
    // To the channel's connection now (it may have connected again meanwhile). One that ended during
    // the claim loses the verdict as one that breaks just after the send always did.
    this.connections.get(decision.owner)?.send({ type: 'verdict', request_id: decision.code, behavior })
  }

  async relayPendingVerdicts(subscriber: string): Promise<void> {
    for (const d of await this.store.unrelayedAnswers('permission', subscriber)) await this.relayVerdict(d)
  }

  /** A channel that said goodbye has no terminal dialog left to answer. */
  async subscriberLeft(subscriber: string): Promise<void> {
    const open = (await this.store.listDecisions({ kind: 'permission', status: 'open' })).filter(
      (d) => d.owner === subscriber,
    )
    const n = await this.store.cancelOpenDecisions('permission', subscriber)
    if (!n) return
    this.log.info({ subscriber, cancelled: n }, 'open permission requests cancelled')
    await this.announceCancelled(open)
  }

  /**
   * Puts an item to every operator; a notice of a kind they choose (a session at a terminal waiting
   * or finished, a routine's run started or ended: core/notices.ts) only to those who chose it,
   * unless `everyone` (a run stopped over its budget). Any other notice (an event not in context)
   * goes to all.
   */
  async toOperators(told: Told, { everyone = false }: { everyone?: boolean } = {}): Promise<void> {
    // One time for every operator's copy: a surface showing one message for all knows them for copies.
    const message: OutboxMessage =
      told.kind === 'notice'
        ? { kind: 'notice', body: { ...told.body, at: told.body.at ?? Date.now() } }
        : told
    const chosen = message.kind === 'notice' && !everyone ? message.body.kind : undefined
    const operators = (await this.store.listSenders()).filter((s) => s.operator && s.status === 'allowed')
    for (const op of operators) {
      if (chosen && !(await this.noticeChoice(op.id)).includes(chosen)) continue
      await this.outbox.send(op.id, message)
    }
  }

  /** The notices a sender chose to get; every kind until they choose, and any kind added since. */
  async noticeChoice(senderId: string): Promise<NoticeKind[]> {
    const stored = rememberedNoticeChoiceSchema.safeParse(
      await this.store.recall(NOTICE_PLATFORM, 'notice-choice', senderId),
    )
    return stored.success ? kindsOfChoice(stored.data) : [...NOTICE_KINDS]
  }

  async chooseNotices(senderId: string, kinds: NoticeKind[]): Promise<void> {
    await this.store.remember(NOTICE_PLATFORM, 'notice-choice', senderId, rememberedChoice(kinds), Date.now())
  }
}

/**
 * What operators are sent about an open decision: its request, and one line saying what is asked
 * (HTTP streams show the line; a chat shows the call itself, see hub/bridges/prompts.ts). Built
 * from the stored decision, so an operator who comes later is sent the same.
 */
export function promptBody(decision: Decision): PromptBody {
  const { code, request } = decision
  const { key: session, name } = sessionOfDecision(decision)
  const outcome = outcomeOf(request)
  const end = outcome && decision.expiresAt !== null ? { at: decision.expiresAt, outcome } : null
  const ends = end ? { expires_at: end.at, on_timeout: end.outcome } : {}
  const reply = ` — reply "yes ${code}" or "no ${code}"${end ? ` (${timeoutLine(end.at, end.outcome)})` : ''}`
  const tool = typeof request.tool_name === 'string' ? request.tool_name : ''
  const description = typeof request.description === 'string' ? request.description : undefined
  // A channel relays Claude Code's prompt with a preview of the input; a driven session, the input.
  if (typeof request.input_preview === 'string') {
    return {
      id: code,
      owner: decision.owner,
      session,
      session_name: name,
      tool_name: tool,
      description,
      input_preview: request.input_preview,
      ...ends,
      text: `${name}: ${toolCallText(tool, previewedInput(request.input_preview), request.input_preview, description)}${reply}`,
    }
  }
  const input = (request.input && typeof request.input === 'object' ? request.input : {}) as Record<
    string,
    unknown
  >
  // The rest of the request goes as it was asked (a terminal's folder, say); the fields named are typed.
  const {
    tool_name: _tool,
    input: _input,
    description: _description,
    input_preview: _preview,
    ...rest
  } = request
  return {
    id: code,
    decision: decision.id,
    ...rest,
    ...(typeof request.tool_name === 'string' ? { tool_name: tool } : {}),
    ...(request.input && typeof request.input === 'object' ? { input } : {}),
    ...(description !== undefined ? { description } : {}),
    owner: decision.owner,
    session,
    session_name: name,
    ...ends,
    text: `${namedWithAgent(name, request.agent)}: ${promptText({ tool_name: tool, input, description, agent: request.agent, denied_reason: request.denied_reason, project: request.project })}${reply}`,
  }
}

/** A decision put to operators as its prompt. */
export function promptOf(decision: Decision, kind: PromptKind): MessageOf<PromptKind> {
  return { kind, body: promptBody(decision) }
}

/**
 * The session a decision is about, as it was named when it opened (Decisions.named): its key and its
 * name; a decision from before names it by its owner.
 */
export function sessionOfDecision(decision: Pick<Decision, 'owner' | 'request'>): {
  key: string
  name: string
} {
  const { session_key: key, session_name: name } = decision.request
  return {
    key: typeof key === 'string' ? key : decision.owner,
    name: typeof name === 'string' ? name : decision.owner,
  }
}

/** How long a decision with a timeout waited for an answer before it ran out. */
function waitedOf(decision: Decision): number {
  return (decision.expiresAt ?? decision.createdAt) - decision.createdAt
}

/** Where a sender's choice of notices is kept (store/bridge-memory.ts): the hub's, not one platform's. */
const NOTICE_PLATFORM = 'hub'

/** What is put to operators: any message, a notice's time given when it has none. */
export type Told =
  | Exclude<OutboxMessage, { kind: 'notice' }>
  | { kind: 'notice'; body: Omit<NoticeBody, 'at'> & { at?: number } }

/** How far apart a channel's and a hook's copy of one dialog may come. */
const TWIN_WINDOW_MS = 60_000

/**
 * A channel's relayed prompt and a hook's call are the same call: the same tool, and the channel's
 * preview of the input (JSON, perhaps cut short) is the input's, or its beginning.
 */
export function sameCall(
  relayed: Record<string, unknown>,
  tool: string,
  input: Record<string, unknown>,
): boolean {
  if (relayed.tool_name !== tool) return false
  const preview = typeof relayed.input_preview === 'string' ? relayed.input_preview : null
  if (preview === null) return false
  const exact = inputOf(relayed)
  if (exact) return canonicalJson(exact) === canonicalJson(input)
  const head = preview.replace(/(…|\.\.\.)$/u, '')
  return (
    head.length > 0 &&
    (JSON.stringify(input).startsWith(head) || JSON.stringify(input, null, 2).startsWith(head))
  )
}

/** Five letters a–z without l, like Claude Code's own request ids, so `yes <id>` reads the same. */
function permissionCode(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyz'
  let code = ''
  for (const b of randomBytes(5)) code += alphabet[b % alphabet.length]
  return code
}
