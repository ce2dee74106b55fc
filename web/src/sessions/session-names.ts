// The names of the driven sessions (core/session-name.ts), for whatever shows a session only by its
// id (a decision's owner in the Inbox, a session's page): loaded with the sessions every few seconds.
import { createContext, useCallback, useContext } from 'react'
import { sessionName } from '../../../src/core/session-name.ts'
import { call } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'

const POLL_MS = 10_000

export const SessionNames = createContext<ReadonlyMap<string, string>>(new Map())

/** Only where the browser operates: elsewhere the sessions are not its to list. */
export function useSessionNamesPoll(): ReadonlyMap<string, string> {
  const polled = usePoll(
    useCallback(async () => {
      const { sessions } = await call('sessions')
      return new Map(sessions.map((s) => [s.id, sessionName(s)]))
    }, []),
    POLL_MS,
  )
  return polled.data ?? new Map()
}

/** A session's name, or its id while the names are loading (or for an owner that is no session). */
export function useSessionName(id: string): string {
  return useContext(SessionNames).get(id) ?? id
}
