// Receipts for a session the hub drives (issue 23): each event goes in as a user line with a uuid,
// and the CLI tells that uuid's fate on stdout as `command_lifecycle` lines (docs/transcript-receipts.md):
// `queued`, then `started` (in Claude's context) and `completed`; or `cancelled`, `discarded`,
// `refused` in newer CLIs, which leave it unconfirmed. An agent driven over ACP (agents/acp/) says
// the same from its own record, and `unconfirmed` with its reason where it cannot tell. A CLI that
// ends (killed mid-turn, stopped) before a line entered the conversation says nothing more of it: the
// line is `unconfirmed` with why, and goes in again with the session's next line (session-manager.ts).
// A CLI that lost transcript lines to a full disk says so as it exits (`session_writes_lost`):
// operators are told that a resume may miss what it was shown.
import { randomUUID } from 'node:crypto'
import type { CliLine } from '../../claude/messages.js'
import type { StoredEvent } from '../../core/event.js'
import type { ReceiptStage } from '../../core/receipts.js'
import type { Hub } from '../core/hub.js'

const IN_CONTEXT = new Set(['started', 'completed'])
const REFUSED = new Set(['cancelled', 'discarded', 'refused'])

/** What operators are told becomes of a driven session's unconfirmed event. */
export const NEXT_LINE = "it goes in with the session's next line"

const ENDED_BEFORE = 'the CLI ended before the line carrying it entered the conversation'
const refusedReason = (state: string) => `Claude Code ${state} it`

/**
 * Whether an unconfirmed receipt's reason says the line never entered the conversation (the CLI ended
 * first, or refused it): such an event goes in with the session's next line. An agent that only could
 * not tell (ACP, without a record it reads) may have shown it: that one is not sent again.
 */
export function neverEntered(reason: string | null): boolean {
  return (
    !!reason && (reason.startsWith(ENDED_BEFORE) || [...REFUSED].some((s) => reason === refusedReason(s)))
  )
}

interface Waiting {
  eventId: string
  subscriber: string
  written: boolean
  /** This line's try: the first, or the one after those it was unconfirmed with before. */
  tries: number
}

export class DrivenReceipts {
  /** By the uuid its line was sent with: the event and the subscriber it was delivered to. */
  private readonly waiting = new Map<string, Waiting>()

  constructor(private readonly hub: Hub) {}

  /** A uuid for the line that carries `event` to `subscriber`, remembered until the CLI says its fate. */
  sending(event: StoredEvent, subscriber: string, tries = 1): string {
    const uuid = randomUUID()
    this.waiting.set(uuid, { eventId: event.id, subscriber, written: false, tries })
    return uuid
  }

  /**
   * The subscriber's CLI ended: the lines it was sent and had not taken into the conversation never
   * will be (the CLI's queue dies with it). Each is unconfirmed, with `why` it ended.
   */
  async ended(subscriber: string, why: string): Promise<void> {
    for (const [uuid, entry] of this.waiting)
      if (entry.subscriber === subscriber)
        await this.report(uuid, 'unconfirmed', true, `${ENDED_BEFORE} (${why})`)
  }

  async written(uuid: string): Promise<void> {
    await this.report(uuid, 'written')
  }

  /** The line was never written (the CLI was gone): nothing will be said of that uuid. */
  forget(uuid: string): void {
    this.waiting.delete(uuid)
  }

  /** A line the subscriber's CLI printed. */
  async heard(line: CliLine, subscriber: string): Promise<void> {
    if (line.type === 'system' && line.subtype === 'session_writes_lost')
      return this.writesLost(line, subscriber)
    if (line.type !== 'command_lifecycle') return
    const uuid = typeof line.command_uuid === 'string' ? line.command_uuid : ''
    const state = String(line.state)
    if (!this.waiting.has(uuid)) return
    if (state === 'queued') return this.report(uuid, 'queued')
    if (IN_CONTEXT.has(state)) return this.report(uuid, 'in_context', true)
    if (REFUSED.has(state)) return this.report(uuid, 'unconfirmed', true, refusedReason(state))
    if (state === 'unconfirmed')
      return this.report(uuid, 'unconfirmed', true, typeof line.reason === 'string' ? line.reason : undefined)
  }

  /**
   * The CLI could not save lines of its transcript (a full disk: ENOSPC, EDQUOT), said once as it
   * exits. What it took into the conversation stands for this run, but a resume reads the transcript
   * and misses those lines, events among them: operators are told.
   */
  private async writesLost(line: CliLine, subscriber: string): Promise<void> {
    const lost = Array.isArray(line.lost) ? line.lost.map(String) : []
    if (!lost.includes('transcript')) return
    const code = typeof line.error_code === 'string' ? line.error_code : 'a write error'
    const reason = `Claude Code could not save lines of the session's transcript (${code}${code === 'ENOSPC' ? ': the disk is full' : code === 'EDQUOT' ? ': the disk quota is used up' : ''})`
    await this.hub.tellOperators(
      subscriber,
      reason,
      `${reason}; what it was shown this run, events included, may be missing when it is resumed`,
    )
  }

  private async report(uuid: string, stage: ReceiptStage, last = false, reason?: string): Promise<void> {
    const entry = this.waiting.get(uuid)
    if (!entry) return
    if (last) this.waiting.delete(uuid)
    // An agent may tell a line's fate before the write of it returns (Codex answers the request that
    // carried it after taking it in): the line was written all the same, and said so first.
    const stages: ReceiptStage[] = stage === 'written' || entry.written ? [stage] : ['written', stage]
    entry.written = true
    for (const each of stages)
      await this.hub.receipt(
        entry.subscriber,
        {
          type: 'receipt',
          event_id: entry.eventId,
          stage: each,
          tries: entry.tries,
          ...(each === stage && reason ? { reason } : {}),
        },
        NEXT_LINE,
      )
  }
}
