import { describe, expect, it } from 'vitest'
import { cronMatches, lastMatchBetween, MINUTE, parseCron } from './cron.js'

const at = (iso: string) => Date.parse(iso)

describe('a cron schedule', () => {
  it('matches its minutes in its time zone, across a change of summer time', () => {
    const weekdays = parseCron('30 8 * * 1-5')
    // 08:30 in Berlin is 07:30 UTC in winter and 06:30 UTC in summer.
    expect(cronMatches(weekdays, at('2030-01-07T07:30:00Z'), 'Europe/Berlin')).toBe(true)
    expect(cronMatches(weekdays, at('2030-07-01T06:30:00Z'), 'Europe/Berlin')).toBe(true)
    expect(cronMatches(weekdays, at('2030-01-07T08:30:00Z'), 'Europe/Berlin')).toBe(false)
    // A Saturday.
    expect(cronMatches(weekdays, at('2030-01-05T07:30:00Z'), 'Europe/Berlin')).toBe(false)
  })

  it('reads lists, ranges, steps, Sunday as 7, and day of month or of week when both are given', () => {
    const every15 = parseCron('*/15 9-17 * * *')
    expect(cronMatches(every15, at('2030-01-07T09:45:00Z'), 'UTC')).toBe(true)
    expect(cronMatches(every15, at('2030-01-07T09:50:00Z'), 'UTC')).toBe(false)
    const sunday = parseCron('0 0 * * 7')
    expect(cronMatches(sunday, at('2030-01-06T00:00:00Z'), 'UTC')).toBe(true)
    const either = parseCron('0 0 1 * 1')
    expect(cronMatches(either, at('2030-01-07T00:00:00Z'), 'UTC')).toBe(true) // a Monday
    expect(cronMatches(either, at('2030-02-01T00:00:00Z'), 'UTC')).toBe(true) // the 1st, a Friday
    expect(cronMatches(either, at('2030-02-05T00:00:00Z'), 'UTC')).toBe(false)
  })

  it('names a wrong field', () => {
    expect(() => parseCron('* * *')).toThrow('a schedule has five fields')
    expect(() => parseCron('0 24 * * *')).toThrow('hour "24" is outside 0-23')
    expect(() => parseCron('0 x * * *')).toThrow('hour "x" is not a number')
  })

  it('finds the latest minute it named in a window, and none outside it', () => {
    const daily = parseCron('30 8 * * *')
    const last = lastMatchBetween(daily, 'UTC', at('2030-01-01T00:00:00Z'), at('2030-01-03T12:00:00Z'))
    expect(new Date(last ?? 0).toISOString()).toBe('2030-01-03T08:30:00.000Z')
    expect(lastMatchBetween(daily, 'UTC', at('2030-01-03T08:30:00Z'), at('2030-01-03T12:00:00Z'))).toBeNull()
    expect(
      lastMatchBetween(daily, 'UTC', at('2030-01-03T08:29:00Z'), at('2030-01-03T08:30:00Z') + MINUTE / 2),
    ).toBe(at('2030-01-03T08:30:00Z'))
  })
})
