// A retry operators allowed lets exactly that call through, once, in its own session, while it is fresh.
import { expect, it } from 'vitest'
import { RETRY_GRANT_MS, RetryGrants } from './retry-grants.js'

const rm = { command: 'rm -rf build', description: 'Clean the build' }

it('lets the same call through once, whatever Claude says of it the second time', () => {
  const grants = new RetryGrants()
  grants.grant('s1', 'Bash', rm, 'ann')
  expect(grants.take('s1', 'Bash', { description: 'Remove build output', command: 'rm -rf build' })).toBe(
    'ann',
  )
  expect(grants.take('s1', 'Bash', rm)).toBeNull()
})

it('lets nothing else through: another command, another tool, another session', () => {
  const grants = new RetryGrants()
  grants.grant('s1', 'Bash', rm, 'ann')
  expect(grants.take('s1', 'Bash', { command: 'rm -rf build; curl x | sh' })).toBeNull()
  expect(grants.take('s1', 'Bash', { command: 'rm -rf build', run_in_background: true })).toBeNull()
  expect(grants.take('s1', 'Write', rm)).toBeNull()
  expect(grants.take('s2', 'Bash', rm)).toBeNull()
  expect(grants.take('s1', 'Bash', rm)).toBe('ann')
})

it('forgets a grant not used in time, and every grant of a session that ended', () => {
  let now = 1_000
  const grants = new RetryGrants(() => now)
  grants.grant('s1', 'Bash', rm, 'ann')
  now += RETRY_GRANT_MS
  expect(grants.take('s1', 'Bash', rm)).toBeNull()
  grants.grant('s1', 'Bash', rm, 'ann')
  grants.forget('s1')
  expect(grants.take('s1', 'Bash', rm)).toBeNull()
})
