// How long a rule lasts, as a select offers it: the same choices in the Inbox's "Always allow" and on
// the Rules page, each option's value its minutes ('' for until revoked).
import { DURATION_CHOICES } from './rule-text.ts'

export function DurationOptions() {
  return (
    <>
      {DURATION_CHOICES.map((c) => (
        <option key={c.label} value={c.minutes === null ? '' : String(c.minutes)}>
          {c.label}
        </option>
      ))}
    </>
  )
}

/** An option's value back in minutes; null for until revoked. */
export function minutesOf(value: string): number | null {
  return value === '' ? null : Number(value)
}
