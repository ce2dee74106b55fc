// A browser notification (once allowed) whenever a driven session finishes a turn, on whichever page
// is open: the turn ends come from the hub's feed (api/feed.ts). One missed while the feed was down is
// not told later: a notification is for now.
import { useEffect } from 'react'
import type { TurnRow } from '../../../src/core/api/rows.ts'
import { followFeed } from '../api/feed.ts'
import { notifyTurnEnd } from './notifications.ts'

export function useTurnNotifications(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return
    return followFeed('turn', (data) => {
      try {
        notifyTurnEnd(JSON.parse(data) as TurnRow)
      } catch {
        // not a turn: nothing to tell
      }
    })
  }, [enabled])
}
