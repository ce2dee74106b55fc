// Inbox shortcuts: j/k move the selection, a approves, d denies — never while typing in a field.
import { useEffect, useRef } from 'react'

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

export function useInboxKeys(handlers: {
  move: (by: 1 | -1) => void
  approve: () => void
  deny: () => void
}) {
  const current = useRef(handlers)
  current.current = handlers

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return
      const h = current.current
      if (e.key === 'j') h.move(1)
      else if (e.key === 'k') h.move(-1)
      else if (e.key === 'a') h.approve()
      else if (e.key === 'd') h.deny()
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
