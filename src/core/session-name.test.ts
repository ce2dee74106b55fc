import { describe, expect, it } from 'vitest'
import { projectOf, sessionName } from './session-name.js'

describe('sessionName', () => {
  it('names a session by its title, else its project and first prompt, else its id', () => {
    const s = { id: 'ses_1', cwd: '/home/ann/work/api/', firstPrompt: 'fix the\nlogin bug', title: null }
    expect(sessionName(s)).toBe('api: fix the login bug')
    expect(sessionName({ ...s, title: '  login  ' })).toBe('login')
    expect(sessionName({ ...s, title: ' ' })).toBe('api: fix the login bug')
    expect(sessionName({ ...s, firstPrompt: null })).toBe('api')
    expect(sessionName({ id: 'ses_1', cwd: null, firstPrompt: 'hello' })).toBe('hello')
    expect(sessionName({ id: 'ses_1', cwd: '/' })).toBe('ses_1')
  })

  it('cuts a long first prompt with an ellipsis', () => {
    const name = sessionName({ id: 'ses_1', cwd: '/w/api', firstPrompt: 'x'.repeat(200) })
    expect(name).toHaveLength('api: '.length + 60)
    expect(name.endsWith('…')).toBe(true)
  })

  it('reads Windows folders too', () => {
    expect(projectOf('C:\\work\\api')).toBe('api')
  })
})
