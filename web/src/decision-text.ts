// Reading a decision's request, whose shape depends on its kind and where it came from.
import type { DecisionRow } from '../../src/core/api/rows.ts'

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
  const input = inputOf(d)
  if (input) return input
  const preview = d.request.input_preview
  if (typeof preview !== 'string') return null
  try {
    const parsed: unknown = JSON.parse(preview)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

export function requestText(d: DecisionRow, key: string): string | null {
  const v = d.request[key]
  return typeof v === 'string' && v ? v : null
}

export const KIND_LABEL: Record<DecisionRow['kind'], string> = {
  permission: 'Permission',
  question: 'Question',
  plan: 'Plan',
  pairing: 'Pairing',
}

/** What a closed decision's card says for its last few seconds. */
export function closingText(d: DecisionRow): string {
  if (d.status === 'answered') return `Answered by ${d.answeredBy ?? 'someone'}`
  if (d.status === 'cancelled') return 'Cancelled'
  return 'Expired'
}
