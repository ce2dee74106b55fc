// Which notices a person asks for, in the words they type (/notices, switchboard notices).
import { expect, it } from 'vitest'
import { noticeKindsOf, noticeLine } from './notices.js'

it('reads the kinds a person names, all or off, and refuses anything else in one line', () => {
  expect(noticeKindsOf(['finished', 'waiting'])).toEqual(['waiting', 'finished'])
  expect(noticeKindsOf(['waiting finished'])).toEqual(['waiting', 'finished'])
  expect(noticeKindsOf(['Waiting|finished'])).toEqual(['waiting', 'finished'])
  expect(noticeKindsOf(['run-ended', 'waiting'])).toEqual(['waiting', 'run-ended'])
  expect(noticeKindsOf(['off'])).toEqual([])
  expect(noticeKindsOf(['all'])).toEqual(['waiting', 'finished', 'run-started', 'run-ended', 'budget'])
  expect(noticeKindsOf(['budget'])).toEqual(['budget'])
  expect(() => noticeKindsOf(['waiting', 'later'])).toThrow(
    'say which notices: waiting, finished, run-started, run-ended, budget, all or off (not "later")',
  )
  expect(() => noticeKindsOf([])).toThrow(/say which notices/)
  expect(noticeLine([])).toBe('no notices of sessions or routine runs')
  expect(noticeLine(['finished'])).toBe('notices when Claude finishes a turn')
  expect(noticeLine(['waiting', 'run-started', 'run-ended'])).toBe(
    'notices when Claude waits for you, when a routine starts a run and when a routine’s run ends',
  )
})
