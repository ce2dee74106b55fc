// A session's tool prompts (`can_use_tool`) become decisions of the hub, which any surface may
// answer (the API, the dashboard, a chat, a rule); the first answer goes back to the CLI in the
// shape it expects. A prompt the CLI withdraws, or one whose CLI ended, is cancelled.
import type { CanUseTool, PermissionAnswer } from '../../claude/messages.js'
import { notFound } from '../../core/errors.js'
import { type PendingInput, type RespondInput, respondSchema } from '../../core/session-api.js'
import type { Decision, Store } from '../../store/store.js'
import type { Decisions } from '../people/decisions.js'
import type { LiveSession } from './live-session.js'
import type { Recorder } from './recording.js'

function kindOf(tool: string): PendingInput['kind'] {
  if (tool === 'AskUserQuestion') return 'question'
  if (tool === 'ExitPlanMode') return 'plan'
  return 'permission'
}

export class Prompts {
  constructor(
    private readonly store: Store,
    private readonly decisions: Decisions,
    private readonly recorder: Recorder,
  ) {}

  /** `can_use_tool` → a decision in the hub; resolves with the first answer from any surface. */
  async ask(live: LiveSession, req: CanUseTool, signal: AbortSignal): Promise<PermissionAnswer> {
    const { id } = live
    const kind = kindOf(req.tool_name)
    const settled: { early?: Decision } = {}
    let settle: (d: Decision) => void = () => {}
    const answered = new Promise<Decision>((resolve) => {
      settle = (d) => {
        settled.early = d
        resolve(d)
      }
    })
    const request = {
      tool_name: req.tool_name,
      input: req.input,
      ...(req.description ? { description: req.description } : {}),
    }
    // Another agent's prompt names it, so every surface says whose it is (as its hooks' prompts do).
    const { agent } = live.process
    const asked = agent === 'claude' ? request : { ...request, agent }
    const decision = await this.decisions.openAwaited(
      { kind, owner: id, request: asked, folder: (await this.store.getSession(id))?.cwd ?? null },
      (d) => settle(d),
    )
    // Answered before anyone was asked (an always-allow rule): nothing waits for a person, so it is
    // no pending input; the transcript says who answered, since no surface showed the prompt.
    if (settled.early) {
      const verdict = toPermissionAnswer(req, settled.early.answer ?? {})
      await this.recorder.record(id, {
        type: 'system',
        subtype: 'decision_answered',
        origin: 'switchboard',
        tool_name: req.tool_name,
        behavior: verdict.behavior,
        answered_by: settled.early.answeredBy,
      })
      return verdict
    }
    live.pending.set(decision.id, { decision: decision.id, code: decision.code, kind, ...asked })
    await this.recorder.setStatus(id, 'waiting_for_input')
    // The CLI withdrew the request (an interrupt): nobody is asked any more, and nothing waits. The
    // cancel is part of the answer, so a store that fails it fails this call (the control channel
    // reports it) rather than going unheard.
    const withdrawn = new Promise<null>((resolve, reject) =>
      signal.addEventListener('abort', () => {
        live.pending.delete(decision.id)
        this.decisions.cancelAwaited([decision.id]).then(() => resolve(null), reject)
      }),
    )
    const done = await Promise.race([answered, withdrawn])
    live.pending.delete(decision.id)
    if (!done) return { behavior: 'deny', message: 'the request was withdrawn' }
    if (live.pending.size === 0) await this.recorder.setStatus(id, 'running')
    return toPermissionAnswer(req, done.answer ?? {})
  }

  /** Answers a prompt of this session's CLI (`live`, if it runs), named by decision id or code. */
  async respond(
    sessionId: string,
    live: LiveSession | undefined,
    decisionIdOrCode: string,
    answer: RespondInput,
    by: string,
  ): Promise<void> {
    const pending = [...(live?.pending.values() ?? [])].find(
      (p) => p.decision === decisionIdOrCode || p.code === decisionIdOrCode,
    )
    if (!pending) throw notFound(`no pending input "${decisionIdOrCode}" in session ${sessionId}`)
    const decision = await this.store.getDecision(pending.decision)
    if (!decision) throw notFound(`decision ${pending.decision} is gone`)
    await this.decisions.answer(decision, answer, by)
  }

  /** The CLI ended: its prompts can be answered no more. */
  async withdrawAll(live: LiveSession): Promise<void> {
    await this.decisions.cancelAwaited([...live.pending.values()].map((p) => p.decision))
    live.pending.clear()
  }
}

/** A stored answer in the shape the CLI expects for this tool; anything unreadable is a denial. */
export function toPermissionAnswer(req: CanUseTool, answer: unknown): PermissionAnswer {
  const parsed = respondSchema.safeParse(answer)
  if (!parsed.success) return { behavior: 'deny', message: 'unreadable answer' }
  const a = parsed.data
  if (a.behavior === 'deny') return { behavior: 'deny', message: a.message }
  if (a.answers) return { behavior: 'allow', updatedInput: { ...req.input, answers: a.answers } }
  return { behavior: 'allow', updatedInput: a.updatedInput ?? req.input }
}
