import { expect, it } from 'vitest'
import { durationSeconds, spanText, timedOutText, timeoutLine } from './decision-timeout.js'

it('reads a duration as people write it, off as none, and nothing else', () => {
  expect(durationSeconds('90s')).toBe(90)
  expect(durationSeconds('10m')).toBe(600)
  expect(durationSeconds(' 1H ')).toBe(3600)
  expect(durationSeconds('45')).toBe(45)
  expect(durationSeconds('off')).toBeNull()
  for (const bad of ['', '0s', '10 minutes', '-5s', '25h', '1.5m'])
    expect(durationSeconds(bad)).toBeUndefined()
})

it('says what happens and when, and what happened, in words', () => {
  const clock = () => '14:05'
  expect(timeoutLine(0, 'deny', clock)).toBe('Denied at 14:05 unless answered')
  expect(timeoutLine(0, 'terminal', clock)).toBe('Goes back to the terminal at 14:05')
  expect(timedOutText('deny', 600_000)).toBe('Denied: no one answered within 10 min')
  expect(timedOutText('terminal', 300_000)).toBe('Back to the terminal: no one answered within 5 min')
  expect([spanText(90_000), spanText(20_000), spanText(5_400_000)]).toEqual(['90 s', '20 s', '1 h 30 min'])
})
