// The open decisions, loaded from GET /api/decisions and kept live from the hub's feed (api/feed.ts).
// A decision that closes stays a few seconds with who answered it, then goes.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import { call } from '../api/client.ts'
import { followFeed } from '../api/feed.ts'
import { notifyDecision } from '../notifications/notifications.ts'
import { closingText } from './decision-text.ts'

export interface InboxEntry {
  decision: DecisionRow
  /** Set once the decision is no longer open: what the card says before it disappears. */
  closing: string | null
}

export interface Decisions {
  entries: InboxEntry[]
  openCount: number
  /** Apply a decision the hub returned (an answer from this page). */
  apply: (d: DecisionRow) => void
}

const LINGER_MS = 5_000

export function useDecisions(enabled: boolean): Decisions {
  const map = useRef(new Map<string, InboxEntry>())
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>())
  const [entries, setEntries] = useState<InboxEntry[]>([])

  const commit = useCallback(() => {
    setEntries([...map.current.values()].sort((a, b) => a.decision.createdAt - b.decision.createdAt))
  }, [])

  const apply = useCallback(
    (d: DecisionRow, fromStream = false) => {
      const had = map.current.get(d.id)
      if (d.status === 'open') {
        const timer = timers.current.get(d.id)
        if (timer) clearTimeout(timer)
        map.current.set(d.id, { decision: d, closing: null })
        if (!had && fromStream) notifyDecision(d)
      } else {
        if (!had || had.closing) return
        map.current.set(d.id, { decision: d, closing: closingText(d) })
        timers.current.set(
          d.id,
          setTimeout(() => {
            timers.current.delete(d.id)
            map.current.delete(d.id)
            commit()
          }, LINGER_MS),
        )
      }
      commit()
    },
    [commit],
  )

  useEffect(() => {
    if (!enabled) return
    let stopped = false
    // Decisions the feed reported while a list was loading: the list may predate them.
    let seenSinceLoad = new Set<string>()

    const load = async () => {
      seenSinceLoad = new Set()
      try {
        const { decisions } = await call('decisions')
        if (stopped) return
        const listed = new Set(decisions.map((d) => d.id))
        for (const d of decisions) if (!seenSinceLoad.has(d.id)) apply(d)
        // Open here but not in the list: closed while the feed was down.
        for (const [id, entry] of map.current) {
          if (!entry.closing && !listed.has(id) && !seenSinceLoad.has(id)) map.current.delete(id)
        }
        commit()
      } catch {
        // shown as an empty inbox; the feed's reconnect loads again
      }
    }

    const offChanged = followFeed('changed', (data) => {
      let d: DecisionRow
      try {
        d = JSON.parse(data) as DecisionRow
      } catch {
        return
      }
      seenSinceLoad.add(d.id)
      apply(d, true)
    })
    // Changes made while the feed was down were not sent: load the list again.
    const offReopen = followFeed('reopen', () => void load())
    void load()

    return () => {
      stopped = true
      offChanged()
      offReopen()
    }
  }, [enabled, apply, commit])

  useEffect(
    () => () => {
      for (const timer of timers.current.values()) clearTimeout(timer)
    },
    [],
  )

  const openCount = entries.filter((e) => !e.closing).length
  return { entries, openCount, apply }
}
