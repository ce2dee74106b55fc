// Inbox shortcuts: j/k move the selection, a approves, d denies — never while typing in a field, and
// only once the person has clicked or tapped on this page: keys typed for another page that sent the
// browser here (or a held-down key) answer nothing.
import { useEffect, useRef } from 'react'

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/** Set by the first click or tap anywhere on this page (this document, since it loaded). */
let armed = false
window.addEventListener(
  'pointerdown',
  (e) => {
    if (e.isTrusted) armed = true
  },
  true,
)

export function useInboxKeys(handlers: {
  move: (by: 1 | -1) => void
  approve: () => void
  deny: () => void
}) {
  const current = useRef(handlers)
  current.current = handlers

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!armed || !e.isTrusted || e.repeat) return
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
