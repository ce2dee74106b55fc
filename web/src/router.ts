// A tiny hash router: `#/`, `#/sessions/<id>`, `#/inbox`, `#/chat`, `#/rules`, `#/access`, `#/hub`.
import { useEffect, useState } from 'react'

export type Route =
  | { page: 'sessions' }
  | { page: 'session'; id: string }
  | { page: 'inbox' }
  | { page: 'chat' }
  | { page: 'rules' }
  | { page: 'access' }
  | { page: 'hub' }
  | { page: 'missing'; path: string }

export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/'
  if (path === '/') return { page: 'sessions' }
  if (path === '/inbox') return { page: 'inbox' }
  if (path === '/chat') return { page: 'chat' }
  if (path === '/rules') return { page: 'rules' }
  if (path === '/access') return { page: 'access' }
  if (path === '/hub') return { page: 'hub' }
  const session = /^\/sessions\/([^/]+)$/.exec(path)
  if (session?.[1]) return { page: 'session', id: decodeURIComponent(session[1]) }
  return { page: 'missing', path }
}

export const href = {
  sessions: () => '#/',
  session: (id: string) => `#/sessions/${encodeURIComponent(id)}`,
  inbox: () => '#/inbox',
  chat: () => '#/chat',
  rules: () => '#/rules',
  access: () => '#/access',
  hub: () => '#/hub',
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
