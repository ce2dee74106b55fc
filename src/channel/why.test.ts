// The channel's best guess at why an event never reached Claude's context, said with it unconfirmed.
import { expect, it } from 'vitest'
import { unconfirmedReason } from './why.js'

const claude = ['/usr/bin/claude', '-p', '--channels', 'plugin:switchboard@inline']

it('says the channel was set up late when the session began its turn before Claude Code set it up', () => {
  expect(unconfirmedReason('switchboard', true, claude, { firstLineAt: 1_000, setUpAt: 7_000 })).toMatch(
    /^Claude Code set the channel up late, after the session's turn had begun \(1970-01-01T00:00:01.000Z, set up 1970-01-01T00:00:07.000Z\)/,
  )
})

it('says nothing of lateness for a channel set up before the first turn, or a session with no turn yet', () => {
  const dropped = 'Claude Code did not take it into the conversation (dropped while starting, or refused)'
  expect(unconfirmedReason('switchboard', true, claude, { firstLineAt: 9_000, setUpAt: 7_000 })).toBe(dropped)
  expect(unconfirmedReason('switchboard', true, claude, { firstLineAt: null, setUpAt: 7_000 })).toBe(dropped)
})

it('puts a missing channels flag first: that one no turn mends', () => {
  expect(
    unconfirmedReason('switchboard', true, ['/usr/bin/claude', '-p'], { firstLineAt: 1_000, setUpAt: 7_000 }),
  ).toMatch(/dev flag is missing/)
})
