// Cron schedules for routines (issue 25): the five fields (minute hour day-of-month month
// day-of-week) with `*`, lists, ranges and steps, read in a time zone. Day of month and day of week,
// both restricted, match when either does (cron's own rule).

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const

export interface Cron {
  sets: Set<number>[]
  /** Whether day of month and day of week were each given (not `*`). */
  domGiven: boolean
  dowGiven: boolean
}

function field(text: string, f: (typeof FIELDS)[number]): Set<number> {
  const set = new Set<number>()
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part)
    if (!m) throw new Error(`${f.name} "${part}" is not a number, a range, * or a step`)
    const from = m[1] === '*' ? f.min : Number(m[2])
    const to = m[1] === '*' ? f.max : m[3] !== undefined ? Number(m[3]) : m[4] ? f.max : from
    const step = m[4] ? Number(m[4]) : 1
    if (from < f.min || to > f.max || from > to || step < 1)
      throw new Error(`${f.name} "${part}" is outside ${f.min}-${f.max}`)
    for (let v = from; v <= to; v += step) set.add(f.name === 'day of week' && v === 7 ? 0 : v)
  }
  return set
}

/** The schedule, or an error saying which field is wrong. */
export function parseCron(text: string): Cron {
  const parts = text.trim().split(/\s+/)
  if (parts.length !== 5)
    throw new Error('a schedule has five fields: minute hour day-of-month month day-of-week')
  return {
    sets: parts.map((p, i) => field(p, FIELDS[i] as (typeof FIELDS)[number])),
    domGiven: parts[2] !== '*',
    dowGiven: parts[4] !== '*',
  }
}

/** Whether `timeZone` is one this runtime knows. */
export function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
    return true
  } catch {
    return false
  }
}

const formats = new Map<string, Intl.DateTimeFormat>()
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** The wall clock in `timeZone` at `ms`: minute, hour, day, month, weekday. */
function wallClock(ms: number, timeZone: string): number[] {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      minute: 'numeric',
      hour: 'numeric',
      day: 'numeric',
      month: 'numeric',
      weekday: 'short',
    })
    formats.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]))
  return [
    Number(parts.minute),
    Number(parts.hour),
    Number(parts.day),
    Number(parts.month),
    WEEKDAYS.indexOf(parts.weekday as string),
  ]
}

export function cronMatches(cron: Cron, ms: number, timeZone: string): boolean {
  const [minute, hour, day, month, weekday] = wallClock(ms, timeZone) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const [mins, hours, days, months, weekdays] = cron.sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ]
  if (!mins.has(minute) || !hours.has(hour) || !months.has(month)) return false
  if (cron.domGiven && cron.dowGiven) return days.has(day) || weekdays.has(weekday)
  return days.has(day) && weekdays.has(weekday)
}

export const MINUTE = 60_000

/** The latest minute in (after, upTo] the schedule names, or null; looks back at most `maxMinutes`. */
export function lastMatchBetween(
  cron: Cron,
  timeZone: string,
  after: number,
  upTo: number,
  maxMinutes = 60 * 24 * 31,
): number | null {
  const floor = Math.max(after, upTo - maxMinutes * MINUTE)
  for (let m = Math.floor(upTo / MINUTE) * MINUTE; m > floor; m -= MINUTE)
    if (cronMatches(cron, m, timeZone)) return m
  return null
}
