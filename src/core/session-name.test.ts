import { describe, expect, it } from 'vitest'
import { projectOf, promptTitle, sessionName } from './session-name.js'

describe('sessionName', () => {
  it('names a session by its project and title, else its first prompt or branch, else its id', () => {
    const s = { id: 'ses_1', cwd: '/home/ann/work/api/', firstPrompt: 'fix the\nlogin bug', title: null }
    expect(sessionName(s)).toBe('api · fix the login bug')
    expect(sessionName({ ...s, title: '  login  ' })).toBe('api · login')
    expect(sessionName({ ...s, title: ' ' })).toBe('api · fix the login bug')
    expect(sessionName({ ...s, firstPrompt: null })).toBe('api')
    expect(sessionName({ ...s, firstPrompt: null, branch: 'feature/login' })).toBe('api · feature/login')
    expect(sessionName({ ...s, project: 'widgets' })).toBe('widgets · fix the login bug')
    expect(sessionName({ id: 'ses_1', cwd: null, firstPrompt: 'hello' })).toBe('hello')
    expect(sessionName({ id: 'ses_1', cwd: '/' })).toBe('ses_1')
  })

  it('cuts a long first prompt with an ellipsis', () => {
    const name = sessionName({ id: 'ses_1', cwd: '/w/api', firstPrompt: 'x'.repeat(200) })
    expect(name).toHaveLength('api · '.length + 60)
    expect(name.endsWith('…')).toBe(true)
  })

  it('reads Windows folders too', () => {
    expect(projectOf('C:\\work\\api')).toBe('api')
  })
})

describe('promptTitle', () => {
  it('leaves out Claude Code’s system reminders and reads its other markup as text', () => {
    expect(
      promptTitle('<system-reminder>\nThe user opened file x.ts\n</system-reminder>\nfix the flaky test'),
    ).toBe('fix the flaky test')
    expect(promptTitle('<command-name>/review</command-name> <command-args>pr 12</command-args>')).toBe(
      '/review pr 12',
    )
    expect(promptTitle('<system-reminder>only this</system-reminder>')).toBeNull()
    expect(promptTitle('a < b and c > d')).toBe('a < b and c > d')
  })
})
