// The rows the hub's API answers with (core/api/rows.ts), made from what the store keeps; and the
// feed that tells an open page at once when a decision opens, is answered (wherever) or is cancelled.
import type { BrowserRow, DecisionRow, SenderRow, TurnRow } from '../../core/api/rows.js'
import { outcomeOf } from '../../core/decision-timeout.js'
import { isPrompt, PROMPT_KINDS } from '../../core/outbox.js'
import type { Decision, OutboxItem, Sender } from '../../store/store.js'
import type { Hub } from '../core/hub.js'

const SHOWN_KINDS = new Set<string>([...PROMPT_KINDS, 'pairing'])
const REMEMBERED = 1000

/** A session's `result` line as the turn feed tells it; null for any other line. */
export function turnRow(session: string, line: { type: string; [key: string]: unknown }): TurnRow | null {
  if (line.type !== 'result') return null
  const text = typeof line.result === 'string' ? line.result.trim() || null : null
  const failed = line.is_error === true || line.subtype !== 'success'
  return {
    session,
    text: failed ? null : text,
    costUsd: typeof line.total_cost_usd === 'number' ? line.total_cost_usd : null,
    error: failed ? (text ?? String(line.subtype ?? 'error')) : null,
  }
}

export function senderRow(s: Sender): SenderRow {
  return {
    name: s.name,
    displayName: s.displayName,
    status: s.status,
    operator: s.operator,
    kind: s.kind,
    createdAt: s.createdAt,
  }
}

/** `current`: the browser asking. */
export function browserRow(b: Sender, current: string | null): BrowserRow {
  return {
    name: b.name,
    displayName: b.displayName,
    status: b.status,
    operator: b.operator,
    createdAt: b.createdAt,
    expiresAt: b.expiresAt,
    current: b.id === current,
  }
}

export function decisionRow(d: Decision): DecisionRow {
  return {
    id: d.id,
    code: d.code,
    kind: d.kind as DecisionRow['kind'],
    owner: d.owner,
    status: d.status,
    request: d.request,
    answer: d.answer,
    answeredBy: d.answeredBy,
    createdAt: d.createdAt,
    expiresAt: d.expiresAt,
    onTimeout: outcomeOf(d.request),
  }
}

export class DecisionFeed {
  private readonly listeners = new Set<(row: DecisionRow) => void>()
  /** `<kind>:<code>:<owner>:<status>` already told: every operator gets its own item about the same change. */
  private readonly told = new Set<string>()

  constructor(private readonly hub: Hub) {}

  /** An item stored for a sender (HubEvents.stored): a prompt or an outcome changes the page's list. */
  async stored(item: OutboxItem): Promise<undefined> {
    if (this.listeners.size) await this.announce(item)
    return undefined
  }

  async open(): Promise<DecisionRow[]> {
    const open = await this.hub.store.listDecisions({ status: 'open' })
    const now = Date.now()
    return (
      open
        // A channel's copy of a dialog its session's hook put to operators already is not shown twice.
        .filter(
          (d) => SHOWN_KINDS.has(d.kind) && (d.expiresAt === null || d.expiresAt > now) && !d.request.twin,
        )
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(decisionRow)
    )
  }

  subscribe(listener: (row: DecisionRow) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private async announce(item: OutboxItem): Promise<void> {
    const change = changeOf(item)
    if (!change) return
    const { kind, code, owner, status } = change
    const key = `${kind}:${code}:${owner}:${status}`
    if (this.told.has(key)) return
    this.told.add(key)
    // Once settled, the code may be given again to a new prompt of the same session.
    if (status !== 'open') this.told.delete(`${kind}:${code}:${owner}:open`)
    if (this.told.size > REMEMBERED) this.told.delete(this.told.values().next().value as string)
    const decision = await this.hub.store.latestDecision(kind as Decision['kind'], code, owner)
    if (!decision) return
    const row = decisionRow(decision)
    for (const listener of this.listeners) listener(row)
  }
}

/**
 * The decision an item tells of a change to (hub/people/decisions.ts puts them to every operator) (a prompt: it opened; an outcome: it was answered or
 * cancelled), or null for any other item. The decision's owner: a prompt from before owners were
 * said names it as its session.
 */
function changeOf(item: OutboxItem): { kind: string; code: string; owner: string; status: string } | null {
  if (item.kind === 'decision')
    return {
      kind: item.body.kind,
      code: item.body.id,
      owner: item.body.owner ?? item.body.session,
      status: item.body.status,
    }
  if (isPrompt(item))
    return {
      kind: item.kind,
      code: item.body.id,
      owner: item.body.owner ?? item.body.session,
      status: 'open',
    }
  return null
}
