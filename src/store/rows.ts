// How a stored row becomes the Store's type. SQLite's and Postgres's tables have the same columns, so
// both implementations read their rows here; only a boolean differs (SQLite's 0/1, Postgres's true/false).
import type { Interest, StoredEvent } from '../core/event.js'
import type { RuleEffect, RuleMatch } from '../core/rule-match.js'
import { cutLine } from '../core/session-api.js'
import type { Sender, SenderKind, SenderStatus, Source, StoredOutboxItem } from './access.js'
import type { Decision, DecisionKind, DecisionStatus } from './decisions.js'
import type { SubscriberInfo } from './events.js'
import type { Lease } from './leases.js'
import type { OutboundAttempt, OutboundWebhook } from './outbound.js'
import type { DeadLetter } from './peers.js'
import type { PushSubscriptionRecord } from './push.js'
import type { Rule, RuleScope } from './rules.js'
import type { LinePageSize, SessionLinePage, SessionRecord, SessionStatus } from './sessions.js'
import type { TerminalSession } from './terminal-sessions.js'

/** A row as the database client returns it, before a mapper below turns it into the Store's type. */
export type Row = Record<string, unknown>

const flag = (v: unknown): boolean => v === true || v === 1

export const toSource = (r: Row): Source => ({
  name: r.name as string,
  topic: r.topic as string,
  secret: r.secret as string,
  deliveryHeader: (r.delivery_header as string | null) ?? null,
  preset: r.preset as Source['preset'],
  fieldMap: r.field_map === null ? null : JSON.parse(r.field_map as string),
  about: JSON.parse((r.about as string | null) ?? '[]'),
  createdAt: r.created_at as number,
})

export const toSender = (r: Row): Sender => ({
  id: r.id as string,
  name: r.name as string,
  status: r.status as SenderStatus,
  operator: flag(r.operator),
  displayName: (r.display_name as string | null) ?? null,
  kind: r.kind as SenderKind,
  expiresAt: r.expires_at === null || r.expires_at === undefined ? null : Number(r.expires_at),
  createdAt: r.created_at as number,
})

export const toOutbox = (r: Row): StoredOutboxItem => ({
  id: r.id as number,
  senderId: r.sender_id as string,
  kind: r.kind as string,
  body: parsedOrText(r.body as string),
  receipt: r.receipt ? JSON.parse(r.receipt as string) : null,
  createdAt: r.created_at as number,
})

/** A body that is not JSON (written by hand) is kept as its text, for its reader to refuse. */
function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export const toDecision = (r: Row): Decision => ({
  id: r.id as string,
  kind: r.kind as DecisionKind,
  code: r.code as string,
  owner: r.owner as string,
  status: r.status as DecisionStatus,
  request: JSON.parse(r.request as string),
  answer: r.answer ? JSON.parse(r.answer as string) : null,
  answeredBy: (r.answered_by as string | null) ?? null,
  createdAt: r.created_at as number,
  answeredAt: (r.answered_at as number | null) ?? null,
  expiresAt: (r.expires_at as number | null) ?? null,
})

export const toEvent = (r: Row): StoredEvent => ({
  id: r.id as string,
  seq: r.seq as number,
  topic: r.topic as string,
  source: r.source as string,
  sender: (r.sender as string | null) ?? null,
  chat_id: (r.chat_id as string | null) ?? null,
  content: r.content as string,
  meta: JSON.parse(r.meta as string),
  created_at: r.created_at as number,
})

/** A subscriber's name and interest, as the matching reads it. */
export const toSubscriber = (r: Row): Interest & { name: string; topics: string[]; keys: string[] } => ({
  name: r.name as string,
  topics: JSON.parse(r.topics as string),
  scope: r.scope === 'project' ? 'project' : 'everything',
  keys: JSON.parse((r.keys as string | null) ?? '[]'),
})

export const toSubscriberInfo = (r: Row): SubscriberInfo => ({
  ...toSubscriber(r),
  peer: flag(r.peer),
  pending: r.pending as number,
})

export const toLease = (r: Row): Lease => ({
  name: r.name as string,
  holder: r.holder as string,
  epoch: r.epoch as number,
  expiresAt: r.expires_at as number,
  note: (r.note as string | null) ?? null,
})

export const toWebhook = (r: Row): OutboundWebhook => ({
  name: r.name as string,
  url: r.url as string,
  secret: r.secret as string,
  maxAttempts: r.max_attempts as number,
  backoffMs: r.backoff_ms as number,
  receipts: Boolean(r.receipts),
  createdAt: r.created_at as number,
})

export const toAttempt = (r: Row): OutboundAttempt => ({
  webhook: r.webhook as string,
  kind: r.kind === 'receipt' ? 'receipt' : 'event',
  eventId: r.event_id as string,
  attempt: r.attempt as number,
  status: (r.status as number | null) ?? null,
  error: (r.error as string | null) ?? null,
  at: r.at as number,
})

export const toDeadLetter = (r: Row): DeadLetter => ({
  id: r.id as number,
  kind: r.kind as string,
  target: r.target as string,
  payload: JSON.parse(r.payload as string),
  reason: r.reason as string,
  createdAt: r.created_at as number,
})

export const toRule = (r: Row): Rule => ({
  id: r.id as string,
  toolName: r.tool_name as string,
  match: r.match_kind as RuleMatch,
  input: JSON.parse(r.input as string),
  pattern: (r.pattern as string | null) ?? null,
  effect: r.effect as RuleEffect,
  scope: r.scope as RuleScope,
  scopeValue: (r.scope_value as string | null) ?? null,
  expiresAt: (r.expires_at as number | null) ?? null,
  createdBy: r.created_by as string,
  createdAt: r.created_at as number,
  uses: r.uses as number,
})

export const toSession = (r: Row): SessionRecord => ({
  id: r.id as string,
  claudeSessionId: (r.claude_session_id as string | null) ?? null,
  cwd: r.cwd as string,
  config: JSON.parse(r.config as string),
  status: r.status as SessionStatus,
  costUsd: r.cost_usd as number,
  turns: r.turns as number,
  lastResult: (r.last_result as string | null) ?? null,
  reason: (r.reason as string | null) ?? null,
  firstPrompt: (r.first_prompt as string | null) ?? null,
  title: (r.title as string | null) ?? null,
  project: (r.project as string | null) ?? null,
  routine: (r.routine as string | null) ?? null,
  startedBy: (r.started_by as string | null) ?? null,
  createdAt: r.created_at as number,
  updatedAt: r.updated_at as number,
})

/**
 * A page of session lines from rows of (seq, at, chars, line) in seq order, at most one past the page:
 * a line over `maxLineChars` arrived as its head only, and becomes a CutLine.
 */
export function toLinePage(rows: Iterable<Row>, size: LinePageSize): SessionLinePage {
  const lines: SessionLinePage['lines'] = []
  let total = 0
  for (const r of rows) {
    const chars = Number(r.chars)
    const counted = Math.min(chars, size.maxLineChars)
    if (lines.length === size.limit || (lines.length > 0 && total + counted > size.maxChars))
      return { lines, more: true }
    total += counted
    const json = r.line as string
    lines.push({
      seq: Number(r.seq),
      at: Number(r.at),
      line: chars > size.maxLineChars ? { ...cutLine(json, chars) } : JSON.parse(json),
    })
  }
  return { lines, more: false }
}

export const toTerminalSession = (r: Row): TerminalSession => ({
  sessionId: r.session_id as string,
  folder: r.folder as string,
  name: r.name as string,
  branch: (r.branch as string | null) ?? null,
  repository: (r.repository as string | null) ?? null,
  title: (r.title as string | null) ?? null,
  model: (r.model as string | null) ?? null,
  channel: flag(r.channel),
  status: r.status as TerminalSession['status'],
  startedAt: Number(r.started_at),
  lastSeenAt: Number(r.last_seen_at),
  endedAt: r.ended_at === null || r.ended_at === undefined ? null : Number(r.ended_at),
  endReason: (r.end_reason as string | null) ?? null,
})

export const toPushSubscription = (r: Row): PushSubscriptionRecord => ({
  id: r.id as string,
  senderId: r.sender_id as string,
  endpoint: r.endpoint as string,
  p256dh: r.p256dh as string,
  auth: r.auth as string,
  displayName: (r.display_name as string | null) ?? null,
  createdAt: Number(r.created_at),
})
