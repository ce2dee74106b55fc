// `#/inbox`: every open decision, live, with the keyboard shortcuts and the notifications switch.
// Above two or more identical permission prompts, one button approves them all.
import { Fragment, useEffect, useMemo, useRef, useState } from 'react'
import { DecisionCard } from '../decisions/decision-card.tsx'
import type { DecisionHandle } from '../decisions/decision-handle.ts'
import type { Decisions } from '../decisions/use-decisions.ts'
import { EnableNotifications } from '../notifications/enable-notifications.tsx'
import { identicalGroups } from './batch.ts'
import { BatchApprove } from './batch-approve.tsx'
import { useInboxKeys } from './use-inbox-keys.ts'

export function InboxPage({ decisions }: { decisions: Decisions }) {
  const { entries, openCount, apply } = decisions
  const handles = useRef(new Map<string, DecisionHandle>())
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const open = entries.filter((e) => !e.closing)
  // Nothing is selected until the person picks a card (a click, a tap, or j / k).
  const selected = open.find((e) => e.decision.id === selectedId)?.decision.id ?? null
  const groups = useMemo(
    () => identicalGroups(entries.filter((e) => !e.closing).map((e) => e.decision)),
    [entries],
  )
  const [batchProblems, setBatchProblems] = useState<string[]>([])

  useInboxKeys({
    move: (by) => {
      if (open.length === 0) return
      const at = open.findIndex((e) => e.decision.id === selected)
      const next = at < 0 ? open[0] : open[Math.min(open.length - 1, Math.max(0, at + by))]
      if (next) setSelectedId(next.decision.id)
    },
    approve: () => {
      if (selected) handles.current.get(selected)?.approve()
    },
    deny: () => {
      if (selected) handles.current.get(selected)?.deny()
    },
  })

  useEffect(() => {
    if (!selected) return
    document.querySelector(`[data-id="${CSS.escape(selected)}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [selected])

  return (
    <main>
      <h1>Inbox</h1>
      <div className="inbox-bar">
        <p>
          {openCount === 0
            ? 'Nothing waits for you.'
            : `${openCount} open decision${openCount === 1 ? '' : 's'}`}
        </p>
        <EnableNotifications />
      </div>
      <p className="muted keys-hint">
        Keys, once you have clicked on this page: j / k move, a approves, d denies.
      </p>
      {batchProblems.length > 0 ? (
        <div className="error batch-problems" role="alert">
          {batchProblems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      ) : null}
      {entries.map((entry) => {
        const id = entry.decision.id
        const group = groups.get(id)
        return (
          <Fragment key={id}>
            {group ? <BatchApprove group={group} onAnswered={apply} onProblems={setBatchProblems} /> : null}
            <DecisionCard
              entry={entry}
              selected={id === selected}
              onSelect={() => setSelectedId(id)}
              onAnswered={apply}
              ref={(h) => {
                if (h) handles.current.set(id, h)
                else handles.current.delete(id)
              }}
            />
          </Fragment>
        )
      })}
    </main>
  )
}
