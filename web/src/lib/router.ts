// A tiny hash router: `#/`, `#/sessions/<id>`, `#/inbox`, `#/chat`, `#/rules`, `#/routines`, `#/usage`,
// `#/access`, `#/hub`, `#/events` (with an optional query: `#/events?q=<text>&source=<name>`).
import { useEffect, useState } from 'react'

export type Route =
  | { page: 'sessions' }
  | { page: 'session'; id: string }
  | { page: 'inbox' }
  | { page: 'chat' }
  | { page: 'rules' }
  | { page: 'routines' }
  | { page: 'usage' }
  | { page: 'access' }
  | { page: 'hub' }
  | { page: 'events'; q: string; source: string }
  | { page: 'missing'; path: string }

/** What the Events page searches for; empty strings mean "any". */
export interface EventsQuery {
  q?: string
  source?: string
}

export function parseHash(hash: string): Route {
  const full = hash.replace(/^#/, '') || '/'
  const mark = full.indexOf('?')
  const path = (mark < 0 ? full : full.slice(0, mark)) || '/'
  const query = new URLSearchParams(mark < 0 ? '' : full.slice(mark + 1))
  if (path === '/') return { page: 'sessions' }
  if (path === '/inbox') return { page: 'inbox' }
  if (path === '/chat') return { page: 'chat' }
  if (path === '/rules') return { page: 'rules' }
  if (path === '/routines') return { page: 'routines' }
  if (path === '/usage') return { page: 'usage' }
  if (path === '/access') return { page: 'access' }
  if (path === '/hub') return { page: 'hub' }
  if (path === '/events')
    return { page: 'events', q: query.get('q') ?? '', source: query.get('source') ?? '' }
  const session = /^\/sessions\/([^/]+)$/.exec(path)
  if (session?.[1]) return { page: 'session', id: decodeURIComponent(session[1]) }
  return { page: 'missing', path: full }
}

export const href = {
  sessions: () => '#/',
  session: (id: string) => `#/sessions/${encodeURIComponent(id)}`,
  inbox: () => '#/inbox',
  chat: () => '#/chat',
  rules: () => '#/rules',
  routines: () => '#/routines',
  usage: () => '#/usage',
  access: () => '#/access',
  hub: () => '#/hub',
  events: ({ q, source }: EventsQuery = {}) => {
    const query = new URLSearchParams()
    if (q) query.set('q', q)
    if (source) query.set('source', source)
    const s = query.toString()
    return s ? `#/events?${s}` : '#/events'
  },
}

export function navigate(to: string) {
  window.location.hash = to
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash))
  useEffect(() => {
    const update = () => setRoute(parseHash(window.location.hash))
    window.addEventListener('hashchange', update)
    return () => window.removeEventListener('hashchange', update)
  }, [])
  return route
}
