// Reading a decision's request, whose shape depends on its kind and where it came from.
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import { TIMEOUT_ANSWERER, timedOutText, timeoutLine } from '../../../src/core/decision-timeout.ts'
import { previewedInput } from '../../../src/core/tool-call-text.ts'

export function toolOf(d: DecisionRow): string {
  const tool = d.request.tool_name
  if (typeof tool === 'string' && tool) return tool
  return d.kind === 'pairing' ? 'to pair' : d.kind
}

/** The tool's input as an object, when the hub has it (a channel relay has only a preview). */
export function inputOf(d: DecisionRow): Record<string, unknown> | null {
  const input = d.request.input
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : null
}

/**
 * The exact input an "Always allow" rule would allow (as the hub reads it): the input, or a relay's
 * preview when it is whole JSON. Null when there is none: no rule can be made then.
 */
export function ruleInputOf(d: DecisionRow): Record<string, unknown> | null {
  const preview = d.request.input_preview
  return inputOf(d) ?? previewedInput(typeof preview === 'string' ? preview : null)
}

export function requestText(d: DecisionRow, key: string): string | null {
  const v = d.request[key]
  return typeof v === 'string' && v ? v : null
}

export const KIND_LABEL: Record<DecisionRow['kind'], string> = {
  permission: 'Permission',
  question: 'Question',
  plan: 'Plan',
  denied: 'Denied by auto mode',
  pairing: 'Pairing',
}

/**
 * The verdict of an answered decision and who gave it: "Allowed by ann", "Denied by cli", a plan
 * "Approved" or "Sent back", a question "Answered … : blue".
 */
export function verdictText(d: DecisionRow): string {
  const by = d.answeredBy ?? 'someone'
  const behavior = d.answer?.behavior
  if (behavior !== 'allow' && behavior !== 'deny') return `Answered by ${by}`
  if (d.kind === 'question') {
    if (behavior === 'deny') return `Declined by ${by}`
    const answers = d.answer?.answers
    const chosen =
      answers && typeof answers === 'object' ? Object.values(answers as Record<string, unknown>) : []
    return chosen.length ? `Answered by ${by}: ${chosen.map(String).join(', ')}` : `Answered by ${by}`
  }
  if (d.kind === 'plan') return behavior === 'allow' ? `Approved by ${by}` : `Sent back by ${by}`
  if (d.kind === 'denied') return behavior === 'allow' ? `Retry allowed by ${by}` : `Left denied by ${by}`
  if (d.kind === 'pairing') return behavior === 'allow' ? `Approved by ${by}` : `Denied by ${by}`
  return behavior === 'allow' ? `Allowed by ${by}` : `Denied by ${by}`
}

/** What a closed decision's card says for its last few seconds. */
export function closingText(d: DecisionRow): string {
  // Nobody answered in time: what the timeout did, and after how long.
  if (d.answeredBy === TIMEOUT_ANSWERER && d.expiresAt !== null)
    return timedOutText(d.onTimeout ?? 'deny', d.expiresAt - d.createdAt)
  if (d.status === 'answered') return verdictText(d)
  if (d.status === 'cancelled') return 'Cancelled'
  return 'Expired'
}

/** What an open decision says of its end ("Denied at 14:05 unless answered"); null: it waits on. */
export function endText(d: DecisionRow): string | null {
  return d.expiresAt !== null && d.onTimeout !== null && d.status === 'open'
    ? timeoutLine(d.expiresAt, d.onTimeout)
    : null
}
