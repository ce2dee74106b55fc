import { expect, it } from 'vitest'
import { sessionOfPath } from './forward.js'

it('finds the session a path is about, on the HTTP API and the dashboard, and nothing in a bad path', () => {
  expect(sessionOfPath('/sessions/ses_1/messages')).toBe('ses_1')
  expect(sessionOfPath('/api/sessions/ses_2/stream')).toBe('ses_2')
  expect(sessionOfPath('/sessions')).toBeNull()
  expect(sessionOfPath('/api/sessions')).toBeNull()
  expect(sessionOfPath('/sessions/%E0%A4%A')).toBeNull()
  expect(sessionOfPath('/hooks/sessions/x')).toBeNull()
})
