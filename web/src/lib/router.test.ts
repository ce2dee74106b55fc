import { describe, expect, it } from 'vitest'
import { href, parseHash } from './router.ts'

describe('the dashboard’s addresses', () => {
  it('opens the page a link names', () => {
    expect(parseHash('')).toEqual({ page: 'sessions' })
    expect(parseHash('#')).toEqual({ page: 'sessions' })
    expect(parseHash('#/')).toEqual({ page: 'sessions' })
    for (const page of ['inbox', 'chat', 'rules', 'routines', 'access', 'hub'] as const)
      expect(parseHash(`#/${page}`)).toEqual({ page })
    expect(parseHash('#/sessions/ses_1')).toEqual({ page: 'session', id: 'ses_1' })
  })

  it('comes back to the same page from every link it makes', () => {
    expect(parseHash(href.sessions())).toEqual({ page: 'sessions' })
    expect(parseHash(href.inbox())).toEqual({ page: 'inbox' })
    expect(parseHash(href.hub())).toEqual({ page: 'hub' })
    for (const id of ['ses_1', 'ci/build 7', 'ünïcode#?&'])
      expect(parseHash(href.session(id))).toEqual({ page: 'session', id })
    for (const query of [{}, { q: 'deploy failed' }, { source: 'github' }, { q: 'a&b=c#d', source: 'ci' }])
      expect(parseHash(href.events(query))).toEqual({ page: 'events', q: '', source: '', ...query })
  })

  it('keeps a plain Events link plain', () => {
    expect(href.events()).toBe('#/events')
    expect(href.events({ q: '', source: '' })).toBe('#/events')
  })

  it('says which address it does not know, rather than opening another page', () => {
    expect(parseHash('#/nowhere')).toEqual({ page: 'missing', path: '/nowhere' })
    expect(parseHash('#/sessions/')).toEqual({ page: 'missing', path: '/sessions/' })
    expect(parseHash('#/sessions/a/b')).toEqual({ page: 'missing', path: '/sessions/a/b' })
    expect(parseHash('#/inbox?x=1')).toEqual({ page: 'inbox' })
  })
})
