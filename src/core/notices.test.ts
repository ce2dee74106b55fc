// Which notices a person asks for, in the words they type (/notices, switchboard notices).
import { expect, it } from 'vitest'
import { noticeKindsOf, noticeLine } from './notices.js'

it('reads the kinds a person names, all or off, and refuses anything else in one line', () => {
  expect(noticeKindsOf(['finished', 'waiting'])).toEqual(['waiting', 'finished'])
  expect(noticeKindsOf(['waiting finished'])).toEqual(['waiting', 'finished'])
  expect(noticeKindsOf(['Waiting|finished'])).toEqual(['waiting', 'finished'])
  expect(noticeKindsOf(['off'])).toEqual([])
  expect(noticeKindsOf(['all'])).toEqual(['waiting', 'finished'])
  expect(() => noticeKindsOf(['waiting', 'later'])).toThrow(
    'say which notices: waiting, finished, all or off (not "later")',
  )
  expect(() => noticeKindsOf([])).toThrow(/say which notices/)
  expect(noticeLine([])).toBe('no notices of sessions at terminals')
  expect(noticeLine(['finished'])).toBe('notices when Claude finishes a turn')
})
